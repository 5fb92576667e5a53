import { catalogStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import { type Db, type Guards, writeCsv } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
      onRequest: guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: catalogStatsSchema },
      },
    },
    async (request) => catalogFigures(db, (await taxonomy.categories.view()).graph, request.query),
  );

  /**
   * « Exporter l'offre et la demande »: what is listed per level and subject beside what visitors
   * searched for in vain, as a CSV written here through writeCsv: the searches are anyone's text,
   * and the administrator opens the file in a spreadsheet.
   */
  app.get(
    '/admin/stats/catalog/supply-demand.csv',
    {
      onRequest: guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: z.string().describe('text/csv; charset=utf-8') },
      },
    },
    async (request, reply) => {
      const figures = await catalogFigures(db, (await taxonomy.categories.view()).graph, request.query);
      const { from, to } = figures.period;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="cartable-offre-demande-${from}-${to}.csv"`)
        .send(
          writeCsv(
            ['Type', 'Niveau ou catégorie', 'Matière ou recherche', 'Nombre'],
            [
              ...figures.by_level_subject.map((row) => ['Annonces', row.level, row.subject, row.count]),
              ...figures.search_misses.map((miss) => [
                'Recherche sans résultat',
                miss.category ?? '',
                miss.query,
                miss.searches,
              ]),
            ],
          ),
        );
    },
  );
};
