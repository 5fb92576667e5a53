import { statsPeriodQuerySchema } from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MonetisationRouteDeps } from './deps.ts';

/**
 * GET /admin/payments/daily-totals.csv (payments.manage): the paid money per day, provider and
 * operator over a period (Libreville's today by default), for the accountant to match against the
 * aggregator's statement.
 */
export const adminPaymentExportRoutes: FastifyPluginAsyncZod<MonetisationRouteDeps> = async (
  app,
  { guards, monetisation },
) => {
  app.get(
    '/admin/payments/daily-totals.csv',
    {
      onRequest: guards.requirePermission('payments.manage'),
      schema: {
        tags: ['subscriptions'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: z.string().describe('text/csv; charset=utf-8') },
      },
    },
    async (request, reply) => {
      const { from, to, csv } = await monetisation.backOffice.dailyTotalsCsv(request.query.from, request.query.to);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="cartable-paiements-${from}-${to}.csv"`)
        .send(csv);
    },
  );
};
