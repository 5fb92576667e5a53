import { and, eq, or, sql } from 'drizzle-orm';
import { boolean, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.ts';
import type { EventHandlers } from './consumer.ts';

/**
 * Blocks are messaging's; every service that must respect them (catalog, auth, moderation) keeps
 * this projection of messaging.member.blocked / unblocked in its own database and re-exports the
 * table from its `db/schema.ts`, as it does the outbox. One row per pair with the time of its
 * last change, so a late (older) event never undoes a newer one.
 */
export const memberBlocks = pgTable(
  'member_blocks',
  {
    blockerId: uuid('blocker_id').notNull(),
    blockedId: uuid('blocked_id').notNull(),
    blocked: boolean('blocked').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] })],
);

/** Keeps a pair's latest block state: a late (older) block or unblock never overrides a newer one. */
export async function keepBlock(
  db: Db,
  data: { blocker_id: string; blocked_id: string; at: string },
  blocked: boolean,
) {
  const changedAt = new Date(data.at);
  await db
    .insert(memberBlocks)
    .values({ blockerId: data.blocker_id, blockedId: data.blocked_id, blocked, changedAt })
    .onConflictDoUpdate({
      target: [memberBlocks.blockerId, memberBlocks.blockedId],
      set: { blocked, changedAt },
      setWhere: sql`${memberBlocks.changedAt} <= ${changedAt}`,
    });
}

/** Whether either member blocked the other. */
export async function blockBetween(db: Db, a: string, b: string) {
  const [row] = await db
    .select({ blocked: memberBlocks.blocked })
    .from(memberBlocks)
    .where(
      and(
        eq(memberBlocks.blocked, true),
        or(
          and(eq(memberBlocks.blockerId, a), eq(memberBlocks.blockedId, b)),
          and(eq(memberBlocks.blockerId, b), eq(memberBlocks.blockedId, a)),
        ),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The handlers of messaging's block events that keep the projection. */
export const memberBlocksProjection: EventHandlers = {
  'messaging.member.blocked': (tx, { data }) => keepBlock(tx, data, true),
  'messaging.member.unblocked': (tx, { data }) => keepBlock(tx, data, false),
};
