import type { EventData } from '@cartable/contracts';
import type { Transaction } from '@cartable/service-kit';
import type { BookRow, CommentRow, ContactRow } from '../db/queries.ts';

/**
 * What moderation publishes (payloads in libs/contracts/src/events.ts), one function per event
 * type, recorded in the transaction of the change; notifications e-mails the book's owner about a new comment and
 * the answer to a contact message (services/notifications/src/events/moderation-mails.ts).
 */

export function commentCreated(t: Transaction, comment: CommentRow, book: BookRow, authorName: string) {
  return t.record('moderation.comment.created', {
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

export function commentModerated(t: Transaction, comment: CommentRow, status: 'approved' | 'rejected', by: string) {
  return t.record('moderation.comment.moderated', {
    comment_id: comment.id,
    book_id: comment.bookId,
    author_id: comment.userId,
    status,
    moderated_by: by,
  });
}

export function contactAnswered(t: Transaction, contact: ContactRow, response: string) {
  return t.record('moderation.contact.answered', {
    contact_id: contact.id,
    name: contact.name,
    email: contact.email,
    subject: contact.subject,
    message: contact.message,
    response,
  });
}

/** A warning for the member a report was about, e-mailed by notifications. */
export function memberWarned(
  t: Transaction,
  warning: { userId: string; reason: string; targetLabel: string; note: string | null },
) {
  return t.record('moderation.member.warned', {
    user_id: warning.userId,
    reason: warning.reason,
    target_label: warning.targetLabel.slice(0, 200),
    note: warning.note,
  });
}

/** A report's decision that catalog (hiding a listing) or auth (deactivating) applies, and answers. */
export function reportDecided(t: Transaction, decision: EventData<'moderation.report.decided'>) {
  return t.record('moderation.report.decided', decision);
}
