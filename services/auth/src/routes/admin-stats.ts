import { memberStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import { dailyCounts, lastWeek, periodOf, statsWindow, trend } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';

/** Members' figures for the back office's dashboard and reports (permission reports.view). */
export const adminStatsRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, { db, guards }) => {
  app.get(
    '/admin/stats/members',
    {
      preHandler: guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: memberStatsSchema },
      },
    },
    async (request) => {
      const window = statsWindow(request.query);
      const signups = { from: sql`users`, at: sql`created_at` };
      const [totals, thisWeek, inPeriod, perDay] = await Promise.all([
        db.execute(sql`select count(*)::int as total,
                              count(email_verified_at)::int as verified,
                              count(*) filter (where is_admin)::int as admins
                       from users`),
        trend(db, signups, lastWeek()),
        trend(db, signups, window),
        dailyCounts(db, signups, window),
      ]);
      const row = (totals as unknown as { rows: Array<{ total: number; verified: number; admins: number }> }).rows[0]!;
      return {
        period: periodOf(window),
        total: row.total,
        verified: row.verified,
        admins: row.admins,
        this_week: thisWeek,
        signups: inPeriod,
        signups_per_day: perDay,
      };
    },
  );
};
