import { type Db, recordEvent } from '@cartable/service-kit';
import type { BookRow, MessageRow } from '../db/queries.ts';

/**
 * What messaging publishes (payloads in libs/contracts/src/events.ts), written in the caller's
 * transaction through the outbox; notifications consumes messaging.message.sent (the receiver's
 * notice, the sender's copy: services/notifications/src/events/message-mails.ts).
 */

export function recordMessageSent(
  tx: Db,
  sent: { message: MessageRow; book: BookRow; senderName: string; sendEmailCopy: boolean },
) {
  const { message, book } = sent;
  return recordEvent(tx, 'messaging.message.sent', {
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

export function recordMessagesRead(tx: Db, conversationId: string, readerId: string, count: number) {
  return recordEvent(tx, 'messaging.message.read', { conversation_id: conversationId, reader_id: readerId, count });
}
