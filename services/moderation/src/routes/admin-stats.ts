import { moderationStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import { statsWindow } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModerationDeps } from '../deps.ts';
import { moderationFigures } from '../domain/figures.ts';

/** Comments and contact messages for the back office (permission reports.view). */
export const adminStatsRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, deps) => {
  app.get(
    '/admin/stats/moderation',
    {
      onRequest: deps.guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: moderationStatsSchema },
      },
    },
    async (request) => moderationFigures(deps, statsWindow(request.query)),
  );
};
