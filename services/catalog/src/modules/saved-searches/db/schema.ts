import { bookConditions, savedSearchFrequencies } from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
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

const tsquery = customType<{ data: string }>({ dataType: () => 'tsquery' });

/**
 * Saved searches with alerts (API.md « Saved searches »): the filters as the
 * member saved them (`filters`, answered back), and the same filters resolved at save time into
 * columns one query can match a listing against (domain/saved-searches.ts `matchSavedSearches`):
 * - `category_groups`: the category condition as the catalogue reads it, any of the groups, each
 *   group all of its sets, each set any of its categories (levels and subjects read in the text
 *   included, each category with those below it); null for none;
 * - `category_any`: a category every match has (the smallest set of each group, together), for
 *   the GIN index; `{0}` when there is no category condition (every listing is a candidate);
 * - `text_query`: the remaining words as /books searches them (french, unaccent); `isbn` when the
 *   text is an ISBN.
 * `unsubscribe_token` is the secret of the one-click unsubscribe link of its e-mails.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    name: text('name').notNull(),
    frequency: text('frequency', { enum: savedSearchFrequencies }).notNull(),
    filters: jsonb('filters').notNull(),
    summary: text('summary').notNull(),
    active: boolean('active').notNull().default(true),
    unsubscribeToken: text('unsubscribe_token').notNull(),
    categoryAny: integer('category_any').array().notNull(),
    categoryGroups: jsonb('category_groups'),
    textQuery: tsquery('text_query'),
    isbn: text('isbn'),
    minPrice: integer('min_price'),
    maxPrice: integer('max_price'),
    cityId: integer('city_id'),
    condition: text('condition', { enum: bookConditions }),
    isNegotiable: boolean('is_negotiable'),
    isExchangePossible: boolean('is_exchange_possible'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('saved_searches_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('saved_searches_user_name_idx').on(t.userId, sql`lower(${t.name})`),
    index('saved_searches_category_any_idx').using('gin', t.categoryAny).where(sql`${t.active}`),
  ],
);

/** Listings a saved search alerted about: once per (saved search, listing), whatever happens to the listing. */
export const savedSearchMatches = pgTable(
  'saved_search_matches',
  {
    savedSearchId: integer('saved_search_id')
      .notNull()
      .references(() => savedSearches.id, { onDelete: 'cascade' }),
    bookId: integer('book_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.savedSearchId, t.bookId] })],
);
