import type { Db } from '@cartable/service-kit';
import { and, inArray, isNull, sql } from 'drizzle-orm';
import { sellers } from './schema.ts';

/** Members (deleted accounts aside) living in each of these towns. */
export async function countInTowns(db: Db, cityIds: number[]) {
  if (!cityIds.length) return new Map<number, number>();
  const rows = await db
    .select({ cityId: sellers.cityId, n: sql<number>`count(*)::int` })
    .from(sellers)
    .where(and(inArray(sellers.cityId, cityIds), isNull(sellers.deletedAt)))
    .groupBy(sellers.cityId);
  return new Map(rows.map((r) => [r.cityId!, r.n]));
}
