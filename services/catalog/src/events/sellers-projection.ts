import { type EventHandlers, isNewer } from '@cartable/service-kit';
import { sellers } from '../db/schema.ts';

/**
 * Keeps the sellers' public profiles from auth's events, so book pages never call auth. Each
 * event replaces the row only if it is newer than what is held (auth's version of the member).
 */
export const sellersProjection: EventHandlers = {
  'auth.user.registered': async (tx, { data }) => {
    const row = {
      name: data.name,
      username: data.username,
      profileImage: data.profile_image,
      countryId: data.country_id,
      cityId: data.city_id,
      createdAt: new Date(data.created_at),
      version: data.version,
    };
    await tx
      .insert(sellers)
      .values({ userId: data.user_id, ...row })
      .onConflictDoUpdate({ target: sellers.userId, set: row, setWhere: isNewer(sellers.version) });
  },
  'auth.user.updated': async (tx, { data }) => {
    const row = {
      name: data.name,
      username: data.username,
      profileImage: data.profile_image,
      countryId: data.country_id,
      cityId: data.city_id,
      // Contact details travel only when the member chose to show them.
      email: data.email,
      phone: data.phone,
      updatedAt: new Date(data.updated_at),
      version: data.version,
    };
    // An update can arrive before the registration (or for a member older than this projection).
    await tx
      .insert(sellers)
      .values({ userId: data.user_id, createdAt: new Date(data.updated_at), ...row })
      .onConflictDoUpdate({ target: sellers.userId, set: row, setWhere: isNewer(sellers.version) });
  },
  'auth.user.deleted': async (tx, { data }) => {
    const row = {
      name: 'Membre supprimé',
      username: 'membre_supprime',
      profileImage: null,
      email: null,
      phone: null,
      deletedAt: new Date(data.deleted_at),
      updatedAt: new Date(data.deleted_at),
      version: data.version,
    };
    await tx
      .insert(sellers)
      .values({ userId: data.user_id, createdAt: new Date(data.deleted_at), ...row })
      .onConflictDoUpdate({ target: sellers.userId, set: row, setWhere: isNewer(sellers.version) });
  },
};
