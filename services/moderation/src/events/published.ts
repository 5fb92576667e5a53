import { type Db, recordEvent } from '@cartable/service-kit';
import type { BookRow, CommentRow, ContactRow } from '../db/queries.ts';

/**
 * What moderation publishes (payloads in libs/contracts/src/events.ts), written in the caller's
 * transaction through the outbox; notifications e-mails the book's owner about a new comment and
 * the answer to a contact message (services/notifications/src/events/moderation-mails.ts).
 */

export function recordCommentCreated(tx: Db, comment: CommentRow, book: BookRow, authorName: string) {
  return recordEvent(tx, 'moderation.comment.created', {
    comment_id: comment.id,
    book_id: book.id,
    book_title: book.title,
    book_owner_id: book.ownerId,
    author_id: comment.userId,
    author_name: authorName,
    content: comment.content,
    status: comment.status,
  });
}

export function recordCommentModerated(tx: Db, comment: CommentRow, status: 'approved' | 'rejected', by: string) {
  return recordEvent(tx, 'moderation.comment.moderated', {
    comment_id: comment.id,
    book_id: comment.bookId,
    author_id: comment.userId,
    status,
    moderated_by: by,
  });
}

export function recordContactAnswered(tx: Db, contact: ContactRow, response: string) {
  return recordEvent(tx, 'moderation.contact.answered', {
    contact_id: contact.id,
    name: contact.name,
    email: contact.email,
    subject: contact.subject,
    message: contact.message,
    response,
  });
}
