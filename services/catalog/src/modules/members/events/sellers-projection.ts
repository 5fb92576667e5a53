import type { EventHandlers } from '@cartable/service-kit';
import { keepMember, setDeactivated } from '../db/queries.ts';

/**
 * Keeps the members' public profiles from auth's events, so book pages never call auth. Each
 * event replaces the row only if it is newer than what is held (auth's version of the member).
 * Deactivation and reactivation set or clear the flag that takes the member's listings out of the
 * public catalogue, guarded by their own version: a later profile update never touches the flag,
 * and an older (de)activation arriving late never overrides a newer one.
 */
export const sellersProjection: EventHandlers = {
  'auth.user.registered': (tx, { data }) =>
    keepMember(tx, data.user_id, {
      name: data.name,
      username: data.username,
      profileImage: data.profile_image,
      countryId: data.country_id,
      cityId: data.city_id,
      createdAt: new Date(data.created_at),
      version: data.version,
    }),
  'auth.user.updated': (tx, { data }) =>
    // An update can arrive before the registration (or for a member older than this projection).
    keepMember(
      tx,
      data.user_id,
      {
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
      },
      new Date(data.updated_at),
    ),
  'auth.user.deactivated': (tx, { data }) =>
    setDeactivated(tx, data.user_id, new Date(data.deactivated_at), data.version),
  'auth.user.reactivated': (tx, { data }) => setDeactivated(tx, data.user_id, null, data.version),
  'auth.user.deleted': (tx, { data }) =>
    keepMember(
      tx,
      data.user_id,
      {
        name: 'Membre supprimé',
        username: 'membre_supprime',
        profileImage: null,
        email: null,
        phone: null,
        deletedAt: new Date(data.deleted_at),
        updatedAt: new Date(data.deleted_at),
        version: data.version,
      },
      new Date(data.deleted_at),
    ),
};
