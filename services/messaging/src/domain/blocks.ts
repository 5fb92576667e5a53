import { messages as catalogue, type ReportReason } from '@cartable/contracts';
import {
  conflict,
  type Db,
  forbidden,
  isUniqueViolation,
  notFound,
  type OutboxRelay,
  recordEvent,
  unprocessable,
} from '@cartable/service-kit';
import { and, desc, eq, or } from 'drizzle-orm';
import { findMember, findMembers } from '../db/queries.ts';
import { blocks, messageReports, messages } from '../db/schema.ts';

const m = catalogue.messaging;
interface Context {
  db: Db;
  relay: Pick<OutboxRelay, 'kick'>;
}

/** Whether `blocker` blocked `blocked`. */
export async function hasBlocked(db: Db, blocker: string, blocked: string) {
  const [row] = await db
    .select({ at: blocks.createdAt })
    .from(blocks)
    .where(and(eq(blocks.blockerId, blocker), eq(blocks.blockedId, blocked)));
  return Boolean(row);
}

/**
 * Before a message leaves: a member who blocked the receiver is told to unblock first; one the
 * receiver blocked is refused (and told so plainly: nothing is sent in their name).
 */
export async function refuseIfBlocked(db: Db, sender: string, receiver: string) {
  const rows = await db
    .select({ blocker: blocks.blockerId })
    .from(blocks)
    .where(
      or(
        and(eq(blocks.blockerId, sender), eq(blocks.blockedId, receiver)),
        and(eq(blocks.blockerId, receiver), eq(blocks.blockedId, sender)),
      ),
    );
  if (rows.some((r) => r.blocker === receiver)) throw forbidden(m.blockedByReceiver);
  if (rows.some((r) => r.blocker === sender)) throw unprocessable({ receiver_id: [m.youBlocked] }, m.youBlocked);
}

export async function block({ db, relay }: Context, me: string, userId: string) {
  if (userId === me) throw unprocessable({ user_id: [m.blockYourself] }, m.blockYourself);
  const member = await findMember(db, userId);
  if (!member || member.deletedAt) throw notFound(m.receiverGone);
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(blocks)
      .values({ blockerId: me, blockedId: userId })
      .onConflictDoNothing()
      .returning({ at: blocks.createdAt });
    // Blocking twice is no change: no second event.
    if (inserted[0]) {
      await recordEvent(tx, 'messaging.member.blocked', {
        blocker_id: me,
        blocked_id: userId,
        at: inserted[0].at.toISOString(),
      });
    }
  });
  relay.kick();
  return { message: m.blocked };
}

export async function unblock({ db, relay }: Context, me: string, userId: string) {
  const removed = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(blocks)
      .where(and(eq(blocks.blockerId, me), eq(blocks.blockedId, userId)))
      .returning({ at: blocks.createdAt });
    if (rows[0]) {
      await recordEvent(tx, 'messaging.member.unblocked', {
        blocker_id: me,
        blocked_id: userId,
        at: new Date().toISOString(),
      });
    }
    return rows.length;
  });
  if (!removed) throw notFound(m.notBlocked);
  relay.kick();
  return { message: m.unblocked };
}

/** The members I blocked, newest first. */
export async function myBlocks(db: Db, me: string) {
  const rows = await db.select().from(blocks).where(eq(blocks.blockerId, me)).orderBy(desc(blocks.createdAt));
  const people = new Map(
    (
      await findMembers(
        db,
        rows.map((r) => r.blockedId),
      )
    ).map((p) => [p.id, p.name]),
  );
  return {
    data: rows.map((r) => ({
      id: r.blockedId,
      name: people.get(r.blockedId) ?? m.unknownMember,
      blocked_at: r.createdAt.toISOString(),
    })),
  };
}

export async function blockStatus(db: Db, me: string, userId: string) {
  const [mine, theirs] = await Promise.all([hasBlocked(db, me, userId), hasBlocked(db, userId, me)]);
  return { blocked: mine, blocks_me: theirs };
}

/**
 * A message its receiver reports: checked here (only what one received, once), then handed to
 * moderation's queue by event with its text as it was.
 */
export async function reportMessage(
  { db, relay }: Context,
  me: string,
  messageId: string,
  report: { reason: ReportReason; details?: string | undefined },
) {
  const [message] = await db.select().from(messages).where(eq(messages.id, messageId));
  if (!message) throw notFound(m.messageNotFound);
  if (message.receiverId !== me) throw forbidden(m.reportOnlyReceived);
  const sender = await findMember(db, message.senderId);
  try {
    await db.transaction(async (tx) => {
      await tx.insert(messageReports).values({ messageId, reporterId: me });
      await recordEvent(tx, 'messaging.message.reported', {
        message_id: messageId,
        reporter_id: me,
        sender_id: message.senderId,
        sender_name: sender?.name ?? m.unknownMember,
        content: message.content,
        reason: report.reason,
        details: report.details || null,
        reported_at: new Date().toISOString(),
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(m.reportedTwice);
    throw error;
  }
  relay.kick();
  return { message: m.reported };
}
