import type { EventHandlers } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { sellers } from '../db/schema.ts';

/** Keeps the sellers' public profiles from auth's events, so book pages never call auth. */
export const sellersProjection: EventHandlers = {
  'auth.user.registered': async (tx, { data }) => {
    const row = {
      name: data.name,
      username: data.username,
      profileImage: data.profile_image,
      countryId: data.country_id,
      cityId: data.city_id,
      createdAt: new Date(data.created_at),
    };
    await tx
      .insert(sellers)
      .values({ userId: data.user_id, ...row })
      .onConflictDoUpdate({ target: sellers.userId, set: { ...row, updatedAt: new Date() } });
  },
  'auth.user.updated': async (tx, { data }) => {
    const row = {
      name: data.name,
      username: data.username,
      profileImage: data.profile_image,
      countryId: data.country_id,
      cityId: data.city_id,
      updatedAt: new Date(data.updated_at),
    };
    // An update can arrive for a member registered before this projection existed.
    await tx
      .insert(sellers)
      .values({ userId: data.user_id, createdAt: new Date(data.updated_at), ...row })
      .onConflictDoUpdate({ target: sellers.userId, set: row });
  },
  'auth.user.deleted': async (tx, { data }) => {
    await tx.delete(sellers).where(eq(sellers.userId, data.user_id));
  },
};
