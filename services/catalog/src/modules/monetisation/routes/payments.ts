import {
  manualDeclarationRequestSchema,
  paymentFollowResponseSchema,
  paymentSchema,
  subscriptionDetailResponseSchema,
  subscriptionMessages,
} from '@cartable/contracts';
import { hasPermission } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MonetisationRouteDeps } from './deps.ts';

const s = subscriptionMessages;
const tags = ['subscriptions'];
const security = [{ bearer: [] }];
const uuidParams = z.object({ id: z.string().uuid() });
const paymentResponseSchema = z.object({ message: z.string(), payment: paymentSchema });
const _detailWithMessage = subscriptionDetailResponseSchema.extend({ message: z.string() });

/** A member's payments: following one, declaring a manual one, the receipt of a paid one. */
export const paymentRoutes: FastifyPluginAsyncZod<MonetisationRouteDeps> = async (app, { guards, monetisation }) => {
  const checkout = monetisation.checkout;

  app.get(
    '/payments/:id',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: uuidParams, response: { 200: paymentFollowResponseSchema } },
    },
    async (request) => checkout.follow(request.params.id, request.claims!.sub),
  );

  app.post(
    '/payments/:id/declaration',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        body: manualDeclarationRequestSchema,
        response: { 200: paymentResponseSchema },
      },
    },
    async (request) => ({
      message: s.submitted,
      payment: await checkout.declare(request.params.id, request.claims!.sub, request.body),
    }),
  );

  app.get(
    '/payments/:id/receipt',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        params: uuidParams,
        response: {
          200: {
            description: 'Le reçu du paiement, une page A4.',
            content: { 'application/pdf': { schema: z.string().describe('PDF (renderReceiptPdf)') } },
          },
        },
      },
    },
    async (request, reply) => {
      const claims = request.claims!;
      const { pdf, reference } = await checkout.receipt(
        request.params.id,
        hasPermission(claims, 'payments.manage') ? null : claims.sub,
      );
      return (
        reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="recu-${reference}.pdf"`)
          .header('cache-control', 'private, no-store')
          // Bytes, not serialised (the schema above only documents them).
          .send(pdf as unknown as string)
      );
    },
  );
};
