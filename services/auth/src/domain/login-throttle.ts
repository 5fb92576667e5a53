import { createHash } from 'node:crypto';
import type { Db } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';

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
  /** Where an attempt comes from, hashed: the address is not kept. */
  const sourceOf = (userId: string, address: string) =>
    createHash('sha256').update(`${userId}:${address}`).digest('base64url');

  return {
    /** Counts this attempt if the account may be tried now; otherwise says how long to wait. */
    async admit(userId: string, address: string): Promise<Admission> {
      const known = await queries.isKnownLoginSource(db, userId, sourceOf(userId, address));
      if (await queries.admitLoginAttempt(db, userId, settings, known)) return { admitted: true };
      const row = await queries.loginWait(db, userId);
      let until = row?.lockedUntil?.getTime() ?? Date.now();
      if (known && row?.lastAttemptAt)
        until = Math.min(until, row.lastAttemptAt.getTime() + settings.knownSourceMaxDelaySeconds * 1000);
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)) };
    },
    /** The password was right: this attempt was not a guess, it is given back. */
    passwordAccepted: (userId: string) => queries.giveLoginAttemptBack(db, userId),
    /** A wrong second factor after a right password: counted like a wrong password. */
    fail: (userId: string) => queries.countFailedLogin(db, userId, settings),
    /** A full success: the count goes, and this address becomes one the member is known from. */
    async succeeded(tx: Db, userId: string, address: string) {
      await queries.clearFailedLogins(tx, userId);
      await queries.rememberLoginSource(tx, userId, sourceOf(userId, address));
    },
    clear: (tx: Db, userId: string) => queries.clearFailedLogins(tx, userId),
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
