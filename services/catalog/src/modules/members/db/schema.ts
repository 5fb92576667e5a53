import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Projection of auth's users: the public face of sellers, fed by auth.user.* events. */
export const sellers = pgTable(
  'sellers',
  {
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
    /** One more at each change of the rating aggregate (carried by catalog.seller.rated). */
    ratingVersion: integer('rating_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** auth's version of the member: only a higher one replaces the row. */
    version: integer('version').notNull().default(0),
    /** Kept, anonymised, after the account is deleted, so a late update cannot bring it back. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Set while an administrator has deactivated the member: their books leave the public catalogue. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /**
     * auth's version at the last deactivation or reactivation: only a higher one changes the flag
     * (the profile's own `version` keeps guarding the profile fields).
     */
    deactivationVersion: integer('deactivation_version').notNull().default(0),
  },
  (t) => [
    // The few members out of the catalogue: the public listings' anti-join reads only these.
    index('sellers_inactive_idx').on(t.userId).where(sql`deactivated_at is not null or deleted_at is not null`),
  ],
);

/** messaging's blocks, projected (libs/service-kit's member-blocks.ts). */
export { memberBlocks } from '@cartable/service-kit';
