import type { Redis } from 'ioredis';

/**
 * Revocation lives in Redis, written by auth and read by the gateway on every authenticated
 * request: a token id revoked at logout, and a per-user token version bumped when every token
 * in force must stop working (password change or reset, account deletion); tokens carry the
 * version they were issued with. Keys expire when the tokens they refuse would have anyway.
 */
export const revokedTokenKey = (prefix: string, jti: string) => `${prefix}revoked:${jti}`;
export const tokenVersionKey = (prefix: string, userId: string) => `${prefix}token-version:${userId}`;

export async function revokeToken(redis: Redis, prefix: string, jti: string, exp: number) {
  const ttl = Math.max(1, exp - Math.floor(Date.now() / 1000));
  await redis.set(revokedTokenKey(prefix, jti), '1', 'EX', ttl);
}

/** Publishes a user's current token version; tokens with a lower one are refused. */
export async function publishTokenVersion(
  redis: Redis,
  prefix: string,
  userId: string,
  version: number,
  ttlSeconds: number,
) {
  await redis.set(tokenVersionKey(prefix, userId), String(version), 'EX', ttlSeconds);
}

export async function isTokenRevoked(
  redis: Redis,
  prefix: string,
  claims: { jti: string; sub: string; ver: number },
): Promise<boolean> {
  const [revoked, version] = await redis.mget(revokedTokenKey(prefix, claims.jti), tokenVersionKey(prefix, claims.sub));
  return revoked !== null || (version !== null && claims.ver < Number(version));
}
