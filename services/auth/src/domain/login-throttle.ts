import type { Db } from '@cartable/service-kit';
import { eq, sql } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import type { UserRow } from './users.ts';

/**
 * Failed logins counted per account in the database (the gateway counts per address): after
 * `max` failures within `lockMinutes` of the first one, the account refuses logins for
 * `lockMinutes`. A success (or a password reset) clears it. Kept out of Redis so that logins
 * work, and locks hold, whether Redis is there or not.
 */
export function loginThrottle(db: Db, max: number, lockMinutes: number) {
  const lock = sql`make_interval(mins => ${lockMinutes})`;
  return {
    isLocked(row: Pick<UserRow, 'lockedUntil'>) {
      return row.lockedUntil !== null && row.lockedUntil.getTime() > Date.now();
    },
    /** Counts a failure in one statement (concurrent failures all count). */
    async fail(userId: string) {
      const windowOver = sql`(${users.failedLoginsSince} is null or ${users.failedLoginsSince} <= now() - ${lock})`;
      const count = sql`(case when ${windowOver} then 1 else ${users.failedLogins} + 1 end)`;
      await db
        .update(users)
        .set({
          failedLogins: count,
          failedLoginsSince: sql`(case when ${windowOver} then now() else ${users.failedLoginsSince} end)`,
          lockedUntil: sql`(case when ${count} >= ${max} then now() + ${lock} else ${users.lockedUntil} end)`,
        })
        .where(eq(users.id, userId));
    },
    async clear(tx: Db, userId: string) {
      await tx
        .update(users)
        .set({ failedLogins: 0, failedLoginsSince: null, lockedUntil: null })
        .where(eq(users.id, userId));
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
