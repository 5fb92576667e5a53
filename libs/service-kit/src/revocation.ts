import { type AccessClaims, type CurrentRights, currentRightsSchema } from '@cartable/contracts';
import type { Redis } from 'ioredis';

/**
 * The Redis cache of token revocation, read by the gateway on every authenticated request. The
 * source of truth is auth's database (revoked token ids, users' token versions, deleted
 * accounts); auth writes each change there first, then here, and rebuilds the whole cache after
 * a Redis (re)connection and periodically. Redis may lose everything at any time, so:
 *
 * - a key present is always true (it was written after the database committed): a revoked token
 *   id, or a user's token version (tokens carrying a lower `ver` are refused);
 * - a key missing means "not revoked" only while the `loaded` sentinel is there: auth sets it
 *   after a full rebuild and deletes it when a write fails. Without it the caller must ask auth.
 *
 * Keys expire when the tokens they refuse would have anyway.
 */
export const revokedTokenKey = (prefix: string, jti: string) => `${prefix}revoked:${jti}`;
export const tokenVersionKey = (prefix: string, userId: string) => `${prefix}token-version:${userId}`;
export const revocationLoadedKey = (prefix: string) => `${prefix}revocation:loaded`;
/** A member's current rights, written when they change (JSON CurrentRights). */
export const rightsKey = (prefix: string, userId: string) => `${prefix}rights:${userId}`;

/** The version cached for a deleted account: every token it ever had is lower. */
export const DELETED_ACCOUNT_VERSION = 2_147_483_647;

export type RevocationAnswer = 'revoked' | 'valid' | 'unknown';

/** Seconds until `exp` (epoch seconds), at least 1. */
export const secondsUntil = (exp: number) => Math.max(1, Math.ceil(exp - Date.now() / 1000));

export async function cacheRevokedToken(redis: Redis, prefix: string, jti: string, exp: number) {
  await redis.set(revokedTokenKey(prefix, jti), '1', 'EX', secondsUntil(exp));
}

/**
 * Raises the cached version, never lowers it: a rebuild that read the database before a bump
 * must not overwrite the bump's newer value.
 */
const RAISE_VERSION = `
local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
if current < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
return 0`;

export async function cacheTokenVersion(
  redis: Redis,
  prefix: string,
  userId: string,
  version: number,
  ttlSeconds: number,
) {
  await redis.eval(RAISE_VERSION, 1, tokenVersionKey(prefix, userId), String(version), String(Math.max(1, ttlSeconds)));
}

/** Queues the same writes on a pipeline (a rebuild sends thousands in a few round trips). */
export function pipelineRevocation(
  pipeline: ReturnType<Redis['pipeline']>,
  prefix: string,
  entry: { jti: string; exp: number } | { userId: string; version: number; ttlSeconds: number },
) {
  if ('jti' in entry) pipeline.set(revokedTokenKey(prefix, entry.jti), '1', 'EX', secondsUntil(entry.exp));
  else
    pipeline.eval(
      RAISE_VERSION,
      1,
      tokenVersionKey(prefix, entry.userId),
      String(entry.version),
      String(Math.max(1, Math.ceil(entry.ttlSeconds))),
    );
}

export async function markRevocationCacheLoaded(redis: Redis, prefix: string, loadedAt = new Date()) {
  await redis.set(revocationLoadedKey(prefix), loadedAt.toISOString());
}

/** The cache may miss a revocation: readers must ask the source of truth until the next rebuild. */
export async function markRevocationCacheIncomplete(redis: Redis, prefix: string) {
  await redis.del(revocationLoadedKey(prefix));
}

/** Caches a member's current rights (written after the transaction that changed them). */
export async function cacheRights(
  redis: Redis,
  prefix: string,
  userId: string,
  rights: CurrentRights,
  ttlSeconds: number,
) {
  await redis.set(rightsKey(prefix, userId), JSON.stringify(rights), 'EX', Math.max(1, Math.ceil(ttlSeconds)));
}

/** Rights that changed after the token was issued, if any (else the token's own are current). */
export function newerRights(claims: Pick<AccessClaims, 'iat'>, rights: CurrentRights | undefined) {
  return rights && rights.changed_at > (claims.iat ?? 0) ? rights : undefined;
}

/** The token's claims with the member's current rights, when those changed since it was issued. */
export function withRights(claims: AccessClaims, rights: CurrentRights | undefined): AccessClaims {
  const newer = newerRights(claims, rights);
  return newer ? { ...claims, is_admin: newer.is_admin, roles: newer.roles, permissions: newer.permissions } : claims;
}

export interface CacheAnswer {
  answer: RevocationAnswer;
  rights?: CurrentRights | undefined;
}

/** One round trip: the token id, the user's version, the sentinel and the user's rights. */
export async function readRevocationCache(
  redis: Redis,
  prefix: string,
  claims: Pick<AccessClaims, 'jti' | 'sub' | 'ver'>,
): Promise<CacheAnswer> {
  const [revoked, version, loaded, rights] = await redis.mget(
    revokedTokenKey(prefix, claims.jti),
    tokenVersionKey(prefix, claims.sub),
    revocationLoadedKey(prefix),
    rightsKey(prefix, claims.sub),
  );
  if (revoked !== null || (version !== null && claims.ver < Number(version))) return { answer: 'revoked' };
  if (loaded === null) return { answer: 'unknown' };
  const parsed = rights == null ? undefined : currentRightsSchema.safeParse(JSON.parse(rights));
  return { answer: 'valid', rights: parsed?.success ? parsed.data : undefined };
}
