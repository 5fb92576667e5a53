import { type EventHandlers, isNewer } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import { sellers } from '../db/schema.ts';

/**
 * Deactivation and reactivation (auth.user.deactivated / reactivated) set or clear the flag that
 * takes the member's books out of the public catalogue. Their own version column guards them: a
 * later profile update (auth.user.updated) never touches the flag, and an older (de)activation
 * arriving late never overrides a newer one. A member not yet known gets a placeholder row at
 * version 0, which their registration or next update fills in.
 */
async function setDeactivated(
  tx: Parameters<NonNullable<EventHandlers['auth.user.deactivated']>>[0],
  userId: string,
  deactivatedAt: Date | null,
  version: number,
) {
  const flag = { deactivatedAt, deactivationVersion: version };
  await tx
    .insert(sellers)
    .values({ userId, name: 'Membre', username: 'membre', createdAt: new Date(), version: 0, ...flag })
    .onConflictDoUpdate({
      target: sellers.userId,
      set: flag,
      setWhere: sql`${sellers.deactivationVersion} < ${version}`,
    });
}

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
  'auth.user.deactivated': async (tx, { data }) =>
    setDeactivated(tx, data.user_id, new Date(data.deactivated_at), data.version),
  'auth.user.reactivated': async (tx, { data }) => setDeactivated(tx, data.user_id, null, data.version),
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
