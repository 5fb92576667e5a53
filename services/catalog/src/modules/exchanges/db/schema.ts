import { exchangeSuggestionKinds, exchangeSuggestionStatuses } from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { classListItems } from '../../class-lists/db/schema.ts';
import { categories } from '../../taxonomy/db/schema.ts';

/** What a member looks for: a book of a class list, or a level and a subject. */
export const exchangeWishes = pgTable(
  'exchange_wishes',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    classListItemId: integer('class_list_item_id').references(() => classListItems.id, { onDelete: 'cascade' }),
    levelId: integer('level_id').references(() => categories.id, { onDelete: 'cascade' }),
    subjectId: integer('subject_id').references(() => categories.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('exchange_wishes_user_idx').on(t.userId),
    uniqueIndex('exchange_wishes_item_key').on(t.userId, t.classListItemId).where(sql`class_list_item_id is not null`),
    uniqueIndex('exchange_wishes_subject_key')
      .on(t.userId, t.levelId, t.subjectId)
      .where(sql`class_list_item_id is null`),
    check(
      'exchange_wishes_what',
      sql`class_list_item_id is not null or (level_id is not null and subject_id is not null)`,
    ),
  ],
);

/**
 * A pair or a cycle the matcher suggested: its legs (who gives which listing to whom), who
 * accepted. The signature (the legs in a canonical order) is unique: a declined suggestion is
 * never made again.
 */
export const exchangeSuggestions = pgTable(
  'exchange_suggestions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: exchangeSuggestionKinds }).notNull(),
    status: text('status', { enum: exchangeSuggestionStatuses }).notNull().default('open'),
    signature: text('signature').notNull().unique(),
    memberIds: uuid('member_ids').array().notNull(),
    bookIds: integer('book_ids').array().notNull(),
    legs: jsonb('legs')
      .$type<Array<{ from: string; to: string; book_id: number; book_title: string; wish: string }>>()
      .notNull(),
    /** The town, or the province when the members are in several towns of it. */
    area: text('area').notNull(),
    acceptedBy: uuid('accepted_by').array().notNull().default(sql`'{}'::uuid[]`),
    declinedBy: uuid('declined_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('exchange_suggestions_members_idx').using('gin', t.memberIds),
    index('exchange_suggestions_open_idx').on(t.createdAt).where(sql`status = 'open'`),
  ],
);
