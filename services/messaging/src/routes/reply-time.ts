import { memberParamsSchema, replyTimeResponseSchema } from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MessagingDeps } from '../deps.ts';
import { replyTime } from '../domain/reply-time.ts';

/** GET /users/{userId}/reply-time: public, for the member's profile page. */
export const replyTimeRoutes: FastifyPluginAsyncZod<MessagingDeps> = async (app, { uow }) => {
  app.get(
    '/users/:userId/reply-time',
    {
      schema: { tags: ['members'], params: memberParamsSchema, response: { 200: replyTimeResponseSchema } },
    },
    async (request) => replyTime(uow.db, request.params.userId),
  );
};
