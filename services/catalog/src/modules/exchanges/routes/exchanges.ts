import {
  exchangeOverviewSchema,
  exchangeSuggestionResponseSchema,
  exchangeWishRequestSchema,
  exchangeWishResponseSchema,
  exchangeMessages as m,
  messageResponseSchema,
  positiveId,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ExchangeRouteDeps } from './deps.ts';

const tags = ['exchanges'];
const security = [{ bearer: [] }];
const wishParams = z.object({ id: positiveId(m.wishNotFound) });
const suggestionParams = z.object({ id: z.string().uuid(m.suggestionNotFound) });

/**
 * Exchange matching (services/catalog/API.md « Exchange matching »): a member's wishes, what
 * they offer (their listings open to exchange) and the pairs and cycles suggested to them.
 */
export const exchangeRoutes: FastifyPluginAsyncZod<ExchangeRouteDeps> = async (app, { guards, exchanges }) => {
  /** A new wish may complete a pair: the matcher runs at once, after the answer. */
  const matchSoon = () => void exchanges.runMatcher().catch((err) => app.log.warn({ err }, 'exchange matcher failed'));

  app.get(
    '/exchanges',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: exchangeOverviewSchema } } },
    async (request) => exchanges.overview(request.claims!.sub),
  );

  app.post(
    '/exchanges/wishes',
    {
      // Like listing a book: a verified e-mail, so that suggestions reach a real person.
      onRequest: guards.requireVerified,
      schema: { tags, security, body: exchangeWishRequestSchema, response: { 201: exchangeWishResponseSchema } },
    },
    async (request, reply) => {
      const wish = await exchanges.addWish(request.claims!.sub, request.body);
      matchSoon();
      return reply.status(201).send({ message: m.wishAdded, wish });
    },
  );

  app.delete(
    '/exchanges/wishes/:id',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: wishParams, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await exchanges.removeWish(request.claims!.sub, request.params.id);
      return { message: m.wishRemoved };
    },
  );

  app.post(
    '/exchanges/suggestions/:id/accept',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: suggestionParams, response: { 200: exchangeSuggestionResponseSchema } },
    },
    async (request) => {
      const { suggestion, everyone } = await exchanges.accept(request.params.id, request.claims!.sub);
      return { message: everyone ? m.allAccepted : m.accepted, suggestion };
    },
  );

  app.post(
    '/exchanges/suggestions/:id/decline',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: suggestionParams, response: { 200: exchangeSuggestionResponseSchema } },
    },
    async (request) => ({
      message: m.declined,
      suggestion: await exchanges.decline(request.params.id, request.claims!.sub),
    }),
  );
};
