import { memberStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import { statsWindow } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { memberFigures } from '../domain/member-figures.ts';

/** Members' figures for the back office's dashboard and reports (permission reports.view). */
export const adminStatsRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.get(
    '/admin/stats/members',
    {
      onRequest: deps.guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: memberStatsSchema },
      },
    },
    async (request) => memberFigures(deps, statsWindow(request.query)),
  );
};
