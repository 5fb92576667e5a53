import type { Redis } from 'ioredis';

/**
 * Revocation lives in Redis, written by auth and read by the gateway on every authenticated
 * request: a token id revoked at logout, and a per-user cut-off (password change or reset,
 * account deletion) before which every token of that user is refused. Keys expire when the
 * tokens they refuse would have expired anyway.
 */
export const revokedTokenKey = (prefix: string, jti: string) => `${prefix}revoked:${jti}`;
export const revokedBeforeKey = (prefix: string, userId: string) => `${prefix}revoked-before:${userId}`;

export async function revokeToken(redis: Redis, prefix: string, jti: string, exp: number) {
  const ttl = Math.max(1, exp - Math.floor(Date.now() / 1000));
  await redis.set(revokedTokenKey(prefix, jti), '1', 'EX', ttl);
}

/** Refuses every token of the user issued before now (in whole seconds, as `iat` is). */
export async function revokeAllTokens(redis: Redis, prefix: string, userId: string, maxTokenTtlSeconds: number) {
  await redis.set(revokedBeforeKey(prefix, userId), String(Math.floor(Date.now() / 1000)), 'EX', maxTokenTtlSeconds);
}

export async function isTokenRevoked(
  redis: Redis,
  prefix: string,
  claims: { jti: string; sub: string; iat: number },
): Promise<boolean> {
  const [revoked, before] = await redis.mget(revokedTokenKey(prefix, claims.jti), revokedBeforeKey(prefix, claims.sub));
  return revoked !== null || (before !== null && claims.iat < Number(before));
}
