import {
  idParamsSchema,
  savedSearchMessages as m,
  messageResponseSchema,
  SAVED_SEARCH_MAILS_PER_DAY,
  SAVED_SEARCHES_MAX,
  savedSearchCreateRequestSchema,
  savedSearchFrequencyLabels,
  savedSearchListResponseSchema,
  savedSearchUnsubscribeInfoSchema,
  savedSearchUnsubscribeQuerySchema,
  savedSearchUnsubscribeResponseSchema,
  savedSearchUpdateRequestSchema,
  savedSearchWriteResponseSchema,
} from '@cartable/contracts';
import { conflict, isUniqueViolation } from '@cartable/service-kit';
import { and, count, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { savedSearches } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import {
  checkFilterReferences,
  filterColumns,
  newUnsubscribeSecret,
  ownSavedSearch,
  recordStopped,
  savedSearchByToken,
  savedSearchesOf,
  toDtos,
} from '../domain/saved-searches.ts';

const tags = ['saved-searches'];
const security = [{ bearer: [] }];

/** A second search under the same name (case ignored) is the 409 of the name. */
async function guardName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(m.nameTaken, { name: [m.nameTaken] });
    throw err;
  }
}

/**
 * Saved searches with alerts (issue 15 item 5; API.md « Saved searches »): a member's searches,
 * and the one-click unsubscribe of their e-mails (no login: the token is the proof). Rules and
 * matching are in domain/saved-searches.ts.
 */
export const savedSearchRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, categoryStore, guards, relay } = deps;

  // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` as a form (urlencoded or
  // multipart). The body says nothing the token does not: read (bounded) and ignored.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, {}));

  app.get(
    '/saved-searches',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, response: { 200: savedSearchListResponseSchema } },
    },
    async (request) => ({
      data: await savedSearchesOf(db, request.claims!.sub),
      limits: { max: SAVED_SEARCHES_MAX, mails_per_day: SAVED_SEARCH_MAILS_PER_DAY },
    }),
  );

  app.post(
    '/saved-searches',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        body: savedSearchCreateRequestSchema,
        response: { 201: savedSearchWriteResponseSchema },
      },
    },
    async (request, reply) => {
      const userId = request.claims!.sub;
      const { name, frequency, filters } = request.body;
      const view = await categoryStore.view();
      const cityName = await checkFilterReferences(db, filters, view);
      const row = await guardName(() =>
        db.transaction(async (tx) => {
          // Serialises a member's saves, so two at once cannot both pass the cap.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`saved_searches:${userId}`}))`);
          const [{ n } = { n: 0 }] = await tx
            .select({ n: count() })
            .from(savedSearches)
            .where(eq(savedSearches.userId, userId));
          if (n >= SAVED_SEARCHES_MAX) throw conflict(m.tooMany);
          const [inserted] = await tx
            .insert(savedSearches)
            .values({
              userId,
              name,
              frequency,
              unsubscribeToken: newUnsubscribeSecret(),
              ...filterColumns(filters, view, cityName),
            })
            .returning();
          return inserted!;
        }),
      );
      const [dto] = await toDtos(db, [row]);
      reply.code(201);
      return { message: m.created, saved_search: dto! };
    },
  );

  app.put(
    '/saved-searches/:id',
    {
      preHandler: guards.requireUser,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: savedSearchUpdateRequestSchema,
        response: { 200: savedSearchWriteResponseSchema },
      },
    },
    async (request) => {
      const userId = request.claims!.sub;
      const row = await ownSavedSearch(db, userId, request.params.id);
      const { name, frequency, filters, active } = request.body;
      let columns = {};
      if (filters) {
        const view = await categoryStore.view();
        columns = filterColumns(filters, view, await checkFilterReferences(db, filters, view));
      }
      const updated = await guardName(() =>
        db.transaction(async (tx) => {
          const [next] = await tx
            .update(savedSearches)
            .set({
              ...(name !== undefined ? { name } : {}),
              ...(frequency !== undefined ? { frequency } : {}),
              ...(active !== undefined ? { active } : {}),
              ...columns,
              updatedAt: new Date(),
            })
            .where(and(eq(savedSearches.id, row.id), eq(savedSearches.userId, userId)))
            .returning();
          if (row.active && active === false) await recordStopped(tx, row, 'paused');
          return next!;
        }),
      );
      if (row.active && active === false) relay.kick();
      const [dto] = await toDtos(db, [updated]);
      return { message: m.updated, saved_search: dto! };
    },
  );

  app.delete(
    '/saved-searches/:id',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: idParamsSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      const row = await ownSavedSearch(db, request.claims!.sub, request.params.id);
      await db.transaction(async (tx) => {
        await tx.delete(savedSearches).where(eq(savedSearches.id, row.id));
        await recordStopped(tx, row, 'deleted');
      });
      relay.kick();
      return { message: m.deleted };
    },
  );

  // ── one-click unsubscribe (no login) ───────────────────────────────────────────────────────

  const info = (row: Awaited<ReturnType<typeof savedSearchByToken>>) => ({
    id: row.id,
    name: row.name,
    summary: row.summary,
    frequency: row.frequency,
    frequency_label: savedSearchFrequencyLabels[row.frequency],
    active: row.active,
  });

  app.get(
    '/saved-searches/unsubscribe',
    {
      schema: {
        tags,
        querystring: savedSearchUnsubscribeQuerySchema,
        response: { 200: savedSearchUnsubscribeInfoSchema },
      },
    },
    async (request) => ({ saved_search: info(await savedSearchByToken(db, request.query.token)) }),
  );

  app.post(
    '/saved-searches/unsubscribe',
    {
      schema: {
        tags,
        querystring: savedSearchUnsubscribeQuerySchema,
        response: { 200: savedSearchUnsubscribeResponseSchema },
      },
    },
    async (request) => {
      const row = await savedSearchByToken(db, request.query.token);
      if (!row.active) return { message: m.alreadyUnsubscribed, saved_search: info(row) };
      await db.transaction(async (tx) => {
        await tx
          .update(savedSearches)
          .set({ active: false, updatedAt: new Date() })
          .where(eq(savedSearches.id, row.id));
        await recordStopped(tx, row, 'unsubscribed');
      });
      relay.kick();
      return { message: m.unsubscribed, saved_search: info({ ...row, active: false }) };
    },
  );
};
