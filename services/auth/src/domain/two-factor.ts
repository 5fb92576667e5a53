import { randomBytes, randomInt } from 'node:crypto';
import { messages } from '@cartable/contracts';
import { conflict, type Db, forbidden, type Transaction, unprocessable } from '@cartable/service-kit';
import type { CodePurpose } from '../db/queries.ts';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { twoFactorCodeRequested } from '../events/published.ts';
import { sha256 } from './account-tokens.ts';
import { recordActivity } from './activity.ts';
import { requirePassword } from './passwords.ts';
import { signedInMember, type UserRow } from './users.ts';

export type { CodePurpose };

/**
 * The e-mailed second step (SPEC.md section 5): a 6-digit code, single use, 10 minutes, burnt
 * after 5 wrong tries; recovery codes for when the mailbox is out of reach.
 */

export const CODE_TTL_MINUTES = 10;
export const MAX_CODE_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 8;

const m = messages.auth;

// The user id salts the hash: the same code for two users gives two hashes.
const codeHash = (userId: string, code: string) => sha256(`${userId}:${code}`);

/** A fresh code, e-mailed by notifications; any earlier unused code for the same purpose stops working. */
export async function sendCode(t: Transaction, row: UserRow, purpose: CodePurpose) {
  await queries.cancelCodes(t.db, row.id, purpose);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + CODE_TTL_MINUTES * 60_000);
  await queries.insertCode(t.db, { userId: row.id, purpose, codeHash: codeHash(row.id, code), expiresAt });
  await twoFactorCodeRequested(t, row, { code, purpose, expiresAt });
}

export type CodeCheck = 'ok' | 'invalid' | 'too_many' | 'none';

/** Checks the latest live code, in a transaction of its own so that the count of tries holds. */
export function checkCode(db: Db, userId: string, purpose: CodePurpose, code: string): Promise<CodeCheck> {
  return db.transaction(async (tx) => {
    const row = await queries.lockLatestCode(tx, userId, purpose);
    if (!row) return 'none';
    if (row.codeHash === codeHash(userId, code)) {
      await queries.updateCode(tx, row.id, { usedAt: new Date() });
      return 'ok';
    }
    const attempts = row.attempts + 1;
    await queries.updateCode(tx, row.id, {
      attempts,
      ...(attempts >= MAX_CODE_ATTEMPTS ? { usedAt: new Date() } : {}),
    });
    return attempts >= MAX_CODE_ATTEMPTS ? 'too_many' : 'invalid';
  });
}

/** The refusal of a code that was not 'ok'. */
export function codeRefused(result: CodeCheck) {
  const message = result === 'too_many' ? m.codeTooManyAttempts : m.codeInvalid;
  return unprocessable({ code: [message] }, message);
}

const normalizeRecovery = (code: string) =>
  code
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** New recovery codes (xxxxx-xxxxx), replacing the old ones; returned once, stored hashed. */
async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomBytes(8).toString('hex').slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await queries.replaceRecoveryCodes(
    tx,
    userId,
    codes.map((c) => codeHash(userId, normalizeRecovery(c))),
  );
  return codes;
}

/** Uses a recovery code once. */
export const useRecoveryCode = (db: Db, userId: string, code: string) =>
  queries.useRecoveryCode(db, userId, codeHash(userId, normalizeRecovery(code)));

export const recoveryCodesLeft = queries.recoveryCodesLeft;

type Deps = Pick<AuthDeps, 'uow'>;

/** Turning it on starts with a code e-mailed to the member. */
export async function enableTwoFactor({ uow }: Deps, userId: string) {
  const row = await signedInMember(uow.db, userId);
  if (row.twoFactorEnabledAt) throw conflict(m.twoFactorAlreadyOn);
  await uow.run((t) => sendCode(t, row, 'enable'));
  return { message: m.codeSent, code_sent: true as const };
}

/** The code confirms it: two-factor is on, and the recovery codes are shown once. */
export async function confirmTwoFactor({ uow }: Deps, userId: string, code: string) {
  const row = await signedInMember(uow.db, userId);
  if (row.twoFactorEnabledAt) throw conflict(m.twoFactorAlreadyOn);
  const result = await checkCode(uow.db, row.id, 'enable', code);
  if (result !== 'ok') throw codeRefused(result);
  const codes = await uow.run(async (t) => {
    await queries.updateUser(t.db, row.id, { twoFactorEnabledAt: new Date(), updatedAt: new Date() });
    await recordActivity(t.db, row.id, 'two_factor.enabled', 'Vérification en deux étapes activée', '/profile');
    return replaceRecoveryCodes(t.db, row.id);
  });
  return { message: m.twoFactorEnabled, recovery_codes: codes };
}

/** The password, and the code when given (SPEC.md section 5 makes it optional), turn it off. */
export async function disableTwoFactor({ uow }: Deps, userId: string, password: string, code?: string) {
  const row = await signedInMember(uow.db, userId);
  if (!row.twoFactorEnabledAt) throw conflict(m.twoFactorOff);
  await requirePassword(row, password);
  if (code) {
    const result = await checkCode(uow.db, row.id, 'disable', code);
    if (result !== 'ok') throw codeRefused(result);
  }
  await uow.run(async (t) => {
    await queries.updateUser(t.db, row.id, { twoFactorEnabledAt: null, updatedAt: new Date() });
    await queries.deleteRecoveryCodes(t.db, row.id);
    await recordActivity(t.db, row.id, 'two_factor.disabled', 'Vérification en deux étapes désactivée', '/profile');
  });
  return { message: m.twoFactorDisabled };
}

/**
 * A new code for an account waiting for one: this cannot be used to mail anyone. At login, any
 * address with a pending code; to turn two-factor on or off, only the signed-in owner of the
 * address (`signedIn`, the token's subject).
 */
export async function resendCode({ uow }: Deps, email: string, purpose: CodePurpose, signedIn: string | null) {
  const row = await queries.findUserByEmail(uow.db, email);
  if (purpose === 'login') {
    if (!row || !(await queries.hasLiveCode(uow.db, row.id, 'login')))
      throw unprocessable({ code: [m.noPendingCode] }, m.noPendingCode);
  } else {
    if (!row || row.id !== signedIn) throw forbidden(messages.forbidden);
    if (purpose === 'disable' && !row.twoFactorEnabledAt) throw conflict(m.twoFactorOff);
    if (purpose === 'enable' && row.twoFactorEnabledAt) throw conflict(m.twoFactorAlreadyOn);
  }
  await uow.run((t) => sendCode(t, row, purpose));
  return { message: m.codeResent };
}

export async function regenerateRecoveryCodes({ uow }: Deps, userId: string, password: string) {
  const row = await signedInMember(uow.db, userId);
  if (!row.twoFactorEnabledAt) throw conflict(m.twoFactorOff);
  await requirePassword(row, password);
  const codes = await uow.run((t) => replaceRecoveryCodes(t.db, row.id));
  return { message: m.recoveryCodesRegenerated, recovery_codes: codes };
}
