import {
  createRatingRequestSchema,
  dealMessages,
  myRatingsQuerySchema,
  ratingListSchema,
  ratingParamsSchema,
  ratingResponseSchema,
  updateRatingRequestSchema,
  userRatingsParamsSchema,
  userRatingsQuerySchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TrustRouteDeps } from './deps.ts';

const d = dealMessages;
const tags = ['ratings'];
const security = [{ bearer: [] }];

/** Ratings after a confirmed deal (SPEC.md section 3 « Review »; services/catalog/API.md « Ratings »). */
export const ratingRoutes: FastifyPluginAsyncZod<TrustRouteDeps> = async (app, { guards, trust }) => {
  const ratings = trust.ratings;

  app.post(
    '/ratings',
    {
      onRequest: guards.requireVerified,
      schema: { tags, security, body: createRatingRequestSchema, response: { 201: ratingResponseSchema } },
    },
    async (request, reply) =>
      reply.status(201).send({ message: d.rated, rating: await ratings.rate(request.claims!.sub, request.body) }),
  );

  app.put(
    '/ratings/:id',
    {
      onRequest: guards.requireVerified,
      schema: {
        tags,
        security,
        params: ratingParamsSchema,
        body: updateRatingRequestSchema,
        response: { 200: ratingResponseSchema },
      },
    },
    async (request) => ({
      message: d.ratingUpdated,
      rating: await ratings.edit(request.claims!.sub, request.params.id, request.body),
    }),
  );

  app.get(
    '/ratings/mine',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, querystring: myRatingsQuerySchema, response: { 200: ratingListSchema } },
    },
    async (request) => ratings.mine(request.claims!.sub, request.query.direction, request.query.page),
  );

  // Public: the reviews a member received, for their public profile (/profile/{userId}).
  app.get(
    '/users/:userId/ratings',
    {
      schema: {
        tags,
        params: userRatingsParamsSchema,
        querystring: userRatingsQuerySchema,
        response: { 200: ratingListSchema },
      },
    },
    async (request) => ratings.received(request.params.userId, request.query.page),
  );
};
