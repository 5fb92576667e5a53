import {
  captchaResponseSchema,
  contactBulkDeleteRequestSchema,
  contactBulkDeleteResponseSchema,
  contactListQuerySchema,
  contactListResponseSchema,
  contactParamsSchema,
  contactRequestSchema,
  contactRespondRequestSchema,
  contactRespondResponseSchema,
  contactResponseSchema,
  contactStatsResponseSchema,
  contactStatusRequestSchema,
  messageResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModerationDeps } from '../deps.ts';
import {
  answerContact,
  contactStats,
  deleteContact,
  deleteManyContacts,
  issueCaptcha,
  listContacts,
  openContact,
  setContactStatus,
  submitContact,
} from '../domain/contact.ts';

/**
 * The contact form and its back office (SPEC.md sections 2, 5 and 7): HTTP in, HTTP out. The
 * schemas are libs/contracts/src/moderation.ts; the rules are in src/domain/contact.ts.
 */
export const contactRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, { uow, guards }) => {
  const db = uow.db;
  const tags = ['contact'];
  const admin = { onRequest: guards.requireAdmin };
  const security = [{ bearer: [] }];

  app.get(
    '/contact/captcha',
    { schema: { tags, response: { 200: captchaResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return issueCaptcha(db);
    },
  );

  app.post(
    '/contact',
    { schema: { tags, body: contactRequestSchema, response: { 201: messageResponseSchema } } },
    async (request, reply) => reply.status(201).send(await submitContact(db, request.body)),
  );

  app.get(
    '/admin/contacts',
    {
      ...admin,
      schema: { tags, security, querystring: contactListQuerySchema, response: { 200: contactListResponseSchema } },
    },
    async (request) => listContacts(db, request.query),
  );

  app.get(
    '/admin/contacts/stats',
    { ...admin, schema: { tags, security, response: { 200: contactStatsResponseSchema } } },
    async () => ({ stats: await contactStats(db) }),
  );

  app.get(
    '/admin/contacts/:id',
    { ...admin, schema: { tags, security, params: contactParamsSchema, response: { 200: contactResponseSchema } } },
    async (request) => ({ data: await openContact(db, request.params.id) }),
  );

  app.post(
    '/admin/contacts/:id/respond',
    {
      ...admin,
      schema: {
        tags,
        security,
        params: contactParamsSchema,
        body: contactRespondRequestSchema,
        response: { 200: contactRespondResponseSchema },
      },
    },
    async (request) => answerContact({ uow }, request.params.id, request.body.response),
  );

  app.patch(
    '/admin/contacts/:id/status',
    {
      ...admin,
      schema: {
        tags,
        security,
        params: contactParamsSchema,
        body: contactStatusRequestSchema,
        response: { 200: contactResponseSchema },
      },
    },
    async (request) => ({ data: await setContactStatus(db, request.params.id, request.body.status) }),
  );

  app.delete(
    '/admin/contacts/:id',
    { ...admin, schema: { tags, security, params: contactParamsSchema, response: { 200: messageResponseSchema } } },
    async (request) => deleteContact(db, request.params.id),
  );

  app.post(
    '/admin/contacts/bulk-delete',
    {
      ...admin,
      schema: {
        tags,
        security,
        body: contactBulkDeleteRequestSchema,
        response: { 200: contactBulkDeleteResponseSchema },
      },
    },
    async (request) => deleteManyContacts(db, request.body.ids),
  );
};
