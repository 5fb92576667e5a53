import type { EventHandlers } from '@cartable/service-kit';
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
};
