import {
  adminPaymentDetailResponseSchema,
  adminPaymentListQuerySchema,
  adminPaymentPageSchema,
  paymentActionResponseSchema,
  paymentRejectRequestSchema,
  refundRequestSchema,
  subscriptionDetailResponseSchema,
  subscriptionMessages,
  subscriptionStatsSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MonetisationRouteDeps } from './deps.ts';

const s = subscriptionMessages;
const tags = ['subscriptions'];
const security = [{ bearer: [] }];
const uuidParams = z.object({ id: z.string().uuid() });
const _planParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const _actionResponse = subscriptionDetailResponseSchema.extend({ message: z.string() });

/** The back office of payments (payments.manage) and the figures of monetisation (reports.view). */
export const adminPaymentRoutes: FastifyPluginAsyncZod<MonetisationRouteDeps> = async (
  app,
  { guards, monetisation },
) => {
  const office = monetisation.backOffice;
  const paymentsManage = { onRequest: guards.requirePermission('payments.manage') };

  // ── payments ──
  app.get(
    '/admin/payments',
    {
      ...paymentsManage,
      schema: { tags, security, querystring: adminPaymentListQuerySchema, response: { 200: adminPaymentPageSchema } },
    },
    async (request) => {
      const { status, provider, operator, refunded, from, to, q, page } = request.query;
      const filter = {
        status,
        provider,
        operator,
        refunded: refunded === undefined ? undefined : refunded === 'true',
        from,
        to,
        text: q,
      };
      return office.payments(filter, page);
    },
  );
  app.get(
    '/admin/payments/:id',
    {
      ...paymentsManage,
      schema: { tags, security, params: uuidParams, response: { 200: adminPaymentDetailResponseSchema } },
    },
    async (request) => ({ payment: await office.payment(request.params.id) }),
  );
  app.post(
    '/admin/payments/:id/reconcile',
    {
      ...paymentsManage,
      schema: { tags, security, params: uuidParams, response: { 200: paymentActionResponseSchema } },
    },
    async (request) => {
      const payment = await monetisation.reconciliation.now(request.params.id);
      return { message: s.reconciled, payment: await office.payment(payment.id) };
    },
  );
  app.post(
    '/admin/payments/:id/validate',
    {
      ...paymentsManage,
      schema: { tags, security, params: uuidParams, response: { 200: paymentActionResponseSchema } },
    },
    async (request) => ({
      message: s.validated,
      payment: await office.validate(request.params.id, request.claims!.sub),
    }),
  );
  app.post(
    '/admin/payments/:id/reject',
    {
      ...paymentsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: paymentRejectRequestSchema,
        response: { 200: paymentActionResponseSchema },
      },
    },
    async (request) => ({
      message: s.rejected,
      payment: await office.reject(request.params.id, request.body.reason, request.claims!.sub),
    }),
  );
  app.post(
    '/admin/payments/:id/refunds',
    {
      ...paymentsManage,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: refundRequestSchema,
        response: { 201: paymentActionResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: s.refunded,
        payment: await office.refund(request.params.id, request.body.amount, request.body.reason, request.claims!.sub),
      }),
  );

  // ── figures ──
  app.get(
    '/admin/stats/subscriptions',
    {
      onRequest: guards.requirePermission('reports.view'),
      schema: { tags: ['statistics'], security, response: { 200: subscriptionStatsSchema } },
    },
    async () => office.figures(),
  );
};
