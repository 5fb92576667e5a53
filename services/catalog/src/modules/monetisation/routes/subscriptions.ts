import {
  boostTransferRequestSchema,
  createSubscriptionRequestSchema,
  paymentChoiceSchema,
  paymentSchema,
  planListResponseSchema,
  subscriptionBooksRequestSchema,
  subscriptionCheckoutResponseSchema,
  subscriptionDetailResponseSchema,
  subscriptionListQuerySchema,
  subscriptionMessages,
  subscriptionPageSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MonetisationRouteDeps } from './deps.ts';

const s = subscriptionMessages;
const tags = ['subscriptions'];
const security = [{ bearer: [] }];
const uuidParams = z.object({ id: z.string().uuid() });
const _paymentResponseSchema = z.object({ message: z.string(), payment: paymentSchema });
const detailWithMessage = subscriptionDetailResponseSchema.extend({ message: z.string() });

/** Plans, a member's subscriptions and payments (services/catalog/API.md « Subscriptions and payments »). */
export const subscriptionRoutes: FastifyPluginAsyncZod<MonetisationRouteDeps> = async (
  app,
  { guards, monetisation },
) => {
  const checkout = monetisation.checkout;

  app.get(
    '/subscription-plans',
    { schema: { tags, response: { 200: planListResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return checkout.plans();
    },
  );

  app.post(
    '/subscriptions',
    {
      onRequest: guards.requireVerified,
      schema: {
        tags,
        security,
        body: createSubscriptionRequestSchema,
        response: { 201: subscriptionCheckoutResponseSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await checkout.subscribe(request.claims!.sub, request.body)),
  );

  app.get(
    '/subscriptions',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, querystring: subscriptionListQuerySchema, response: { 200: subscriptionPageSchema } },
    },
    async (request) => checkout.list(request.claims!.sub, request.query.status, request.query.page),
  );

  app.get(
    '/subscriptions/:id',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: uuidParams, response: { 200: subscriptionDetailResponseSchema } },
    },
    async (request) => ({ subscription: await checkout.detail(request.params.id, request.claims!.sub) }),
  );

  app.post(
    '/subscriptions/:id/renew',
    {
      onRequest: guards.requireVerified,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: paymentChoiceSchema,
        response: { 201: subscriptionCheckoutResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await checkout.renew(request.params.id, request.claims!.sub, request.body)),
  );

  app.put(
    '/subscriptions/:id/books',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: subscriptionBooksRequestSchema,
        response: { 200: detailWithMessage },
      },
    },
    async (request) => ({
      message: s.booksUpdated,
      subscription: await checkout.setBooks(request.params.id, request.claims!.sub, request.body.book_ids),
    }),
  );

  app.post(
    '/boosted-books/:id/transfer',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: boostTransferRequestSchema,
        response: { 200: detailWithMessage },
      },
    },
    async (request) => ({
      message: s.transferred,
      subscription: await checkout.transfer(request.params.id, request.claims!.sub, request.body.book_id),
    }),
  );
};
