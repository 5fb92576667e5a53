import { randomBytes } from 'node:crypto';
import type { Db } from '@cartable/service-kit';
import { inArray, sql } from 'drizzle-orm';
import { notificationPreferences } from './schema.ts';

/** 32 random bytes: a link that cannot be guessed. */
export const newToken = () => randomBytes(32).toString('base64url');

/**
 * The members' unsubscribe tokens, made with their first alert mail (a preferences row with the
 * defaults if they had none), in the mail's transaction: one statement each way for any number.
 */
export async function unsubscribeTokensOf(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (!userIds.length) return new Map();
  await db
    .insert(notificationPreferences)
    .values(userIds.map((userId) => ({ userId, unsubscribeToken: newToken() })))
    .onConflictDoUpdate({
      target: notificationPreferences.userId,
      set: { unsubscribeToken: sql`coalesce(${notificationPreferences.unsubscribeToken}, excluded.unsubscribe_token)` },
    });
  const rows = await db
    .select({ userId: notificationPreferences.userId, token: notificationPreferences.unsubscribeToken })
    .from(notificationPreferences)
    .where(inArray(notificationPreferences.userId, userIds));
  return new Map(rows.map((row) => [row.userId, row.token!]));
}
