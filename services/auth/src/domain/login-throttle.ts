import type { Redis } from '@cartable/service-kit';

/**
 * Failed logins counted per account (the gateway counts per address): after `max` failures
 * within `lockMinutes`, the account refuses logins until the window ends. A success clears it.
 */
export function loginThrottle(redis: Redis, prefix: string, max: number, lockMinutes: number) {
  const key = (email: string) => `${prefix}login-failures:${email.toLowerCase()}`;
  return {
    async isLocked(email: string) {
      return Number(await redis.get(key(email))) >= max;
    },
    async fail(email: string) {
      const count = await redis.incr(key(email));
      if (count === 1) await redis.expire(key(email), lockMinutes * 60);
    },
    async clear(email: string) {
      await redis.del(key(email));
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
