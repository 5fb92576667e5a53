import {
  bookListPageSchema,
  bookListResponseSchema,
  bookStatsResponseSchema,
  memberBooksQuerySchema,
  memberParamsSchema,
  messages,
  profileBooksQuerySchema,
} from '@cartable/contracts';
import { unprocessable } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ListingRouteDeps } from './deps.ts';

const tags = ['books'];
const security = [{ bearer: [] }];

/** A member's listings: their own (« Mes manuels »), a profile's public ones, their figures. */
export const myBookRoutes: FastifyPluginAsyncZod<ListingRouteDeps> = async (app, { guards, listings }) => {
  const { owners } = listings;

  app.get(
    '/books/stats/user',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: bookStatsResponseSchema } } },
    async (request) => ({ stats: await owners.stats(request.claims!.sub) }),
  );

  app.get(
    '/user/books',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: bookListResponseSchema } } },
    async (request) => ({ data: await owners.own(request.claims!.sub) }),
  );

  app.get(
    '/users/profile/books',
    {
      onRequest: guards.optionalUser,
      schema: { tags, querystring: profileBooksQuerySchema, response: { 200: bookListResponseSchema } },
    },
    async (request) => {
      const userId = request.query.user_id ?? request.claims?.sub;
      if (!userId) throw unprocessable({ user_id: ['Précisez le membre (user_id).'] }, messages.validation);
      return { data: await owners.public(userId) };
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
    async (request) => owners.publicPage(request.params.userId, request.query.page, request.query.per_page),
  );
};
