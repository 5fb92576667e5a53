import type { Redis } from 'ioredis';

/**
 * Logout and password changes revoke token ids; the key lives until the token would have
 * expired anyway. auth writes it, the gateway reads it on every authenticated request.
 */
export const revokedTokenKey = (prefix: string, jti: string) => `${prefix}revoked:${jti}`;

export async function revokeToken(redis: Redis, prefix: string, jti: string, exp: number) {
  const ttl = Math.max(1, exp - Math.floor(Date.now() / 1000));
  await redis.set(revokedTokenKey(prefix, jti), '1', 'EX', ttl);
}

export async function isTokenRevoked(redis: Redis, prefix: string, jti: string): Promise<boolean> {
  return (await redis.exists(revokedTokenKey(prefix, jti))) === 1;
}
