import {
  blockRequestSchema,
  blockStatusResponseSchema,
  blocksResponseSchema,
  messageReportRequestSchema,
  messageResponseSchema,
  uuidParamsSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MessagingDeps } from '../deps.ts';
import { block, blockStatus, myBlocks, reportMessage, unblock } from '../domain/blocks.ts';

const userParams = z.object({ userId: z.string().uuid({ message: 'Membre inconnu.' }) });

/** Blocking a member and reporting a received message. */
export const blockRoutes: FastifyPluginAsyncZod<MessagingDeps> = async (app, deps) => {
  app.addHook('onRequest', deps.guards.requireVerified);
  const tags = ['blocks and reports'];
  const security = [{ bearer: [] }];

  app.get('/blocks', { schema: { tags, security, response: { 200: blocksResponseSchema } } }, async (request) =>
    myBlocks(deps, request.claims!.sub),
  );
  app.post(
    '/blocks',
    { schema: { tags, security, body: blockRequestSchema, response: { 200: messageResponseSchema } } },
    async (request) => block(deps, request.claims!.sub, request.body.user_id),
  );
  app.get(
    '/blocks/:userId',
    { schema: { tags, security, params: userParams, response: { 200: blockStatusResponseSchema } } },
    async (request) => blockStatus(deps, request.claims!.sub, request.params.userId),
  );
  app.delete(
    '/blocks/:userId',
    { schema: { tags, security, params: userParams, response: { 200: messageResponseSchema } } },
    async (request) => unblock(deps, request.claims!.sub, request.params.userId),
  );
  app.post(
    '/messages/:id/report',
    {
      schema: {
        tags,
        security,
        params: uuidParamsSchema,
        body: messageReportRequestSchema,
        response: { 201: messageResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await reportMessage(deps, request.claims!.sub, request.params.id, request.body)),
  );
};
