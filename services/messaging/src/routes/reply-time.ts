import {
  memberParamsSchema,
  REPLY_TIME_DAYS,
  REPLY_TIME_MIN_SAMPLES,
  replyTimeBucket,
  replyTimeLabels,
  replyTimeResponseSchema,
} from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MessagingDeps } from '../app.ts';

/**
 * A member's typical reply time: in each conversation where the other member wrote first within
 * the last 90 days, the delay between that first message and the member's first answer after
 * it; the median of those delays. Conversations the member never answered are left out (no
 * delay to measure); too few answers (under REPLY_TIME_MIN_SAMPLES) and nothing is said.
 */
export async function replyTime(db: Db, userId: string, now = new Date()) {
  const since = new Date(now.getTime() - REPLY_TIME_DAYS * 86_400_000);
  const result = await db.execute(sql`
    select percentile_cont(0.5) within group (order by delay) as median, count(*)::int as samples
    from (
      select extract(epoch from (answered.at - asked.at)) as delay
      from conversations c
      cross join lateral (
        select min(m.created_at) as at from messages m
        where m.conversation_id = c.id and m.sender_id <> ${userId}
      ) asked
      cross join lateral (
        select min(m.created_at) as at from messages m
        where m.conversation_id = c.id and m.sender_id = ${userId} and m.created_at > asked.at
      ) answered
      where (c.member_a = ${userId} or c.member_b = ${userId})
        and asked.at >= ${since.toISOString()}::timestamptz
        and answered.at is not null
        -- The member wrote first: that conversation measures the other's reply, not theirs.
        and not exists (
          select 1 from messages f
          where f.conversation_id = c.id and f.sender_id = ${userId} and f.created_at < asked.at
        )
    ) delays`);
  const row = (result as unknown as { rows: Array<{ median: number | string | null; samples: number }> }).rows[0];
  const samples = Number(row?.samples ?? 0);
  const median = row?.median === null || row?.median === undefined ? null : Math.round(Number(row.median));
  if (samples < REPLY_TIME_MIN_SAMPLES || median === null)
    return { bucket: null, label: null, median_seconds: null, samples };
  const bucket = replyTimeBucket(median);
  return { bucket, label: replyTimeLabels[bucket], median_seconds: median, samples };
}

/** GET /users/{userId}/reply-time: public, for the member's profile page. */
export const replyTimeRoutes: FastifyPluginAsyncZod<MessagingDeps> = async (app, { db }) => {
  app.get(
    '/users/:userId/reply-time',
    {
      schema: { tags: ['members'], params: memberParamsSchema, response: { 200: replyTimeResponseSchema } },
    },
    async (request) => replyTime(db, request.params.userId),
  );
};
