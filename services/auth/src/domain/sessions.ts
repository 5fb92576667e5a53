import { type Db, publishTokenVersion } from '@cartable/service-kit';
import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import type { AuthDeps } from '../deps.ts';
import { claimsFor, toUserDto, type UserRow } from './users.ts';

/** Signs an access token for a user, with the claims of their current roles and permissions. */
export async function openSession(deps: Pick<AuthDeps, 'signer' | 'config'>, db: Db, row: UserRow) {
  const user = await toUserDto(db, row);
  const { token } = await deps.signer.sign(claimsFor(user, row.tokenVersion), deps.config.ACCESS_TOKEN_TTL_SECONDS);
  return {
    access_token: token,
    token_type: 'Bearer' as const,
    expires_in: deps.config.ACCESS_TOKEN_TTL_SECONDS,
    user,
    two_factor_required: false,
  };
}

/** Every token of the user stops working: the version goes up in the database and in Redis. */
export async function revokeAllSessions(deps: Pick<AuthDeps, 'redis' | 'config'>, db: Db, userId: string) {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning();
  if (row) {
    await publishTokenVersion(
      deps.redis,
      deps.config.REDIS_KEY_PREFIX,
      userId,
      row.tokenVersion,
      deps.config.ACCESS_TOKEN_TTL_SECONDS,
    );
  }
  return row;
}
