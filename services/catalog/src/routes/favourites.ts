import {
  bookListPageSchema,
  FAVOURITES_PER_PAGE,
  favouriteParamsSchema,
  favouritesMergeRequestSchema,
  favouritesPageSchema,
  favouritesQuerySchema,
  favouriteWriteResponseSchema,
  memberBooksQuerySchema,
  memberDealsResponseSchema,
  memberParamsSchema,
  trustMessages as t,
} from '@cartable/contracts';
import { type Db, notFound, recordEvent } from '@cartable/service-kit';
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { books, favourites, transactions } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { findBookRows, sellerActive, toBookDtos } from '../domain/books.ts';
import { sellerBadgeOf } from '../domain/subscriptions.ts';

const tags = ['favourites'];
const security = [{ bearer: [] }];

/** A favourite counts while its book is in the public catalogue (not hidden, seller active). */
const visible = and(isNull(books.hiddenAt), sellerActive);

async function favouriteIds(db: Db, userId: string) {
  const rows = await db
    .select({ id: favourites.bookId })
    .from(favourites)
    .innerJoin(books, eq(books.id, favourites.bookId))
    .where(and(eq(favourites.userId, userId), visible))
    .orderBy(desc(favourites.createdAt), desc(favourites.bookId));
  return rows.map((r) => r.id);
}

/** Which of these ids are books a member may follow (in the public catalogue). */
async function followable(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: books.id })
    .from(books)
    .where(and(inArray(books.id, ids), visible));
  return rows.map((r) => r.id);
}

/**
 * Favourites tied to the account (SPEC.md section 4 « Favourites »): only the member reads and
 * changes theirs (the token's subject, never an id in the request). Each change records
 * catalog.favourite.added/removed, from which notifications knows whom to tell when a book changes.
 * Public pages of a member: their listings and their deals completed.
 */
export const favouriteRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, storage, categoryStore, guards, relay } = deps;

  async function dtos(ids: number[]) {
    return toBookDtos(db, storage, await categoryStore.view(), await findBookRows(db, ids));
  }

  app.get(
    '/favourites',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, querystring: favouritesQuerySchema, response: { 200: favouritesPageSchema } },
    },
    async (request) => {
      const { page, per_page: perPage = FAVOURITES_PER_PAGE } = request.query;
      const ids = await favouriteIds(db, request.claims!.sub);
      const pageIds = ids.slice((page - 1) * perPage, page * perPage);
      return {
        data: await dtos(pageIds),
        ids,
        total: ids.length,
        per_page: perPage,
        current_page: page,
        last_page: Math.max(1, Math.ceil(ids.length / perPage)),
      };
    },
  );

  app.put(
    '/favourites/:bookId',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: favouriteParamsSchema, response: { 200: favouriteWriteResponseSchema } },
    },
    async (request) => {
      const userId = request.claims!.sub;
      const { bookId } = request.params;
      if (!(await followable(db, [bookId])).length) throw notFound(t.bookNotFound);
      const added = await db.transaction(async (tx) => {
        const rows = await tx
          .insert(favourites)
          .values({ userId, bookId })
          .onConflictDoNothing()
          .returning({ bookId: favourites.bookId });
        if (rows.length)
          await recordEvent(tx, 'catalog.favourite.added', {
            user_id: userId,
            book_id: bookId,
            at: new Date().toISOString(),
          });
        return rows.length > 0;
      });
      if (added) relay.kick();
      return { message: t.favouriteAdded, ids: await favouriteIds(db, userId) };
    },
  );

  app.delete(
    '/favourites/:bookId',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: favouriteParamsSchema, response: { 200: favouriteWriteResponseSchema } },
    },
    async (request) => {
      const userId = request.claims!.sub;
      const { bookId } = request.params;
      // Taking out what is not there is no error: the member's intent is met.
      const removed = await db.transaction(async (tx) => {
        const rows = await tx
          .delete(favourites)
          .where(and(eq(favourites.userId, userId), eq(favourites.bookId, bookId)))
          .returning({ bookId: favourites.bookId });
        if (rows.length)
          await recordEvent(tx, 'catalog.favourite.removed', {
            user_id: userId,
            book_id: bookId,
            at: new Date().toISOString(),
          });
        return rows.length > 0;
      });
      if (removed) relay.kick();
      return { message: t.favouriteRemoved, ids: await favouriteIds(db, userId) };
    },
  );

  // The browser's offline copy at login: ids already there, unknown or hidden are skipped, so a
  // second merge of the same list changes nothing.
  app.post(
    '/favourites/merge',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, body: favouritesMergeRequestSchema, response: { 200: favouriteWriteResponseSchema } },
    },
    async (request) => {
      const userId = request.claims!.sub;
      const ids = await followable(db, [...new Set(request.body.book_ids)]);
      const added = ids.length
        ? await db.transaction(async (tx) => {
            const rows = await tx
              .insert(favourites)
              .values(ids.map((bookId) => ({ userId, bookId })))
              .onConflictDoNothing()
              .returning({ bookId: favourites.bookId });
            const at = new Date().toISOString();
            for (const row of rows)
              await recordEvent(tx, 'catalog.favourite.added', { user_id: userId, book_id: row.bookId, at });
            return rows.length;
          })
        : 0;
      if (added) relay.kick();
      return { message: t.favouritesMerged, ids: await favouriteIds(db, userId) };
    },
  );

  // A member's listings on their public profile: what the public catalogue shows of them.
  app.get(
    '/users/:userId/books',
    {
      schema: {
        tags: ['members'],
        params: memberParamsSchema,
        querystring: memberBooksQuerySchema,
        response: { 200: bookListPageSchema },
      },
    },
    async (request) => {
      const { page, per_page: perPage } = request.query;
      const where = and(
        eq(books.userId, request.params.userId),
        inArray(books.status, ['disponible', 'réservé']),
        visible,
      );
      const [rows, [count]] = await Promise.all([
        db
          .select({ id: books.id })
          .from(books)
          .where(where)
          .orderBy(desc(books.createdAt), desc(books.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
        db.select({ total: sql<number>`count(*)::int` }).from(books).where(where),
      ]);
      const total = count?.total ?? 0;
      return {
        data: await dtos(rows.map((r) => r.id)),
        total,
        per_page: perPage,
        current_page: page,
        last_page: Math.max(1, Math.ceil(total / perPage)),
      };
    },
  );

  app.get(
    '/users/:userId/deals',
    { schema: { tags: ['members'], params: memberParamsSchema, response: { 200: memberDealsResponseSchema } } },
    async (request) => {
      const { userId } = request.params;
      const [[row], badge] = await Promise.all([
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(transactions)
          .where(
            and(
              eq(transactions.status, 'confirmed'),
              or(eq(transactions.sellerId, userId), eq(transactions.buyerId, userId)),
            ),
          ),
        sellerBadgeOf(db, userId),
      ]);
      return { deals_completed: row?.n ?? 0, badge };
    },
  );
};
