import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export { processedEvents } from '@cartable/service-kit';

/** Projection of auth's members: where to write to them (addresses are never shown elsewhere). */
export const members = pgTable('members', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
});

/** When a member was last told of a new message in a conversation (one e-mail per 15 minutes). */
export const messageNotices = pgTable(
  'message_notices',
  {
    conversationId: uuid('conversation_id').notNull(),
    receiverId: uuid('receiver_id').notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.receiverId] })],
);

/**
 * Every e-mail to send, written in the consumer's transaction before anything reaches Redis:
 * this row is the truth, BullMQ only carries the work. The id is the idempotency key (the
 * event id, or `<event id>-notice` / `-copy`).
 */
export const outgoingMails = pgTable(
  'outgoing_mails',
  {
    id: text('id').primaryKey(),
    template: text('template').notNull(),
    recipient: text('recipient').notNull(),
    data: jsonb('data').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'abandoned'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a reconciler first put it in the queue (null: never, so the next quick pass does). */
    enqueuedAt: timestamp('enqueued_at', { withTimezone: true }),
    /** Not before this: the backoff after a failed send, kept here so it outlives Redis. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outgoing_mails_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`)],
);
