import {
  createTransactionRequestSchema,
  dealMessages,
  pendingCountResponseSchema,
  transactionActionResponseSchema,
  transactionCandidatesQuerySchema,
  transactionCandidatesResponseSchema,
  transactionListQuerySchema,
  transactionListSchema,
  transactionParamsSchema,
  transactionResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TrustRouteDeps } from './deps.ts';

const d = dealMessages;
const tags = ['transactions'];
const security = [{ bearer: [] }];

/**
 * Deals between the owner of a listing (seller) and a member who wrote to them about it (buyer):
 * services/catalog/API.md « Transactions ». Only the two parties ever read a deal.
 */
export const transactionRoutes: FastifyPluginAsyncZod<TrustRouteDeps> = async (app, { guards, trust }) => {
  const deals = trust.deals;

  app.post(
    '/transactions',
    {
      onRequest: guards.requireVerified,
      schema: {
        tags,
        security,
        body: createTransactionRequestSchema,
        response: { 201: transactionActionResponseSchema },
      },
    },
    async (request, reply) => {
      const me = request.claims!.sub;
      const created = await deals.propose(me, request.body);
      return reply.status(201).send({ message: d.proposed, transaction: await deals.one(created, me) });
    },
  );

  app.get(
    '/transactions',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, querystring: transactionListQuerySchema, response: { 200: transactionListSchema } },
    },
    async (request) => deals.list(request.claims!.sub, request.query.role, request.query.status, request.query.page),
  );

  app.get(
    '/transactions/pending-count',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: pendingCountResponseSchema } } },
    async (request) => ({ count: await deals.pendingCount(request.claims!.sub) }),
  );

  app.get(
    '/transactions/candidates',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        querystring: transactionCandidatesQuerySchema,
        response: { 200: transactionCandidatesResponseSchema },
      },
    },
    async (request) => ({ data: await deals.candidates(request.claims!.sub, request.query.book_id) }),
  );

  app.get(
    '/transactions/:id',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: transactionParamsSchema, response: { 200: transactionResponseSchema } },
    },
    async (request) => ({ transaction: await deals.get(request.params.id, request.claims!.sub) }),
  );

  const actions = [
    ['confirm', d.confirmed],
    ['decline', d.declined],
    ['cancel', d.cancelled],
  ] as const;
  for (const [action, message] of actions) {
    app.post(
      `/transactions/:id/${action}`,
      {
        onRequest: guards.requireVerified,
        schema: { tags, security, params: transactionParamsSchema, response: { 200: transactionActionResponseSchema } },
      },
      async (request) => {
        const me = request.claims!.sub;
        const row = await deals.answer(request.params.id, me, action);
        return { message, transaction: await deals.one(row, me) };
      },
    );
  }
};
