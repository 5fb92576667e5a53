import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export { outbox, processedEvents } from '@cartable/service-kit';

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
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
