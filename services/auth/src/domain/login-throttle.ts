import { createHash } from 'node:crypto';
import type { Db } from '@cartable/service-kit';
import { and, eq, gt, sql } from 'drizzle-orm';
import { loginSources, users } from '../db/schema.ts';

export interface LoginThrottleSettings {
  /** Attempts on one account without any wait, within the window. */
  freeAttempts: number;
  /** Past them, each attempt waits twice as long as the previous one, up to this. */
  maxDelaySeconds: number;
  /** From an address the member signed in from before, the wait never exceeds this. */
  knownSourceMaxDelaySeconds: number;
  /** Attempts older than this no longer count. */
  windowMinutes: number;
}

/** The settings as the configuration names them (LOGIN_*). */
export const throttleSettings = (config: {
  LOGIN_FREE_ATTEMPTS: number;
  LOGIN_MAX_DELAY_SECONDS: number;
  LOGIN_KNOWN_SOURCE_MAX_DELAY_SECONDS: number;
  LOGIN_WINDOW_MINUTES: number;
}): LoginThrottleSettings => ({
  freeAttempts: config.LOGIN_FREE_ATTEMPTS,
  maxDelaySeconds: config.LOGIN_MAX_DELAY_SECONDS,
  knownSourceMaxDelaySeconds: config.LOGIN_KNOWN_SOURCE_MAX_DELAY_SECONDS,
  windowMinutes: config.LOGIN_WINDOW_MINUTES,
});

export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * Per-account throttling with growing delays (OWASP ASVS 5.0 V6): no account is ever locked for
 * good, and an attacker cannot lock its owner out. Every attempt is counted *before* the
 * password is checked, in one statement that also enforces the wait, so concurrent guesses
 * cannot slip past the count; a right password gives its attempt back. The first
 * `freeAttempts` failures within the window are free, then each next attempt must wait 1 s,
 * 2 s, 4 s… up to `maxDelaySeconds`. From an address that signed in
 * to this account successfully before, the wait is capped at `knownSourceMaxDelaySeconds`. A
 * success (or a password reset) clears the count. The gateway limits each address on top.
 */
export function loginThrottle(db: Db, settings: LoginThrottleSettings) {
  const windowOver = sql`(${users.failedLoginsSince} is null or ${users.failedLoginsSince} <= now() - make_interval(mins => ${settings.windowMinutes}))`;
  const count = sql`(case when ${windowOver} then 1 else ${users.failedLogins} + 1 end)`;
  const delay = sql`least(${settings.maxDelaySeconds}, case when ${count} < ${settings.freeAttempts} then 0 else power(2, ${count} - ${settings.freeAttempts}) end)`;
  const knownCap = sql`make_interval(secs => ${settings.knownSourceMaxDelaySeconds})`;

  /** Where an attempt comes from, hashed: the address is not kept. */
  const sourceOf = (userId: string, address: string) =>
    createHash('sha256').update(`${userId}:${address}`).digest('base64url');

  async function isKnown(userId: string, source: string) {
    const [row] = await db
      .select({ source: loginSources.source })
      .from(loginSources)
      .where(
        and(
          eq(loginSources.userId, userId),
          eq(loginSources.source, source),
          gt(loginSources.lastSuccessAt, sql`now() - interval '90 days'`),
        ),
      );
    return Boolean(row);
  }

  return {
    /** Counts this attempt if the account may be tried now; otherwise says how long to wait. */
    async admit(userId: string, address: string): Promise<Admission> {
      const known = await isKnown(userId, sourceOf(userId, address));
      const mayTry = known
        ? sql`(${users.lockedUntil} is null or ${users.lockedUntil} <= now() or ${users.lastLoginAttemptAt} <= now() - ${knownCap})`
        : sql`(${users.lockedUntil} is null or ${users.lockedUntil} <= now())`;
      const admitted = await db
        .update(users)
        .set({
          failedLogins: count,
          failedLoginsSince: sql`(case when ${windowOver} then now() else ${users.failedLoginsSince} end)`,
          lockedUntil: sql`now() + make_interval(secs => ${delay})`,
          lastLoginAttemptAt: sql`now()`,
        })
        .where(and(eq(users.id, userId), mayTry))
        .returning({ id: users.id });
      if (admitted.length) return { admitted: true };
      const [row] = await db
        .select({ lockedUntil: users.lockedUntil, last: users.lastLoginAttemptAt })
        .from(users)
        .where(eq(users.id, userId));
      let until = row?.lockedUntil?.getTime() ?? Date.now();
      if (known && row?.last) until = Math.min(until, row.last.getTime() + settings.knownSourceMaxDelaySeconds * 1000);
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)) };
    },
    /** The password was right: this attempt was not a guess, it is given back. */
    async passwordAccepted(userId: string) {
      await db
        .update(users)
        .set({ failedLogins: sql`greatest(${users.failedLogins} - 1, 0)`, lockedUntil: null })
        .where(eq(users.id, userId));
    },
    /** A wrong second factor after a right password: counted like a wrong password. */
    async fail(userId: string) {
      await db
        .update(users)
        .set({
          failedLogins: count,
          failedLoginsSince: sql`(case when ${windowOver} then now() else ${users.failedLoginsSince} end)`,
          lockedUntil: sql`now() + make_interval(secs => ${delay})`,
        })
        .where(eq(users.id, userId));
    },
    /** A full success: the count goes, and this address becomes one the member is known from. */
    async succeeded(tx: Db, userId: string, address: string) {
      await this.clear(tx, userId);
      await tx
        .insert(loginSources)
        .values({ userId, source: sourceOf(userId, address) })
        .onConflictDoUpdate({ target: [loginSources.userId, loginSources.source], set: { lastSuccessAt: sql`now()` } });
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
