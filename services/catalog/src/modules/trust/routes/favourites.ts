import {
  favouriteParamsSchema,
  favouritesMergeRequestSchema,
  favouritesPageSchema,
  favouritesQuerySchema,
  favouriteWriteResponseSchema,
  memberDealsResponseSchema,
  memberParamsSchema,
  trustMessages as t,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TrustRouteDeps } from './deps.ts';

const tags = ['favourites'];
const security = [{ bearer: [] }];

/** Favourites tied to the account (SPEC.md section 4 « Favourites »), and a member's deals completed. */
export const favouriteRoutes: FastifyPluginAsyncZod<TrustRouteDeps> = async (app, { guards, trust, monetisation }) => {
  const favourites = trust.favourites;

  app.get(
    '/favourites',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, querystring: favouritesQuerySchema, response: { 200: favouritesPageSchema } },
    },
    async (request) => favourites.page(request.claims!.sub, request.query.page, request.query.per_page),
  );

  app.put(
    '/favourites/:bookId',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: favouriteParamsSchema, response: { 200: favouriteWriteResponseSchema } },
    },
    async (request) => ({
      message: t.favouriteAdded,
      ids: await favourites.add(request.claims!.sub, request.params.bookId),
    }),
  );

  app.delete(
    '/favourites/:bookId',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: favouriteParamsSchema, response: { 200: favouriteWriteResponseSchema } },
    },
    async (request) => ({
      message: t.favouriteRemoved,
      ids: await favourites.remove(request.claims!.sub, request.params.bookId),
    }),
  );

  app.post(
    '/favourites/merge',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, body: favouritesMergeRequestSchema, response: { 200: favouriteWriteResponseSchema } },
    },
    async (request) => ({
      message: t.favouritesMerged,
      ids: await favourites.merge(request.claims!.sub, request.body.book_ids),
    }),
  );

  // A member's public profile: their deals completed and their seller badge.
  app.get(
    '/users/:userId/deals',
    { schema: { tags: ['members'], params: memberParamsSchema, response: { 200: memberDealsResponseSchema } } },
    async (request) => {
      const { userId } = request.params;
      const [dealsCompleted, badge] = await Promise.all([
        trust.deals.completed(userId),
        monetisation.sellerBadge(userId),
      ]);
      return { deals_completed: dealsCompleted, badge };
    },
  );
};
