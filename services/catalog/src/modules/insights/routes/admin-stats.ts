import { catalogStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import type { Db, Guards } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CategoryStore } from '../../taxonomy/index.ts';
import { catalogFigures } from '../domain/catalog-figures.ts';

/** What the figures' route needs. */
export interface InsightRouteDeps {
  guards: Guards;
  db: Db;
  taxonomy: { categories: CategoryStore };
}

/** The catalogue's figures for the back office's dashboard and reports (permission reports.view). */
export const insightRoutes: FastifyPluginAsyncZod<InsightRouteDeps> = async (app, { db, guards, taxonomy }) => {
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
    async (request) => catalogFigures(db, (await taxonomy.categories.view()).graph, request.query),
  );
};
