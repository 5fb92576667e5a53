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
import type { CatalogDeps } from '../deps.ts';
import {
  acceptSuggestion,
  addWish,
  declineSuggestion,
  exchangeOverview,
  removeWish,
  runExchangeMatcher,
  suggestionDtos,
} from '../domain/exchanges.ts';

const tags = ['exchanges'];
const security = [{ bearer: [] }];
const wishParams = z.object({ id: positiveId(m.wishNotFound) });
const suggestionParams = z.object({ id: z.string().uuid(m.suggestionNotFound) });

/**
 * Exchange matching (issue 15 item 6; API.md « Exchange matching »): a member's wishes, what
 * they offer (their listings open to exchange) and the pairs and cycles suggested to them.
 */
export const exchangeRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, { db, guards, relay, storage }) => {
  /** A new wish may complete a pair: the matcher runs at once, after the answer. */
  const matchSoon = () =>
    void runExchangeMatcher(db)
      .then((made) => {
        if (made) relay.kick();
      })
      .catch((err) => app.log.warn({ err }, 'exchange matcher failed'));

  app.get(
    '/exchanges',
    { preHandler: guards.requireUser, schema: { tags, security, response: { 200: exchangeOverviewSchema } } },
    async (request) => exchangeOverview(db, storage, request.claims!.sub),
  );

  app.post(
    '/exchanges/wishes',
    {
      // Like listing a book: a verified e-mail, so that suggestions reach a real person.
      preHandler: guards.requireVerified,
      schema: { tags, security, body: exchangeWishRequestSchema, response: { 201: exchangeWishResponseSchema } },
    },
    async (request, reply) => {
      const wish = await addWish(db, request.claims!.sub, request.body);
      matchSoon();
      return reply.status(201).send({ message: m.wishAdded, wish });
    },
  );

  app.delete(
    '/exchanges/wishes/:id',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: wishParams, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await removeWish(db, request.claims!.sub, request.params.id);
      return { message: m.wishRemoved };
    },
  );

  app.post(
    '/exchanges/suggestions/:id/accept',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: suggestionParams, response: { 200: exchangeSuggestionResponseSchema } },
    },
    async (request) => {
      const me = request.claims!.sub;
      const { row, everyone } = await acceptSuggestion(db, request.params.id, me);
      relay.kick();
      const [suggestion] = await suggestionDtos(db, storage, [row], me);
      return { message: everyone ? m.allAccepted : m.accepted, suggestion: suggestion! };
    },
  );

  app.post(
    '/exchanges/suggestions/:id/decline',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, params: suggestionParams, response: { 200: exchangeSuggestionResponseSchema } },
    },
    async (request) => {
      const me = request.claims!.sub;
      const row = await declineSuggestion(db, request.params.id, me);
      const [suggestion] = await suggestionDtos(db, storage, [row], me);
      return { message: m.declined, suggestion: suggestion! };
    },
  );
};
