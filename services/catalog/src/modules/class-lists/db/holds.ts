import type { Db } from '@cartable/service-kit';
import { eq, lte } from 'drizzle-orm';
import { classListHolds } from './schema.ts';

/** A listing held for a family for its deal, until `until` (a second hold of the same deal adds nothing). */
export function insertHold(db: Db, hold: { dealId: string; bookId: number; userId: string; until: Date }) {
  return db.insert(classListHolds).values(hold).onConflictDoNothing();
}

/** The deal's hold, removed; none if it held nothing. */
export async function removeHold(db: Db, dealId: string) {
  const [hold] = await db.delete(classListHolds).where(eq(classListHolds.dealId, dealId)).returning();
  return hold;
}

/** The holds whose time has run out, removed. */
export function removeExpiredHolds(db: Db, now: Date) {
  return db.delete(classListHolds).where(lte(classListHolds.until, now)).returning();
}
