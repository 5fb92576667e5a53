import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@cartable/service-kit';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { accountTokens, users } from '../db/schema.ts';

export type TokenPurpose = 'verify_email' | 'reset_password';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * A new single-use link token; only its hash is stored. Earlier unused tokens of the same
 * purpose stop working, so only the newest e-mail's link is valid.
 */
export async function issueAccountToken(tx: Db, userId: string, purpose: TokenPurpose, ttlMinutes: number) {
  await cancelAccountTokens(tx, userId, purpose);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMinutes * 60_000);
  await tx.insert(accountTokens).values({ tokenHash: sha256(token), purpose, userId, expiresAt });
  return { token, expiresAt };
}

/** Every unused link of this purpose stops working (a new one was sent, or it lost its object). */
export async function cancelAccountTokens(tx: Db, userId: string, purpose: TokenPurpose) {
  await tx
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}

const live = (token: string, purpose: TokenPurpose, email: string) =>
  and(
    eq(accountTokens.tokenHash, sha256(token)),
    eq(accountTokens.purpose, purpose),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, new Date()),
    eq(users.email, email.toLowerCase()),
  );

/** The user a live token belongs to, checked against the address it was sent to; does not use it. */
export async function findAccountToken(db: Db, token: string, purpose: TokenPurpose, email: string) {
  const [row] = await db
    .select({ userId: accountTokens.userId })
    .from(accountTokens)
    .innerJoin(users, eq(users.id, accountTokens.userId))
    .where(live(token, purpose, email))
    .limit(1);
  return row?.userId ?? null;
}

/** Uses the token once: returns its user id, or null when unknown, used, expired or for another address. */
export async function consumeAccountToken(tx: Db, token: string, purpose: TokenPurpose, email: string) {
  const userId = await findAccountToken(tx, token, purpose, email);
  if (!userId) return null;
  const [used] = await tx
    .update(accountTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(accountTokens.tokenHash, sha256(token)), isNull(accountTokens.usedAt)))
    .returning({ userId: accountTokens.userId });
  // Two clicks at the same moment: only one update wins.
  return used?.userId ?? null;
}
