import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@cartable/service-kit';
import type { TokenPurpose } from '../db/queries.ts';
import * as queries from '../db/queries.ts';

export type { TokenPurpose };

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * A new single-use link token; only its hash is stored. Earlier unused tokens of the same
 * purpose stop working, so only the newest e-mail's link is valid.
 */
export async function issueAccountToken(tx: Db, userId: string, purpose: TokenPurpose, ttlMinutes: number) {
  await queries.cancelAccountTokens(tx, userId, purpose);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMinutes * 60_000);
  await queries.insertAccountToken(tx, { tokenHash: sha256(token), purpose, userId, expiresAt });
  return { token, expiresAt };
}

/** The user a live token belongs to, checked against the address it was sent to; does not use it. */
export const findAccountToken = (db: Db, token: string, purpose: TokenPurpose, email: string) =>
  queries.liveAccountToken(db, sha256(token), purpose, email);

/** Uses the token once: returns its user id, or null when unknown, used, expired or for another address. */
export async function consumeAccountToken(tx: Db, token: string, purpose: TokenPurpose, email: string) {
  if (!(await findAccountToken(tx, token, purpose, email))) return null;
  // Two clicks at the same moment: only one update wins.
  return queries.useAccountToken(tx, sha256(token));
}
