import {
  conversationParamsSchema,
  conversationQuerySchema,
  conversationsResponseSchema,
  conversationThreadSchema,
  markReadResponseSchema,
  messageParamsSchema,
  messageResponseDataSchema,
  recentMessagesResponseSchema,
  sendMessageRequestSchema,
  sendMessageResponseSchema,
  unreadCountResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MessagingDeps } from '../deps.ts';
import {
  listConversations,
  markThreadRead,
  openThread,
  readMessage,
  recentMessages,
  sendMessage,
  unreadCount,
} from '../domain/conversations.ts';

/**
 * Messages between members about a book (services/messaging/API.md): HTTP in, HTTP out. The
 * schemas are libs/contracts/src/messaging.ts; the rules are in src/domain/conversations.ts.
 */
export const messageRoutes: FastifyPluginAsyncZod<MessagingDeps> = async (app, deps) => {
  app.addHook('onRequest', deps.guards.requireVerified);
  const tags = ['messages'];
  const security = [{ bearer: [] }];

  app.post(
    '/messages',
    {
      schema: { tags, security, body: sendMessageRequestSchema, response: { 201: sendMessageResponseSchema } },
    },
    async (request, reply) => reply.status(201).send(await sendMessage(deps, request.claims!.sub, request.body)),
  );

  app.get(
    '/messages',
    { schema: { tags, security, response: { 200: conversationsResponseSchema } } },
    async (request) => ({
      conversations: await listConversations(deps, request.claims!.sub),
    }),
  );

  app.get(
    '/messages/conversation/:bookId/:userId',
    {
      schema: {
        tags,
        security,
        params: conversationParamsSchema,
        querystring: conversationQuerySchema,
        response: { 200: conversationThreadSchema },
      },
    },
    async (request) =>
      openThread(deps, request.claims!.sub, {
        ...request.params,
        page: request.query.page,
        perPage: request.query.per_page,
      }),
  );

  app.post(
    '/messages/conversation/:bookId/:userId/mark-read',
    { schema: { tags, security, params: conversationParamsSchema, response: { 200: markReadResponseSchema } } },
    async (request) => ({
      marked: await markThreadRead(deps, request.claims!.sub, request.params.bookId, request.params.userId),
    }),
  );

  app.get(
    '/messages/unread/count',
    { schema: { tags, security, response: { 200: unreadCountResponseSchema } } },
    async (request) => ({ unreadCount: await unreadCount(deps, request.claims!.sub) }),
  );

  app.get(
    '/messages/:id/read',
    { schema: { tags, security, params: messageParamsSchema, response: { 200: messageResponseDataSchema } } },
    async (request) => ({ data: await readMessage(deps, request.claims!.sub, request.params.id) }),
  );

  app.get(
    '/user/messages/recent',
    { schema: { tags, security, response: { 200: recentMessagesResponseSchema } } },
    async (request) => ({ messages: await recentMessages(deps, request.claims!.sub) }),
  );
};
