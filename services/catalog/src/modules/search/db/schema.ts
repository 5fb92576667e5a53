import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What visitors searched for and did not find, one row a day per search text and category: the
 * Rapports screen sets it against what is listed (what parents look for and nobody sells).
 * Kept 180 days (housekeeping).
 */
export const searchMisses = pgTable(
  'search_misses',
  {
    day: date('day').notNull(),
    /** Lower-cased, accents kept, spaces collapsed, at most 100 characters. */
    query: text('query').notNull(),
    /** First category filtered on, 0 for none. */
    categoryId: integer('category_id').notNull().default(0),
    searches: integer('searches').notNull().default(1),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.query, t.categoryId] })],
);

/**
 * Every word of the listings' titles and authors, lower-cased and without accents: what the
 * forgiving search corrects a mistyped word to (the pg_trgm documentation's way of spelling
 * correction), before it searches the listings' full text with the words found. A word is added
 * when a listing is written (migration 0029's trigger) and never removed: a word no listing holds
 * any more only finds nothing.
 */
export const searchWords = pgTable('search_words', { word: text('word').primaryKey() }, (t) => [
  index('search_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`),
]);
