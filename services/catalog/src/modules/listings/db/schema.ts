import { bookConditionFlags, bookConditions, bookStatuses } from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  pgView,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { cities } from '../../taxonomy/db/schema.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const books = pgTable(
  'books',
  {
    id: serial('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    title: text('title').notNull(),
    author: text('author').notNull(),
    isbn: text('isbn'),
    description: text('description'),
    publisher: text('publisher'),
    publicationYear: integer('publication_year'),
    condition: text('condition', { enum: bookConditions }).notNull(),
    /** What the condition does not say (annotated, exercises filled in, stamp…): contracts' labels. */
    conditionFlags: text('condition_flags', { enum: bookConditionFlags }).array().notNull().default(sql`'{}'::text[]`),
    /** Whole XOF/FCFA; 0 is a gift. */
    price: integer('price').notNull(),
    status: text('status', { enum: bookStatuses }).notNull().default('disponible'),
    cityId: integer('city_id').references(() => cities.id),
    isNegotiable: boolean('is_negotiable').notNull().default(false),
    isExchangePossible: boolean('is_exchange_possible').notNull().default(false),
    // Not indexed, so that counting a view is a HOT update (migration 0024); the sorts by
    // popularity read the listing index's copy.
    views: integer('views').notNull().default(0),
    /**
     * The book's categories, main one first. An array with a GIN index rather than a join table:
     * the catalogue filters on it with `&&` combined with the other indexes in one bitmap.
     */
    categoryIds: integer('category_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** One more at each change; carried by the book's events so projections never go back. */
    version: integer('version').notNull().default(1),
    /**
     * Set when a moderator hides the listing (SPEC.md section 2, admin « Gestion des livres »): it
     * leaves the public catalogue, its owner still sees it with the reason. Null: visible.
     */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
    /**
     * The seller is deactivated or their account deleted (sellers.deactivated_at, deleted_at):
     * the listing is out of the public catalogue. Kept by triggers of migration 0021 from the
     * sellers' rows, so a catalogue query checks a column of the listing's index entry instead
     * of planning an anti-join on sellers.
     */
    sellerAway: boolean('seller_away').notNull().default(false),
    /**
     * A lot (several books in one listing): its books' titles and ISBNs, then
     * their authors, written with its book_lot_items rows so the search vector (a generated
     * column reads only its own row) finds the lot by each of its books. Null: a single book.
     */
    lotTitles: text('lot_titles'),
    lotAuthors: text('lot_authors'),
    /**
     * French full-text vector, accents removed; weights: title and a lot's titles A, author and a
     * lot's authors B, ISBN A, description C.
     */
    search: tsvector('search').generatedAlwaysAs(
      sql`setweight(to_tsvector('french', cartable_unaccent(coalesce(title, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(author, ''))), 'B') ||
          setweight(to_tsvector('simple', coalesce(isbn, '')), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(description, ''))), 'C') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(lot_titles, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(lot_authors, ''))), 'B')`,
    ),
  },
  (t) => [
    index('books_search_idx').using('gin', t.search),
    index('books_title_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.title})) gin_trgm_ops`),
    index('books_author_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.author})) gin_trgm_ops`),
    index('books_categories_idx').using('gin', t.categoryIds),
    // The catalogue lists unsold books in one of four orders: one partial index each, so the
    // first page is read straight off an index (ascending: scanned backwards for desc, which
    // then also matches ORDER BY … DESC's NULLS FIRST). Migration 0019 gives the created and
    // price ones the filtered columns (INCLUDE, which drizzle cannot declare): index-only pages.
    index('books_listed_created_idx').on(t.createdAt, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_price_idx').on(t.price, t.id).where(sql`status <> 'vendu'`),
    // The same two orders within one town (the commonest filter: Libreville is four listings in
    // ten): the scan starts at the town instead of skipping every other town's entries
    // (migration 0020, which adds the same INCLUDE columns). Migration 0021 adds seller_away to
    // the four, so the sellers' check is made on the index entry too.
    index('books_listed_city_created_idx').on(t.cityId, t.createdAt, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_city_price_idx').on(t.cityId, t.price, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_title_idx').on(sql`lower(${t.title})`, t.id).where(sql`status <> 'vendu'`),
    index('books_city_idx').on(t.cityId),
    index('books_user_idx').on(t.userId),
    index('books_condition_idx').on(t.condition),
    // The back office lists every book (sold and hidden ones too), newest first by default.
    index('books_created_idx').on(t.createdAt, t.id),
    index('books_price_idx').on(t.price, t.id),
    index('books_title_idx').on(sql`lower(${t.title})`, t.id),
    index('books_hidden_idx').on(t.hiddenAt).where(sql`hidden_at is not null`),
    // « Ma liste »: a class list's books by normalised title (equal, or the list's title first)
    // and by ISBN, among the listed ones (migration 0015 defines both functions).
    index('books_listed_title_key_idx')
      .on(sql`cartable_title_key(${t.title}) text_pattern_ops`)
      .where(sql`status <> 'vendu'`),
    index('books_listed_isbn_key_idx')
      .on(sql`cartable_isbn_key(${t.isbn})`)
      .where(sql`status <> 'vendu' and isbn is not null`),
    // The ISBN look-up of the listing form reads sold listings too (what they said of the book).
    index('books_isbn_key_idx').on(sql`cartable_isbn_key(${t.isbn})`).where(sql`isbn is not null`),
    // Another writer than the API (a script, a migration) cannot store a flag no screen names.
    check(
      'books_condition_flags_known',
      sql`${t.conditionFlags} <@ array[${sql.raw(bookConditionFlags.map((f) => `'${f}'`).join(', '))}]::text[]`,
    ),
  ],
);

/**
 * The books of a lot, copied from the class list they were picked in (a later edit of the list
 * does not change what was sold). Keys as « Ma liste » reads them, for its matching and alerts.
 */
export const bookLotItems = pgTable(
  'book_lot_items',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    classListItemId: integer('class_list_item_id'),
    title: text('title').notNull(),
    author: text('author').notNull().default(''),
    publisher: text('publisher'),
    year: integer('year'),
    isbn: text('isbn'),
    subjectId: integer('subject_id'),
    titleKey: text('title_key').generatedAlwaysAs(sql`cartable_title_key(title)`),
    isbnKey: text('isbn_key').generatedAlwaysAs(sql`cartable_isbn_key(isbn)`),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.position] }),
    index('book_lot_items_title_key_idx').on(sql`${t.titleKey} text_pattern_ops`),
    index('book_lot_items_isbn_key_idx').on(t.isbnKey).where(sql`isbn_key is not null`),
  ],
);

/** Up to three photos a book, each stored as a display size and a thumbnail. */
export const bookImages = pgTable(
  'book_images',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    slot: integer('slot').notNull(),
    displayKey: text('display_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bookId, t.slot] })],
);

/**
 * What other modules of catalog may read of a listing (migration 0026's view over `books`):
 * they name this, never the table, and the planner reads the table's indexes through it.
 */
export const listingFacts = pgView('listing_facts', {
  id: integer('id').notNull(),
  userId: uuid('user_id').notNull(),
  title: text('title').notNull(),
  author: text('author').notNull(),
  isbn: text('isbn'),
  description: text('description'),
  publisher: text('publisher'),
  publicationYear: integer('publication_year'),
  condition: text('condition', { enum: bookConditions }).notNull(),
  price: integer('price').notNull(),
  status: text('status', { enum: bookStatuses }).notNull(),
  cityId: integer('city_id'),
  isNegotiable: boolean('is_negotiable').notNull(),
  isExchangePossible: boolean('is_exchange_possible').notNull(),
  views: integer('views').notNull(),
  categoryIds: integer('category_ids').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  hiddenReason: text('hidden_reason'),
  sellerAway: boolean('seller_away').notNull(),
  search: tsvector('search'),
  isLot: boolean('is_lot').notNull(),
  conditionFlags: text('condition_flags', { enum: bookConditionFlags }).array().notNull(),
}).existing();

/** The books of lots, as other modules may read them (migration 0026's view over `book_lot_items`). */
export const lotItemFacts = pgView('lot_item_facts', {
  bookId: integer('book_id').notNull(),
  position: integer('position').notNull(),
  classListItemId: integer('class_list_item_id'),
  title: text('title').notNull(),
  author: text('author').notNull(),
  publisher: text('publisher'),
  year: integer('year'),
  isbn: text('isbn'),
  subjectId: integer('subject_id'),
  titleKey: text('title_key'),
  isbnKey: text('isbn_key'),
}).existing();
