import { bannerColors } from '@cartable/contracts';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

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
