import { bannerColors, bookConditions, bookStatuses } from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export { idempotencyKeys, outbox, processedEvents } from '@cartable/service-kit';

/** Countries keyed by their ISO 3166-1 numeric code (Gabon is 266, as SPEC.md section 9 says). */
export const countries = pgTable('countries', {
  id: integer('id').primaryKey(),
  alpha2: text('alpha2').notNull().unique(),
  alpha3: text('alpha3').notNull(),
  nomFrFr: text('nom_fr_fr').notNull(),
});

export const provinces = pgTable(
  'provinces',
  {
    id: serial('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('provinces_country_name_key').on(t.countryId, t.name)],
);

export const cities = pgTable(
  'cities',
  {
    id: serial('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id),
    provinceId: integer('province_id').references(() => provinces.id),
    name: text('name').notNull(),
    isMajor: boolean('is_major').notNull().default(false),
  },
  (t) => [
    uniqueIndex('cities_country_name_key').on(t.countryId, t.name),
    index('cities_province_idx').on(t.provinceId),
  ],
);

/** Projection of auth's users: the public face of sellers, fed by auth.user.* events. */
export const sellers = pgTable('sellers', {
  userId: uuid('user_id').primaryKey(),
  name: text('name').notNull(),
  username: text('username').notNull(),
  profileImage: text('profile_image'),
  countryId: integer('country_id'),
  cityId: integer('city_id'),
  /** Null unless the member chose to show them (auth sends them only then). */
  email: text('email'),
  phone: text('phone'),
  ratingAverage: doublePrecision('rating_average').notNull().default(0),
  ratingCount: integer('rating_count').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** auth's version of the member: only a higher one replaces the row. */
  version: integer('version').notNull().default(0),
  /** Kept, anonymised, after the account is deleted, so a late update cannot bring it back. */
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

/** Cycles, Niveaux, Matières: a graph where a category may have several parents. */
export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  order: integer('order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const categoryParents = pgTable(
  'category_parents',
  {
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.parentId] }), index('category_parents_parent_idx').on(t.parentId)],
);

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
    /** Whole XOF/FCFA; 0 is a gift. */
    price: integer('price').notNull(),
    status: text('status', { enum: bookStatuses }).notNull().default('disponible'),
    cityId: integer('city_id').references(() => cities.id),
    isNegotiable: boolean('is_negotiable').notNull().default(false),
    isExchangePossible: boolean('is_exchange_possible').notNull().default(false),
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
    /** French full-text vector, accents removed; weights: title A, author B, ISBN A, description C. */
    search: tsvector('search').generatedAlwaysAs(
      sql`setweight(to_tsvector('french', cartable_unaccent(coalesce(title, ''))), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(author, ''))), 'B') ||
          setweight(to_tsvector('simple', coalesce(isbn, '')), 'A') ||
          setweight(to_tsvector('french', cartable_unaccent(coalesce(description, ''))), 'C')`,
    ),
  },
  (t) => [
    index('books_search_idx').using('gin', t.search),
    index('books_title_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.title})) gin_trgm_ops`),
    index('books_author_trgm_idx').using('gin', sql`cartable_unaccent(lower(${t.author})) gin_trgm_ops`),
    index('books_categories_idx').using('gin', t.categoryIds),
    // The catalogue lists unsold books in one of four orders: one partial index each, so the
    // first page is read straight off an index (ascending: scanned backwards for desc, which
    // then also matches ORDER BY … DESC's NULLS FIRST).
    index('books_listed_created_idx').on(t.createdAt, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_price_idx').on(t.price, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_title_idx').on(sql`lower(${t.title})`, t.id).where(sql`status <> 'vendu'`),
    index('books_listed_views_idx').on(t.views, t.id).where(sql`status <> 'vendu'`),
    index('books_city_idx').on(t.cityId),
    index('books_user_idx').on(t.userId),
    index('books_condition_idx').on(t.condition),
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

export const banners = pgTable('banners', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  subtitle: text('subtitle'),
  imageKey: text('image_key'),
  buttonText: text('button_text'),
  buttonLink: text('button_link'),
  color: text('color', { enum: bannerColors }).notNull().default('dark'),
  order: integer('order').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
