import { messagingStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import { statsWindow } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MessagingDeps } from '../deps.ts';
import { messagingFigures } from '../domain/activity-figures.ts';

/** Conversations and messages per day for the back office (permission reports.view). */
export const adminStatsRoutes: FastifyPluginAsyncZod<MessagingDeps> = async (app, deps) => {
  app.get(
    '/admin/stats/messaging',
    {
      onRequest: deps.guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: messagingStatsSchema },
      },
    },
    async (request) => messagingFigures(deps, statsWindow(request.query)),
  );
};
