import {
  type AccessClaims,
  type BookListQuery,
  bookDetailResponseSchema,
  bookIdParamsSchema,
  bookListPageSchema,
  bookListQuerySchema,
  bookListResponseSchema,
  bookPageQuerySchema,
  bookStatsResponseSchema,
  bookStatusRequestSchema,
  bookSuggestionsQuerySchema,
  bookSuggestionsResponseSchema,
  bookWriteResponseSchema,
  FEATURED_BOOKS_MAX,
  featuredBooksResponseSchema,
  messageResponseSchema,
  messages,
  profileBooksQuerySchema,
  recommendedBooksResponseSchema,
  VISITOR_BOOK_PAGE_SHARED_SECONDS,
} from '@cartable/contracts';
import { forbidden, HttpError, hasPermission, notFound, unprocessable } from '@cartable/service-kit';
import multipart from '@fastify/multipart';
import { and, desc, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bookImages, books, sellers } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import {
  bookValues,
  checkReferences,
  deleteBook,
  deleteStoredImages,
  imagesOf,
  nextVersion,
  recordBookEvent,
  removeImageRows,
  storeImages,
} from '../domain/book-writes.ts';
import {
  boostedBookIds,
  findBookPage,
  forgetListings,
  listBooks,
  listingPages,
  pageRows,
  sellerActive,
  toBookDtos,
  visitorBookPages,
} from '../domain/books.ts';
import { recordSearchMiss } from '../domain/catalog-stats.ts';
import type { ListingSelection } from '../domain/listing-index.ts';
import { insertLotItems, lotColumns, lotSubjects, resolveLot } from '../domain/lots.ts';
import { suggest } from '../domain/suggestions.ts';
import { readBookForm } from './book-form.ts';

const idParams = bookIdParamsSchema;
const tags = ['books'];
const security = [{ bearer: [] }];
const NOT_FOUND = 'Ce manuel est introuvable.';
const LOT_IS_FIXED = 'Les manuels d’un lot ne se changent pas : supprimez l’annonce et publiez un nouveau lot.';

/** « Recommandés pour vous »: how many. */
const RECOMMENDED_BOOKS = 8;

/** Books: SPEC.md section 7 "Books", answers described in services/catalog/API.md. */
export const bookRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, storage, categoryStore, guards, relay, config, views, listings } = deps;
  await app.register(multipart, {
    // An oversized photo is marked truncated and answered 422 naming its field, not a bare 413.
    throwFileSizeLimit: false,
    limits: { fileSize: config.BOOK_IMAGE_MAX_BYTES, files: 4, fields: 40, fieldSize: 10_000 },
  });

  async function dtos(ids: number[]) {
    return toBookDtos(db, storage, await categoryStore.view(), await pageRows(db, ids, listings));
  }

  /**
   * The most viewed available listings that are shown, from the listing index (the table has no
   * index on views: migration 0024), leaving out `excludeIds`; null while the index is behind or
   * absent (then SQL answers).
   */
  function mostViewed(
    limit: number,
    filter: Pick<ListingSelection, 'cityId' | 'notCityId' | 'excludeUserId'> & { excludeIds?: number[] } = {},
  ): number[] | null {
    const { excludeIds = [], ...where } = filter;
    if (limit <= 0) return [];
    if (!listings) return null;
    const page = listings.select({
      status: 'disponible',
      categoryConditions: [],
      ...where,
      order: { by: 'views', descending: true },
      offset: 0,
      limit: limit + excludeIds.length,
    });
    if (!page) return null;
    const excluded = new Set(excludeIds);
    return page.ids.filter((id) => !excluded.has(id)).slice(0, limit);
  }

  async function ownedBook(id: number, claims: AccessClaims) {
    const [book] = await db.select().from(books).where(eq(books.id, id));
    if (!book) throw notFound(NOT_FOUND);
    if (book.userId !== claims.sub && !hasPermission(claims, 'books.update.any')) throw forbidden();
    return book;
  }

  /** The same answer for everyone (a listing holds nothing personal), so pages can be shared. */
  const listing = async (request: FastifyRequest<{ Querystring: BookListQuery }>) => {
    const key = request.url.replace(/^\/books\/search/, '/books');
    return listingPages.read(key, async () => {
      const page = await listBooks(db, storage, await categoryStore.view(), request.query, listings);
      if (page.total === 0) {
        // For the Rapports screen; off the answer's path, and a failure costs only the figure.
        const { query, category_ids, category_id } = request.query;
        recordSearchMiss(db, query, category_ids ?? (category_id ? [category_id] : [])).catch((error) =>
          request.log.warn({ err: error }, 'search miss not recorded'),
        );
      }
      return page;
    });
  };
  const listingSchema = { tags, querystring: bookListQuerySchema, response: { 200: bookListPageSchema } };
  app.get('/books', { schema: listingSchema }, listing);
  app.get('/books/search', { schema: listingSchema }, listing);

  // What the search box proposes while typing (levels, subjects, titles); the same for everyone.
  app.get(
    '/books/suggestions',
    { schema: { tags, querystring: bookSuggestionsQuerySchema, response: { 200: bookSuggestionsResponseSchema } } },
    async (request, reply) => {
      const suggestions = await suggest(db, await categoryStore.view(), request.query.q, request.query.limit);
      reply.header('cache-control', 'public, max-age=30');
      return { suggestions };
    },
  );

  // « À la une »: the boosted listings first (sponsored), then the most viewed.
  app.get('/books/featured', { schema: { tags, response: { 200: featuredBooksResponseSchema } } }, async () => {
    const shown = and(eq(books.status, 'disponible'), isNull(books.hiddenAt), sellerActive);
    const boosted = await boostedBookIds(db);
    const sponsoredRows = boosted.length
      ? await db
          .select({ id: books.id })
          .from(books)
          .where(and(shown, inArray(books.id, boosted)))
      : [];
    const sponsoredIds = sponsoredRows
      .map((r) => r.id)
      .sort(() => Math.random() - 0.5)
      .slice(0, FEATURED_BOOKS_MAX);
    const limit = FEATURED_BOOKS_MAX - sponsoredIds.length;
    const ids =
      mostViewed(limit, { excludeIds: sponsoredIds }) ??
      (
        await db
          .select({ id: books.id })
          .from(books)
          .where(and(shown, sponsoredIds.length ? notInArray(books.id, sponsoredIds) : undefined))
          .orderBy(desc(books.views), desc(books.id))
          .limit(limit)
      ).map((r) => r.id);
    const sponsored = new Set(sponsoredIds);
    const list = await dtos([...sponsoredIds, ...ids]);
    return { featured_books: list.map((b) => (sponsored.has(b.id) ? { ...b, sponsored: true } : b)) };
  });

  app.get(
    '/books/recommended',
    { preHandler: guards.optionalUser, schema: { tags, response: { 200: recommendedBooksResponseSchema } } },
    async (request) => {
      const userId = request.claims?.sub;
      const [me] = userId
        ? await db.select({ cityId: sellers.cityId }).from(sellers).where(eq(sellers.userId, userId))
        : [];
      const conditions = [
        eq(books.status, 'disponible'),
        isNull(books.hiddenAt),
        sellerActive,
        ...(userId ? [ne(books.userId, userId)] : []),
      ];
      // Near the member first (same town), then the most viewed.
      const own = userId ? { excludeUserId: userId } : {};
      const town = me?.cityId ?? undefined;
      const near = town === undefined ? [] : mostViewed(RECOMMENDED_BOOKS, { ...own, cityId: town });
      const rest = near && mostViewed(RECOMMENDED_BOOKS - near.length, { ...own, notCityId: town });
      const ids =
        near && rest
          ? [...near, ...rest]
          : (
              await db
                .select({ id: books.id })
                .from(books)
                .where(and(...conditions))
                .orderBy(
                  // A listing without a town is not near (a bare comparison would be null, first).
                  ...(town !== undefined ? [desc(sql`coalesce(${books.cityId} = ${town}, false)`)] : []),
                  desc(books.views),
                  desc(books.id),
                )
                .limit(RECOMMENDED_BOOKS)
            ).map((r) => r.id);
      return { books: await dtos(ids) };
    },
  );

  app.get(
    '/books/stats/user',
    { preHandler: guards.requireUser, schema: { tags, security, response: { 200: bookStatsResponseSchema } } },
    async (request) => {
      const rows = await db
        .select({
          status: books.status,
          n: sql<number>`count(*)::int`,
          views: sql<number>`coalesce(sum(${books.views}), 0)::int`,
        })
        .from(books)
        .where(eq(books.userId, request.claims!.sub))
        .groupBy(books.status);
      const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
      return {
        stats: {
          total: rows.reduce((sum, r) => sum + r.n, 0),
          available: count('disponible'),
          reserved: count('réservé'),
          sold: count('vendu'),
          views: rows.reduce((sum, r) => sum + r.views, 0),
        },
      };
    },
  );

  app.get(
    '/books/:id',
    {
      preHandler: guards.optionalUser,
      schema: { tags, params: idParams, querystring: bookPageQuerySchema, response: { 200: bookDetailResponseSchema } },
    },
    async (request, reply) => {
      const { claims } = request;
      const { id } = request.params;
      // ?as=visitor: the visitor's page even to a member (see VISITOR_BOOK_PAGE); views still count as theirs.
      const page =
        claims && request.query.as !== 'visitor'
          ? await bookPage(id, claims)
          : await visitorBookPages.read(id, () => bookPage(id));
      // A view counts for popularity once per visitor and day, except the seller's own; counted
      // off the answer's path and written in batches (view-counter.ts).
      if (claims?.sub !== page.userId) {
        const viewer = claims
          ? { memberId: claims.sub }
          : { address: request.ip, userAgent: request.headers['user-agent'] ?? '' };
        views.add(id, viewer);
      }
      // The same for every visitor: the gateway may serve it again for a few seconds, and tells
      // this service who it served (POST /internal/shared-hits), whose views then count.
      if (!claims) reply.header('cache-control', `public, max-age=0, s-maxage=${VISITOR_BOOK_PAGE_SHARED_SECONDS}`);
      return { book: page.book };
    },
  );

  /** A book page as this viewer may see it (a visitor without claims); 404 when they may not. */
  async function bookPage(id: number, claims?: AccessClaims) {
    // One prepared statement: the book, its photos, its seller and the viewer's block.
    const page = await findBookPage(db, id, claims?.sub);
    if (!page) throw notFound(NOT_FOUND);
    const { book: row, seller } = page;
    const privileged = claims?.sub === row.userId || Boolean(claims && hasPermission(claims, 'books.update.any'));
    // Hidden by the moderation, or its seller deactivated by an administrator (until
    // reactivation): only its owner and the moderators still see it.
    if ((row.hiddenAt || page.inactive) && !privileged) throw notFound(NOT_FOUND);
    const [book] = await toBookDtos(db, storage, await categoryStore.view(), [row]);
    return { userId: row.userId, book: { ...book!, seller } };
  }

  // Multipart (fields of bookFieldsSchema, files image1..image3): read by readBookForm.
  app.post(
    '/books',
    { preHandler: guards.requireVerified, schema: { tags, security, response: { 201: bookWriteResponseSchema } } },
    async (request, reply) => {
      const userId = request.claims!.sub;
      const form = await readBookForm(request, config.BOOK_IMAGE_MAX_BYTES);
      await checkReferences(db, form.fields);
      const lot = form.fields.lot_items ? await resolveLot(db, form.fields.lot_items) : null;
      const stored = await storeImages(storage, form.images);
      try {
        const id = await db.transaction(async (tx) => {
          const values = bookValues(form.fields);
          const [created] = await tx
            .insert(books)
            .values({ ...values, ...(lot ? lotColumns(lot, values.categoryIds) : {}), userId })
            .returning({ id: books.id });
          const bookId = created!.id;
          if (lot) await insertLotItems(tx, bookId, lot);
          // Photos fill the slots in order: image1 and image3 sent make slots 1 and 2.
          const ordered = [...stored.entries()].sort(([a], [b]) => a - b);
          if (ordered.length) {
            await tx.insert(bookImages).values(ordered.map(([, keys], i) => ({ bookId, slot: i + 1, ...keys })));
          }
          await recordBookEvent(tx, storage, 'catalog.book.created', bookId);
          return bookId;
        });
        relay.kick();
        forgetListings();
        categoryStore.clear();
        const [book] = await dtos([id]);
        return reply.status(201).send({ message: 'Annonce publiée avec succès', book: book! });
      } catch (err) {
        await deleteStoredImages(storage, [...stored.values()]);
        throw err;
      }
    },
  );

  app.post(
    '/books/:id',
    {
      preHandler: guards.requireVerified,
      schema: { tags, security, params: idParams, response: { 200: bookWriteResponseSchema } },
    },
    async (request) => {
      const existing = await ownedBook(request.params.id, request.claims!);
      const form = await readBookForm(request, config.BOOK_IMAGE_MAX_BYTES);
      if (form.fields.lot_items) throw unprocessable({ lot_items: [LOT_IS_FIXED] });
      await checkReferences(db, form.fields);
      const values = bookValues(form.fields);
      // A lot keeps its books' subjects among its categories, whatever the form shows.
      if (existing.lotTitles !== null)
        values.categoryIds = [...new Set([...values.categoryIds, ...(await lotSubjects(db, existing.id))])];
      const before = await imagesOf(db, existing.id);
      const stored = await storeImages(storage, form.images);
      const replaced = before.filter((img) => stored.has(img.slot) || form.remove.has(img.slot));
      try {
        await db.transaction(async (tx) => {
          await tx
            .update(books)
            .set({ ...values, ...nextVersion })
            .where(eq(books.id, existing.id));
          await removeImageRows(tx, existing.id, [...new Set([...stored.keys(), ...form.remove])]);
          if (stored.size) {
            await tx
              .insert(bookImages)
              .values([...stored.entries()].map(([slot, keys]) => ({ bookId: existing.id, slot, ...keys })));
          }
          await recordBookEvent(tx, storage, 'catalog.book.updated', existing.id, { previous_price: existing.price });
        });
      } catch (err) {
        await deleteStoredImages(storage, [...stored.values()]);
        throw err;
      }
      relay.kick();
      await deleteStoredImages(storage, replaced);
      forgetListings();
      categoryStore.clear();
      const [book] = await dtos([existing.id]);
      return { message: 'Annonce mise à jour avec succès', book: book! };
    },
  );

  app.delete(
    '/books/:id',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      const book = await ownedBook(request.params.id, request.claims!);
      await deleteBook(db, storage, book.id);
      relay.kick();
      forgetListings();
      categoryStore.clear();
      return { message: 'Annonce supprimée avec succès' };
    },
  );

  app.put(
    '/books/:id/status',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        params: idParams,
        body: bookStatusRequestSchema,
        response: { 200: bookWriteResponseSchema },
      },
    },
    async (request) => {
      const book = await ownedBook(request.params.id, request.claims!);
      const { status } = request.body;
      if (status !== book.status) {
        await db.transaction(async (tx) => {
          await tx
            .update(books)
            .set({ status, ...nextVersion })
            .where(eq(books.id, book.id));
          await recordBookEvent(tx, storage, 'catalog.book.status_changed', book.id, {
            previous_status: book.status,
          });
        });
        relay.kick();
        forgetListings();
        categoryStore.clear();
      }
      const [dto] = await dtos([book.id]);
      return { message: 'Statut mis à jour', book: dto! };
    },
  );

  app.get(
    '/user/books',
    { preHandler: guards.requireUser, schema: { tags, security, response: { 200: bookListResponseSchema } } },
    async (request) => {
      const rows = await db
        .select({ id: books.id })
        .from(books)
        .where(eq(books.userId, request.claims!.sub))
        .orderBy(desc(books.createdAt), desc(books.id));
      return { data: await dtos(rows.map((r) => r.id)) };
    },
  );

  app.get(
    '/users/profile/books',
    {
      preHandler: guards.optionalUser,
      schema: { tags, querystring: profileBooksQuerySchema, response: { 200: bookListResponseSchema } },
    },
    async (request) => {
      const userId = request.query.user_id ?? request.claims?.sub;
      if (!userId) throw new HttpError(422, messages.validation, { user_id: ['Précisez le membre (user_id).'] });
      const rows = await db
        .select({ id: books.id })
        .from(books)
        .where(
          and(
            eq(books.userId, userId),
            inArray(books.status, ['disponible', 'réservé']),
            isNull(books.hiddenAt),
            sellerActive,
          ),
        )
        .orderBy(desc(books.createdAt))
        .limit(50);
      return { data: await dtos(rows.map((r) => r.id)) };
    },
  );
};
