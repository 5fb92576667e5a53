import {
  commentStatuses,
  contactStatuses,
  reportDecisions,
  reportReasons,
  reportStatuses,
  reportTargetTypes,
} from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export { idempotencyKeys, outbox, processedEvents } from '@cartable/service-kit';

/** Projection of catalog's books: whose book a comment is on. */
export const books = pgTable('books', {
  id: integer('id').primaryKey(),
  ownerId: uuid('owner_id').notNull(),
  title: text('title').notNull(),
  /** Kept after a deletion (a tombstone), so a late update never brings the book back. */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
  /** Catalog's version of the book: only a higher one replaces the row. */
  version: integer('version').notNull().default(0),
});

/** Projection of auth's members: who wrote a comment. */
export const members = pgTable('members', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  profileImage: text('profile_image'),
  /** auth's version of the member: only a higher one replaces the row. */
  version: integer('version').notNull().default(0),
});

export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookId: integer('book_id').notNull(),
    userId: uuid('user_id').notNull(),
    parentId: uuid('parent_id'),
    content: text('content').notNull(),
    status: text('status', { enum: commentStatuses }).notNull(),
    moderatedBy: uuid('moderated_by'),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('comments_book_idx').on(t.bookId, t.createdAt),
    index('comments_parent_idx').on(t.parentId),
    index('comments_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
  ],
);

/** The contact form's arithmetic question: issued by the server, answered once, short-lived. */
export const captchas = pgTable('captchas', {
  id: uuid('id').primaryKey().defaultRandom(),
  answer: integer('answer').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: contactStatuses }).notNull().default('new'),
    response: text('response'),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contacts_status_time_idx').on(t.status, t.createdAt)],
);

/**
 * Reports of a listing, a member, a comment or a message (« Signaler »): one per reporter and
 * target; what the target was is kept (label, owner) so the queue reads even after it changed.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id').notNull(),
    targetType: text('target_type', { enum: reportTargetTypes }).notNull(),
    targetId: text('target_id').notNull(),
    targetLabel: text('target_label').notNull(),
    targetOwnerId: uuid('target_owner_id'),
    reason: text('reason', { enum: reportReasons }).notNull(),
    details: text('details'),
    status: text('status', { enum: reportStatuses }).notNull().default('open'),
    decision: text('decision', { enum: reportDecisions }),
    note: text('note'),
    handledBy: uuid('handled_by'),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reports_once_idx').on(t.reporterId, t.targetType, t.targetId),
    index('reports_queue_idx').on(t.status, t.createdAt),
    index('reports_target_idx').on(t.targetType, t.targetId),
  ],
);

/** messaging's blocks, projected (libs/service-kit's member-blocks.ts). */
export { memberBlocks } from '@cartable/service-kit';
