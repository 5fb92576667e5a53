import { moderationStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import { dailyCounts, periodOf, statsWindow, trend } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModerationDeps } from '../app.ts';

/** Comments and contact messages for the back office (permission reports.view). */
export const adminStatsRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, { db, guards }) => {
  app.get(
    '/admin/stats/moderation',
    {
      preHandler: guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: moderationStatsSchema },
      },
    },
    async (request) => {
      const window = statsWindow(request.query);
      const comments = { from: sql`comments`, at: sql`created_at` };
      const contacts = { from: sql`contacts`, at: sql`created_at` };
      const [waiting, commentTrend, contactTrend, commentsPerDay, contactsPerDay] = await Promise.all([
        db.execute(sql`select (select count(*) from comments where status = 'pending')::int as pending_comments,
                              (select count(*) from contacts where status = 'new')::int as new_contacts,
                              (select count(*) from reports where status = 'open')::int as open_reports`),
        trend(db, comments, window),
        trend(db, contacts, window),
        dailyCounts(db, comments, window),
        dailyCounts(db, contacts, window),
      ]);
      const row = (
        waiting as unknown as { rows: Array<{ pending_comments: number; new_contacts: number; open_reports: number }> }
      ).rows[0]!;
      return {
        period: periodOf(window),
        pending_comments: row.pending_comments,
        new_contacts: row.new_contacts,
        open_reports: row.open_reports,
        comments: commentTrend,
        contacts: contactTrend,
        comments_per_day: commentsPerDay,
        contacts_per_day: contactsPerDay,
      };
    },
  );
};
