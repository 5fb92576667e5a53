import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@cartable/service-kit';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { emailVerificationTokens } from '../db/schema.ts';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new single-use link token; only its hash is stored. */
export async function issueVerificationToken(tx: Db, userId: string, ttlHours: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
  await tx.insert(emailVerificationTokens).values({ tokenHash: hashToken(token), userId, expiresAt });
  return { token, expiresAt };
}

/** Marks the token used and returns its user id, or null when unknown, used or expired. */
export async function consumeVerificationToken(tx: Db, token: string): Promise<string | null> {
  const [row] = await tx
    .update(emailVerificationTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(emailVerificationTokens.tokenHash, hashToken(token)),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: emailVerificationTokens.userId });
  return row?.userId ?? null;
}
