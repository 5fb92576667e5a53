import type { ReportReason } from '@cartable/contracts';
import type { Transaction } from '@cartable/service-kit';
import type { BookRow, MessageRow } from '../db/queries.ts';

/**
 * What messaging publishes (payloads in libs/contracts/src/events.ts), one function per event
 * type, recorded in the transaction of the change; notifications consumes messaging.message.sent
 * (the receiver's notice, the sender's copy: services/notifications/src/events/message-mails.ts).
 */

export function messageSent(
  t: Transaction,
  sent: { message: MessageRow; book: BookRow; senderName: string; sendEmailCopy: boolean },
) {
  const { message, book } = sent;
  return t.record('messaging.message.sent', {
    message_id: message.id,
    conversation_id: message.conversationId,
    book_id: book.id,
    book_title: book.title,
    sender_id: message.senderId,
    sender_name: sent.senderName,
    receiver_id: message.receiverId,
    content: message.content,
    send_email_copy: sent.sendEmailCopy,
    created_at: message.createdAt.toISOString(),
  });
}

export const messagesRead = (t: Transaction, conversationId: string, readerId: string, count: number) =>
  t.record('messaging.message.read', { conversation_id: conversationId, reader_id: readerId, count });

export const memberBlocked = (t: Transaction, blockerId: string, blockedId: string, at: Date) =>
  t.record('messaging.member.blocked', { blocker_id: blockerId, blocked_id: blockedId, at: at.toISOString() });

export const memberUnblocked = (t: Transaction, blockerId: string, blockedId: string) =>
  t.record('messaging.member.unblocked', {
    blocker_id: blockerId,
    blocked_id: blockedId,
    at: new Date().toISOString(),
  });

/** The message as it was, for moderation's queue. */
export const messageReported = (
  t: Transaction,
  report: { message: MessageRow; reporterId: string; senderName: string; reason: ReportReason; details: string | null },
) =>
  t.record('messaging.message.reported', {
    message_id: report.message.id,
    reporter_id: report.reporterId,
    sender_id: report.message.senderId,
    sender_name: report.senderName,
    content: report.message.content,
    reason: report.reason,
    details: report.details,
    reported_at: new Date().toISOString(),
  });
