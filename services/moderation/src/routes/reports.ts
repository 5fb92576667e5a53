import {
  reportCreatedResponseSchema,
  reportListQuerySchema,
  reportListResponseSchema,
  reportRequestSchema,
  reportResolveRequestSchema,
  reportResolveResponseSchema,
  reportResponseSchema,
  uuidParamsSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModerationDeps } from '../deps.ts';
import { findReport, listReports, reportContent, reportMessages, resolveReport } from '../domain/reports.ts';

/**
 * « Signaler » and the back office's « Signalements » queue. Messages are reported through
 * messaging (POST /messages/{id}/report), which checks the reporter received them; they arrive
 * here by event.
 */
export const reportRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, { uow, guards }) => {
  const db = uow.db;
  const tags = ['reports'];
  const security = [{ bearer: [] }];
  const admin = { onRequest: guards.requireAdmin };

  app.post(
    '/reports',
    {
      onRequest: guards.requireVerified,
      schema: { tags, security, body: reportRequestSchema, response: { 201: reportCreatedResponseSchema } },
    },
    async (request, reply) => {
      const report = await reportContent(db, request.claims!, request.body);
      return reply.status(201).send({ message: reportMessages.created, report });
    },
  );

  app.get(
    '/admin/reports',
    {
      ...admin,
      schema: { tags, security, querystring: reportListQuerySchema, response: { 200: reportListResponseSchema } },
    },
    async (request) => listReports(db, request.query),
  );

  app.get(
    '/admin/reports/:id',
    { ...admin, schema: { tags, security, params: uuidParamsSchema, response: { 200: reportResponseSchema } } },
    async (request) => ({ report: await findReport(db, request.params.id) }),
  );

  app.post(
    '/admin/reports/:id/resolve',
    {
      ...admin,
      schema: {
        tags,
        security,
        params: uuidParamsSchema,
        body: reportResolveRequestSchema,
        response: { 200: reportResolveResponseSchema },
      },
    },
    async (request) =>
      resolveReport({ uow }, request.claims!, request.params.id, request.body.decision, request.body.note),
  );
};
