import { randomUUID } from 'node:crypto';
import { messages, type ProfileUpdate } from '@cartable/contracts';
import { conflict, type Db, isUniqueViolation, notFound, unauthorized, unprocessable } from '@cartable/service-kit';
import { ImageRejected } from '@cartable/service-kit/images';
import type { UserChanges } from '../db/queries.ts';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { userDeleted, userUpdated } from '../events/published.ts';
import { recordActivity } from './activity.ts';
import { requirePassword } from './passwords.ts';
import { processProfileImage } from './profile-image.ts';
import { recoveryCodesLeft } from './two-factor.ts';
import { signedInMember, toUserDto, type UserRow } from './users.ts';

/**
 * The member's own account (SPEC.md section 5): their profile and photo, their dashboard's
 * counters and activity, deleting the account; and the public page others see of them.
 */

const m = messages.auth;
const IMAGE_PREFIX = 'profiles/';
/** Where the storage serves what it holds: a photo under it is ours to delete. */
const STORED = '/storage/';

type Deps = Pick<AuthDeps, 'uow'>;
type ImageDeps = Pick<AuthDeps, 'uow' | 'storage'>;

async function profileOf(db: Db, row: UserRow) {
  return {
    ...(await toUserDto(db, row)),
    phone: row.phone,
    bio: row.bio,
    show_email: row.showEmail,
    show_phone: row.showPhone,
    two_factor_enabled: row.twoFactorEnabledAt !== null,
    recovery_codes_left: row.twoFactorEnabledAt ? await recoveryCodesLeft(db, row.id) : 0,
  };
}

/** Saves profile changes and tells the other services (auth.user.updated), in one transaction. */
function saveProfile({ uow }: Deps, userId: string, changes: UserChanges, activity: string) {
  return uow.run(async (t) => {
    const saved = await queries.updateUser(t.db, userId, { ...changes, updatedAt: new Date() });
    // The account was deleted after the token was issued.
    if (!saved) throw unauthorized(messages.tokenInvalid);
    await userUpdated(t, saved);
    await recordActivity(t.db, userId, 'profile.updated', activity, '/profile');
    return saved;
  });
}

/** A photo we stored goes once nothing points at it; one kept elsewhere is not ours. */
async function forgetImage({ storage }: Pick<AuthDeps, 'storage'>, url: string | null) {
  if (url?.startsWith(STORED)) await storage.delete(url.slice(STORED.length)).catch(() => {});
}

export async function profile({ uow }: Deps, userId: string) {
  return { profile: await profileOf(uow.db, await signedInMember(uow.db, userId)) };
}

export async function updateProfile(deps: Deps, userId: string, body: ProfileUpdate) {
  const taken = () => conflict(m.usernameTaken(body.username), { username: [m.usernameTaken(body.username)] });
  if (await queries.usernameTaken(deps.uow.db, body.username, userId)) throw taken();
  try {
    const row = await saveProfile(
      deps,
      userId,
      {
        name: body.name,
        username: body.username,
        phone: body.phone ?? null,
        bio: body.bio?.trim() ? body.bio.trim() : null,
        showEmail: body.show_email,
        showPhone: body.show_phone,
        countryId: body.country_id,
        cityId: body.city_id,
      },
      'Profil mis à jour',
    );
    return { message: m.profileUpdated, profile: await profileOf(deps.uow.db, row) };
  } catch (err) {
    // Two members taking the same name at the same moment: the unique index decides.
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/** The uploaded bytes, whatever the file is called, become a square WebP without metadata. */
export async function setProfileImage(deps: ImageDeps, userId: string, bytes: Buffer) {
  let image: Buffer;
  try {
    image = await processProfileImage(bytes);
  } catch (err) {
    if (err instanceof ImageRejected) throw unprocessable({ profile_image: [err.message] }, err.message);
    throw err;
  }
  const previous = (await signedInMember(deps.uow.db, userId)).profileImage;
  const key = `${IMAGE_PREFIX}${userId}/${randomUUID()}.webp`;
  await deps.storage.put(key, image, 'image/webp');
  const row = await saveProfile(deps, userId, { profileImage: deps.storage.url(key) }, 'Photo de profil modifiée');
  await forgetImage(deps, previous);
  return { message: 'Votre photo de profil a été mise à jour.', profile: await profileOf(deps.uow.db, row) };
}

export async function removeProfileImage(deps: ImageDeps, userId: string) {
  const previous = (await signedInMember(deps.uow.db, userId)).profileImage;
  const row = await saveProfile(deps, userId, { profileImage: null }, 'Photo de profil supprimée');
  await forgetImage(deps, previous);
  return { message: 'Votre photo de profil a été supprimée.', profile: await profileOf(deps.uow.db, row) };
}

/**
 * The account goes, with the password as proof: every token of the member is refused from the
 * deletion on (a row of revoked users outlives the tokens), and the other services hear of it.
 */
export async function deleteAccount(
  deps: Pick<AuthDeps, 'uow' | 'storage' | 'revocation' | 'config'>,
  userId: string,
  password: string,
) {
  const { uow, revocation, config } = deps;
  const row = await signedInMember(uow.db, userId);
  await requirePassword(row, password);
  await uow.run(async (t) => {
    await queries.insertRevokedUser(t.db, row.id, config.ACCESS_TOKEN_TTL_SECONDS);
    const gone = await queries.deleteUser(t.db, row.id);
    await userDeleted(t, row, (gone?.version ?? row.version) + 1);
    t.afterCommit(() => revocation.accountDeleted(row.id));
  });
  await forgetImage(deps, row.profileImage);
  return { message: m.accountDeleted };
}

/** The dashboard's counters, fed by catalog's, messaging's and moderation's events. */
export async function statsOf(db: Db, userId: string) {
  const row = await queries.statsOf(db, userId);
  return {
    books_total: row?.booksTotal ?? 0,
    books_available: row?.booksAvailable ?? 0,
    books_sold: row?.booksSold ?? 0,
    conversations: row?.conversations ?? 0,
    messages_received: row?.messagesReceived ?? 0,
    comments: row?.comments ?? 0,
  };
}

export async function memberStats({ uow }: Deps, userId: string) {
  return { stats: await statsOf(uow.db, userId) };
}

export async function recentActivity({ uow }: Deps, userId: string, limit: number) {
  const rows = await queries.latestActivities(uow.db, userId, limit);
  return {
    activities: rows.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
      link: r.link,
      occurred_at: r.occurredAt.toISOString(),
    })),
  };
}

/** What anyone sees of a member; contact details only as they chose to show them. */
export async function publicProfile({ uow }: Deps, userId: string, viewerId?: string) {
  const row = await queries.findUserById(uow.db, userId);
  // A deactivated member's public page is gone like their listings, until reactivation.
  if (!row || row.deactivatedAt) throw notFound(m.userNotFound);
  // A block (messaging's, either way) keeps the member's e-mail and phone from the other.
  const blocked =
    viewerId !== undefined && viewerId !== userId && (await queries.blockBetween(uow.db, viewerId, userId));
  return {
    user: {
      id: row.id,
      name: row.name,
      username: row.username,
      profile_image: row.profileImage,
      bio: row.bio,
      country_id: row.countryId,
      city_id: row.cityId,
      created_at: row.createdAt.toISOString(),
      email: row.showEmail && !blocked ? row.email : null,
      phone: row.showPhone && !blocked ? row.phone : null,
    },
  };
}
