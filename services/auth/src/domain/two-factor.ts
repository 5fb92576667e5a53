import { randomBytes, randomInt } from 'node:crypto';
import type { Db } from '@cartable/service-kit';
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import { recoveryCodes, twoFactorCodes } from '../db/schema.ts';
import { sha256 } from './account-tokens.ts';

export type CodePurpose = 'login' | 'enable' | 'disable';

export const CODE_TTL_MINUTES = 10;
export const MAX_CODE_ATTEMPTS = 5;
export const RECOVERY_CODE_COUNT = 8;

// The user id salts the hash: the same code for two users gives two hashes.
const codeHash = (userId: string, code: string) => sha256(`${userId}:${code}`);

/** A fresh 6-digit code; any earlier unused code for the same purpose stops working. */
export async function issueCode(tx: Db, userId: string, purpose: CodePurpose) {
  await tx
    .update(twoFactorCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(twoFactorCodes.userId, userId), eq(twoFactorCodes.purpose, purpose), isNull(twoFactorCodes.usedAt)));
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + CODE_TTL_MINUTES * 60_000);
  await tx.insert(twoFactorCodes).values({ userId, purpose, codeHash: codeHash(userId, code), expiresAt });
  return { code, expiresAt };
}

export async function hasPendingCode(db: Db, userId: string, purpose: CodePurpose) {
  const [row] = await db
    .select({ id: twoFactorCodes.id })
    .from(twoFactorCodes)
    .where(
      and(
        eq(twoFactorCodes.userId, userId),
        eq(twoFactorCodes.purpose, purpose),
        isNull(twoFactorCodes.usedAt),
        gt(twoFactorCodes.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export type CodeCheck = 'ok' | 'invalid' | 'too_many' | 'none';

/**
 * Checks the latest live code: single use, expires after 10 minutes, and after 5 wrong tries
 * it is burnt and a new one must be asked for.
 */
export async function checkCode(db: Db, userId: string, purpose: CodePurpose, code: string): Promise<CodeCheck> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(twoFactorCodes)
      .where(
        and(
          eq(twoFactorCodes.userId, userId),
          eq(twoFactorCodes.purpose, purpose),
          isNull(twoFactorCodes.usedAt),
          gt(twoFactorCodes.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(twoFactorCodes.createdAt))
      .limit(1)
      .for('update');
    if (!row) return 'none';
    if (row.codeHash === codeHash(userId, code)) {
      await tx.update(twoFactorCodes).set({ usedAt: new Date() }).where(eq(twoFactorCodes.id, row.id));
      return 'ok';
    }
    const attempts = row.attempts + 1;
    await tx
      .update(twoFactorCodes)
      .set({ attempts, ...(attempts >= MAX_CODE_ATTEMPTS ? { usedAt: new Date() } : {}) })
      .where(eq(twoFactorCodes.id, row.id));
    return attempts >= MAX_CODE_ATTEMPTS ? 'too_many' : 'invalid';
  });
}

const normalizeRecovery = (code: string) =>
  code
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** New recovery codes (xxxxx-xxxxx), replacing the old ones; returned once, stored hashed. */
export async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomBytes(8).toString('hex').slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await tx
    .insert(recoveryCodes)
    .values(codes.map((c) => ({ userId, codeHash: codeHash(userId, normalizeRecovery(c)) })));
  return codes;
}

/** Uses a recovery code once. */
export async function useRecoveryCode(db: Db, userId: string, code: string): Promise<boolean> {
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, codeHash(userId, normalizeRecovery(code))),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return Boolean(used);
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
