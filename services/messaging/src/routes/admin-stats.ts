import { messagingStatsSchema, statsPeriodQuerySchema } from '@cartable/contracts';
import { dailyCounts, periodOf, statsWindow, trend } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MessagingDeps } from '../app.ts';

/**
 * Conversations and messages per day for the back office (permission reports.view). Counts
 * only: no content, no participant leaves this service.
 */
export const adminStatsRoutes: FastifyPluginAsyncZod<MessagingDeps> = async (app, { db, guards }) => {
  app.get(
    '/admin/stats/messaging',
    {
      preHandler: guards.requirePermission('reports.view'),
      schema: {
        tags: ['statistics'],
        security: [{ bearer: [] }],
        querystring: statsPeriodQuerySchema,
        response: { 200: messagingStatsSchema },
      },
    },
    async (request) => {
      const window = statsWindow(request.query);
      const conversations = { from: sql`conversations`, at: sql`created_at` };
      const messages = { from: sql`messages`, at: sql`created_at` };
      const [conversationTrend, messageTrend, conversationsPerDay, messagesPerDay] = await Promise.all([
        trend(db, conversations, window),
        trend(db, messages, window),
        dailyCounts(db, conversations, window),
        dailyCounts(db, messages, window),
      ]);
      return {
        period: periodOf(window),
        conversations: conversationTrend,
        messages: messageTrend,
        conversations_per_day: conversationsPerDay,
        messages_per_day: messagesPerDay,
      };
    },
  );
};
