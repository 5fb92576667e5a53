import { date, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
