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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SavedSearchRouteDeps } from './deps.ts';

const tags = ['saved-searches'];
const security = [{ bearer: [] }];

/**
 * Saved searches with alerts (services/catalog/API.md « Saved searches »): a member's searches,
 * and the one-click unsubscribe of their e-mails (no login: the token is the proof).
 */
export const savedSearchRoutes: FastifyPluginAsyncZod<SavedSearchRouteDeps> = async (
  app,
  { guards, savedSearches },
) => {
  // RFC 8058: mail clients POST `List-Unsubscribe=One-Click` as a form (urlencoded or
  // multipart). The body says nothing the token does not: read (bounded) and ignored.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, _body, done) => done(null, {}));

  app.get(
    '/saved-searches',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, response: { 200: savedSearchListResponseSchema } },
    },
    async (request) => ({
      data: await savedSearches.list(request.claims!.sub),
      limits: { max: SAVED_SEARCHES_MAX, mails_per_day: SAVED_SEARCH_MAILS_PER_DAY },
    }),
  );

  app.post(
    '/saved-searches',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        body: savedSearchCreateRequestSchema,
        response: { 201: savedSearchWriteResponseSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ message: m.created, saved_search: await savedSearches.create(request.claims!.sub, request.body) }),
  );

  app.put(
    '/saved-searches/:id',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: savedSearchUpdateRequestSchema,
        response: { 200: savedSearchWriteResponseSchema },
      },
    },
    async (request) => ({
      message: m.updated,
      saved_search: await savedSearches.update(request.claims!.sub, request.params.id, request.body),
    }),
  );

  app.delete(
    '/saved-searches/:id',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: idParamsSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await savedSearches.remove(request.claims!.sub, request.params.id);
      return { message: m.deleted };
    },
  );

  // ── one-click unsubscribe (no login) ───────────────────────────────────────────────────────

  const info = (row: Awaited<ReturnType<typeof savedSearches.byToken>>) => ({
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
    async (request) => ({ saved_search: info(await savedSearches.byToken(request.query.token)) }),
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
      const { row, changed } = await savedSearches.unsubscribe(request.query.token);
      return { message: changed ? m.unsubscribed : m.alreadyUnsubscribed, saved_search: info(row) };
    },
  );
};
