import type { Db } from '@cartable/service-kit';
import { recordEvent } from '@cartable/service-kit';
import { userActivities } from '../db/schema.ts';
import { issueAccountToken } from './account-tokens.ts';
import type { UserRow } from './users.ts';

/**
 * What other services may know of a member (catalog's sellers projection): contact details
 * travel only when the member chose to show them.
 */
export async function recordUserUpdated(tx: Db, row: UserRow) {
  await recordEvent(tx, 'auth.user.updated', {
    user_id: row.id,
    name: row.name,
    username: row.username,
    profile_image: row.profileImage,
    country_id: row.countryId,
    city_id: row.cityId,
    email: row.showEmail ? row.email : null,
    phone: row.showPhone ? row.phone : null,
    updated_at: row.updatedAt.toISOString(),
    version: row.version,
  });
}

/** A line of the member's own recent activity (dashboard). */
export async function recordActivity(tx: Db, userId: string, type: string, title: string, link: string | null = null) {
  await tx.insert(userActivities).values({ userId, type, title, link });
}

/** A new verification link (earlier ones stop working), e-mailed by notifications. */
export async function requestVerificationEmail(
  tx: Db,
  user: Pick<UserRow, 'id' | 'name' | 'email'>,
  ttlMinutes: number,
) {
  const { token, expiresAt } = await issueAccountToken(tx, user.id, 'verify_email', ttlMinutes);
  await recordEvent(tx, 'auth.email_verification.requested', {
    user_id: user.id,
    name: user.name,
    email: user.email,
    token,
    expires_at: expiresAt.toISOString(),
  });
}
