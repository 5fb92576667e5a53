import {
  type ClassListChange,
  classListKinds,
  classListRequirements,
  classListStatuses,
  classListVersionSources,
} from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { cities } from '../../taxonomy/db/schema.ts';

/**
 * The books a level needs for a school year: the official (IPN) list or a school's own. Level and
 * subjects are category ids without a foreign key (like books.category_ids): a category deleted
 * later leaves the list readable.
 */
export const classLists = pgTable(
  'class_lists',
  {
    id: serial('id').primaryKey(),
    schoolYear: text('school_year').notNull(),
    levelId: integer('level_id').notNull(),
    kind: text('kind', { enum: classListKinds }).notNull().default('official'),
    schoolName: text('school_name'),
    cityId: integer('city_id').references(() => cities.id, { onDelete: 'set null' }),
    status: text('status', { enum: classListStatuses }).notNull().default('draft'),
    sourceNote: text('source_note'),
    rejectionReason: text('rejection_reason'),
    proposedBy: uuid('proposed_by'),
    reviewedBy: uuid('reviewed_by'),
    /** Lists the seed wrote carry a key, so a restart (or a second replica) never adds them twice. */
    seedKey: text('seed_key').unique(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One draft or published list per year, level and school (proposals may repeat until reviewed).
    uniqueIndex('class_lists_year_level_school_key')
      .on(t.schoolYear, t.levelId, t.kind, sql`lower(coalesce(${t.schoolName}, ''))`)
      .where(sql`status in ('draft', 'published')`),
    index('class_lists_level_idx').on(t.levelId, t.schoolYear),
    index('class_lists_status_idx').on(t.status, t.createdAt),
  ],
);

/** A book of a list. `title_key` is the title without accents, case, spaces or punctuation. */
export const classListItems = pgTable(
  'class_list_items',
  {
    id: serial('id').primaryKey(),
    listId: integer('list_id')
      .notNull()
      .references(() => classLists.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    author: text('author').notNull().default(''),
    publisher: text('publisher'),
    edition: text('edition'),
    year: integer('year'),
    /** Digits (and X) only. */
    isbn: text('isbn'),
    subjectId: integer('subject_id'),
    requirement: text('requirement', { enum: classListRequirements }).notNull().default('required'),
    position: integer('position').notNull().default(0),
    titleKey: text('title_key').generatedAlwaysAs(sql`cartable_title_key(title)`),
  },
  (t) => [
    index('class_list_items_list_idx').on(t.listId, t.position),
    index('class_list_items_title_key_idx').on(t.titleKey),
    index('class_list_items_isbn_idx').on(t.isbn).where(sql`isbn is not null`),
    index('class_list_items_title_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.title})) gin_trgm_ops`),
  ],
);

/** A list a member saved, with the town they look in and the books they already have. */
export const savedClassLists = pgTable(
  'saved_class_lists',
  {
    userId: uuid('user_id').notNull(),
    listId: integer('list_id')
      .notNull()
      .references(() => classLists.id, { onDelete: 'cascade' }),
    cityId: integer('city_id').references(() => cities.id, { onDelete: 'set null' }),
    ownedItemIds: integer('owned_item_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listId] }), index('saved_class_lists_list_idx').on(t.listId)],
);

/** Alerts already sent: one per (saved list, book of the list, listing). */
export const classListAlerts = pgTable(
  'class_list_alerts',
  {
    userId: uuid('user_id').notNull(),
    listId: integer('list_id').notNull(),
    itemId: integer('item_id').notNull(),
    bookId: integer('book_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listId, t.itemId, t.bookId] })],
);

/**
 * A list's versions: one row per change of its books (added, withdrawn, replaced), written in the
 * change's transaction. Version 1 is the list as first written and has no row.
 */
export const classListVersions = pgTable(
  'class_list_versions',
  {
    listId: integer('list_id')
      .notNull()
      .references(() => classLists.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    source: text('source', { enum: classListVersionSources }).notNull(),
    changes: jsonb('changes').$type<ClassListChange[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.number] })],
);

/**
 * The books a list withdrew (or replaced), kept after their item is deleted: a listing's page says
 * which lists dropped its book, and « Ma liste » shows a book the family had as no longer needed.
 */
export const classListWithdrawals = pgTable(
  'class_list_withdrawals',
  {
    listId: integer('list_id')
      .notNull()
      .references(() => classLists.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').notNull(),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    /** Digits (and X) only, as the items'. */
    isbn: text('isbn'),
    titleKey: text('title_key').generatedAlwaysAs(sql`cartable_title_key(title)`),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.itemId] }),
    index('class_list_withdrawals_title_key_idx').on(t.titleKey),
    index('class_list_withdrawals_isbn_idx').on(t.isbn).where(sql`isbn is not null`),
  ],
);

/**
 * A listing held « Réservé » for a family: its seller proposed them a deal for a book their saved
 * list misses. Released when the deal is declined or cancelled, or past `until`; gone when it is
 * confirmed (the listing is sold).
 */
export const classListHolds = pgTable(
  'class_list_holds',
  {
    dealId: uuid('deal_id').primaryKey(),
    bookId: integer('book_id').notNull(),
    userId: uuid('user_id').notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('class_list_holds_until_idx').on(t.until), index('class_list_holds_book_idx').on(t.bookId)],
);
