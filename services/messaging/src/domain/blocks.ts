import { messages as catalogue, type ReportReason } from '@cartable/contracts';
import { conflict, type Db, forbidden, isUniqueViolation, notFound, unprocessable } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { MessagingDeps } from '../deps.ts';
import { memberBlocked, memberUnblocked, messageReported } from '../events/published.ts';

/**
 * Blocking a member and reporting a received message. A block is the blocker's alone to lift;
 * each change records its event (catalog's projection of blocks is fed by them).
 */

const m = catalogue.messaging;
type Deps = Pick<MessagingDeps, 'uow'>;

/**
 * Before a message leaves: a member who blocked the receiver is told to unblock first; one the
 * receiver blocked is refused (and told so plainly: nothing is sent in their name).
 */
export async function refuseIfBlocked(db: Db, sender: string, receiver: string) {
  const blockers = await queries.blockersBetween(db, sender, receiver);
  if (blockers.includes(receiver)) throw forbidden(m.blockedByReceiver);
  if (blockers.includes(sender)) throw unprocessable({ receiver_id: [m.youBlocked] }, m.youBlocked);
}

export async function block({ uow }: Deps, me: string, userId: string) {
  if (userId === me) throw unprocessable({ user_id: [m.blockYourself] }, m.blockYourself);
  const member = await queries.findMember(uow.db, userId);
  if (!member || member.deletedAt) throw notFound(m.receiverGone);
  await uow.run(async (t) => {
    const at = await queries.insertBlock(t.db, me, userId);
    // Blocking twice is no change: no second event.
    if (at) await memberBlocked(t, me, userId, at);
  });
  return { message: m.blocked };
}

export async function unblock({ uow }: Deps, me: string, userId: string) {
  const removed = await uow.run(async (t) => {
    const gone = await queries.deleteBlock(t.db, me, userId);
    if (gone) await memberUnblocked(t, me, userId);
    return gone;
  });
  if (!removed) throw notFound(m.notBlocked);
  return { message: m.unblocked };
}

/** The members I blocked, newest first. */
export async function myBlocks({ uow }: Deps, me: string) {
  const rows = await queries.blocksOf(uow.db, me);
  const people = new Map(
    (
      await queries.findMembers(
        uow.db,
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

export async function blockStatus({ uow }: Deps, me: string, userId: string) {
  const [mine, theirs] = await Promise.all([
    queries.hasBlocked(uow.db, me, userId),
    queries.hasBlocked(uow.db, userId, me),
  ]);
  return { blocked: mine, blocks_me: theirs };
}

/**
 * A message its receiver reports: checked here (only what one received, once), then handed to
 * moderation's queue by event with its text as it was.
 */
export async function reportMessage(
  { uow }: Deps,
  me: string,
  messageId: string,
  report: { reason: ReportReason; details?: string | undefined },
) {
  const message = await queries.messageById(uow.db, messageId);
  if (!message) throw notFound(m.messageNotFound);
  if (message.receiverId !== me) throw forbidden(m.reportOnlyReceived);
  const sender = await queries.findMember(uow.db, message.senderId);
  try {
    await uow.run(async (t) => {
      await queries.insertMessageReport(t.db, messageId, me);
      await messageReported(t, {
        message,
        reporterId: me,
        senderName: sender?.name ?? m.unknownMember,
        reason: report.reason,
        details: report.details || null,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(m.reportedTwice);
    throw error;
  }
  return { message: m.reported };
}
