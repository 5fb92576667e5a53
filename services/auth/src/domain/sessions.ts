import { messages } from '@cartable/contracts';
import { type Db, HttpError } from '@cartable/service-kit';
import type { AuthDeps } from '../deps.ts';
import { bumpTokenVersions } from './revocation.ts';
import { claimsFor, toUserDto, type UserRow } from './users.ts';

/** Signs an access token for a user, with the claims of their current roles and permissions. */
export async function openSession(deps: Pick<AuthDeps, 'signer' | 'config'>, db: Db, row: UserRow) {
  // Whatever the way in (login, a password change racing the deactivation): no new token.
  if (row.deactivatedAt) throw new HttpError(403, messages.auth.accountDeactivated);
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

/**
 * Every token of these users stops working. Inside a transaction, pass it as `tx` and call the
 * returned `publish` once it has committed: the database holds the new versions (source of
 * truth), then the gateway's Redis cache learns them.
 */
export async function revokeAllSessions(tx: Db, userIds: string[]) {
  const rows: UserRow[] = await bumpTokenVersions(tx, userIds);
  return {
    rows,
    publish: async (deps: Pick<AuthDeps, 'revocation'>) => {
      await Promise.all(rows.map((row) => deps.revocation.versionBumped(row.id, row.tokenVersion)));
    },
  };
}
