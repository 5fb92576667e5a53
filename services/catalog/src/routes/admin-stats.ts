import { catalogStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CatalogDeps } from '../deps.ts';
import { catalogStats } from '../domain/catalog-stats.ts';

/** The catalogue's figures for the back office's dashboard and reports (permission reports.view). */
export const adminStatsRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, { db, guards, categoryStore }) => {
  app.get(
    '/admin/stats/catalog',
    {
      preHandler: guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: catalogStatsSchema },
      },
    },
    async (request) => catalogStats(db, (await categoryStore.view()).graph, request.query),
  );
};
