import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export { idempotencyKeys, outbox, processedEvents } from '@cartable/service-kit';

/** Projection of catalog's books: what a conversation is about. */
export const books = pgTable('books', {
  id: integer('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  title: text('title').notNull(),
  price: integer('price').notNull(),
  status: text('status').notNull(),
  thumbnail: text('thumbnail'),
  /** Kept after a deletion (a tombstone), so a late update never brings the book back. */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  /** Catalog's version of the book: only a higher one replaces the row. */
  version: integer('version').notNull().default(0),
});

/** Projection of auth's members: names and avatars shown in conversations. */
export const members = pgTable('members', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  username: text('username').notNull(),
  profileImage: text('profile_image'),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  /** auth's version of the member: only a higher one replaces the row. */
  version: integer('version').notNull().default(0),
});

/** One book and two members (stored as an ordered pair, so each pair has one conversation). */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookId: integer('book_id').notNull(),
    memberA: uuid('member_a').notNull(),
    memberB: uuid('member_b').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('conversations_book_pair_key').on(t.bookId, t.memberA, t.memberB),
    index('conversations_a_idx').on(t.memberA, t.lastMessageAt),
    index('conversations_b_idx').on(t.memberB, t.lastMessageAt),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id').notNull(),
    receiverId: uuid('receiver_id').notNull(),
    content: text('content').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_conversation_time_idx').on(t.conversationId, t.createdAt),
    index('messages_unread_idx').on(t.receiverId).where(sql`read_at is null`),
  ],
);

/** A member who blocked another: the blocked member can no longer write to them. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: uuid('blocker_id').notNull(),
    blockedId: uuid('blocked_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('blocks_blocked_idx').on(t.blockedId)],
);

/** Messages their receiver reported (the report itself waits in moderation's queue): once each. */
export const messageReports = pgTable(
  'message_reports',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.reporterId] })],
);
