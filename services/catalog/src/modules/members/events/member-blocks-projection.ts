import type { EventHandlers } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import { memberBlocks } from '../db/schema.ts';

/** Keeps the pair's latest state: a late (older) block or unblock never overrides a newer one. */
async function keep(
  tx: Parameters<NonNullable<EventHandlers['messaging.member.blocked']>>[0],
  data: { blocker_id: string; blocked_id: string; at: string },
  blocked: boolean,
) {
  const row = { blockerId: data.blocker_id, blockedId: data.blocked_id, blocked, changedAt: new Date(data.at) };
  await tx
    .insert(memberBlocks)
    .values(row)
    .onConflictDoUpdate({
      target: [memberBlocks.blockerId, memberBlocks.blockedId],
      set: { blocked, changedAt: row.changedAt },
      setWhere: sql`${memberBlocks.changedAt} <= ${row.changedAt}`,
    });
}

/** messaging.member.blocked / unblocked: who may no longer see a seller's phone and e-mail. */
export const memberBlocksProjection: EventHandlers = {
  'messaging.member.blocked': (tx, { data }) => keep(tx, data, true),
  'messaging.member.unblocked': (tx, { data }) => keep(tx, data, false),
};
