import {
  adminSubscriptionListQuerySchema,
  boostedBookListQuerySchema,
  boostedBookPageSchema,
  messageResponseSchema,
  planListResponseSchema,
  planRequestSchema,
  planWriteResponseSchema,
  subscriptionCancelRequestSchema,
  subscriptionDetailResponseSchema,
  subscriptionExtendRequestSchema,
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
const planParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const actionResponse = subscriptionDetailResponseSchema.extend({ message: z.string() });

/**
 * The back office of subscriptions: plans (administrators), subscriptions and boosted listings
 * (user_subscriptions.manage).
 */
export const adminMonetisationRoutes: FastifyPluginAsyncZod<MonetisationRouteDeps> = async (
  app,
  { guards, monetisation },
) => {
  const office = monetisation.backOffice;
  const admin = { onRequest: guards.requireAdmin };
  const subscriptionsManage = { onRequest: guards.requirePermission('user_subscriptions.manage') };

  // ── plans ──
  app.get(
    '/admin/subscription-plans',
    { ...admin, schema: { tags, security, response: { 200: planListResponseSchema } } },
    async () => office.plans(),
  );
  app.post(
    '/admin/subscription-plans',
    { ...admin, schema: { tags, security, body: planRequestSchema, response: { 201: planWriteResponseSchema } } },
    async (request, reply) =>
      reply.status(201).send({ message: s.planCreated, plan: await office.createPlan(request.body) }),
  );
  app.put(
    '/admin/subscription-plans/:id',
    {
      ...admin,
      schema: {
        tags,
        security,
        params: planParams,
        body: planRequestSchema,
        response: { 200: planWriteResponseSchema },
      },
    },
    async (request) => ({ message: s.planUpdated, plan: await office.updatePlan(request.params.id, request.body) }),
  );
  app.delete(
    '/admin/subscription-plans/:id',
    { ...admin, schema: { tags, security, params: planParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      await office.deletePlan(request.params.id);
      return { message: s.planDeleted };
    },
  );

  // ── subscriptions ──
  app.get(
    '/admin/subscriptions',
    {
      ...subscriptionsManage,
      schema: {
        tags,
        security,
        querystring: adminSubscriptionListQuerySchema,
        response: { 200: subscriptionPageSchema },
      },
    },
    async (request) => {
      const { status, kind, plan_id, user_id, q, page } = request.query;
      return office.subscriptions({ status, kind, planId: plan_id, userId: user_id, member: q }, page);
    },
  );
  app.get(
    '/admin/subscriptions/:id',
    {
      ...subscriptionsManage,
      schema: { tags, security, params: uuidParams, response: { 200: subscriptionDetailResponseSchema } },
    },
    async (request) => ({ subscription: await office.subscription(request.params.id) }),
  );
  app.post(
    '/admin/subscriptions/:id/cancel',
    {
      ...subscriptionsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: subscriptionCancelRequestSchema,
        response: { 200: actionResponse },
      },
    },
    async (request) => ({
      message: s.cancelled,
      subscription: await office.cancel(request.params.id, request.body.reason, request.claims!.sub),
    }),
  );
  app.post(
    '/admin/subscriptions/:id/extend',
    {
      ...subscriptionsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: subscriptionExtendRequestSchema,
        response: { 200: actionResponse },
      },
    },
    async (request) => ({
      message: s.extended,
      subscription: await office.extend(request.params.id, request.body.days, request.body.reason, request.claims!.sub),
    }),
  );
  app.get(
    '/admin/boosted-books',
    {
      ...subscriptionsManage,
      schema: { tags, security, querystring: boostedBookListQuerySchema, response: { 200: boostedBookPageSchema } },
    },
    async (request) => office.boosts(request.query.current === 'true', request.query.page),
  );
};
