import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
