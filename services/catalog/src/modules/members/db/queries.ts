import type { Db } from '@cartable/service-kit';
import { and, eq, inArray, isNull, type SQLWrapper, sql } from 'drizzle-orm';
import { memberBlocks, sellers } from './schema.ts';

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

/**
 * Members as other modules join them in their own statements (the public face auth's events
 * give, with the rating aggregate and whether they are away: deactivated or deleted). The
 * planner pulls the subquery up into the caller's joins: no cost beyond joining the table.
 */
export const memberRelation = sql`(select m.user_id, m.name, m.username, m.profile_image, m.email, m.phone,
  m.city_id, m.country_id, m.rating_average, m.rating_count, m.created_at, m.deactivated_at, m.deleted_at,
  (m.deactivated_at is not null or m.deleted_at is not null) as away
  from ${sellers} m)`;

/** Whether `blocker` blocked `blocked` (messaging's blocks, projected): an SQL condition on two member ids. */
export const blockedBy = (blocker: SQLWrapper, blocked: SQLWrapper) =>
  sql<boolean>`exists (select 1 from ${memberBlocks} where ${memberBlocks.blockerId} = ${blocker}
    and ${memberBlocks.blockedId} = ${blocked} and ${memberBlocks.blocked})`;

/** The public face of members, by id: name, username, photo and town. */
export async function memberCards(db: Db, ids: string[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map<string, MemberCard>();
  const rows = await db
    .select({
      id: sellers.userId,
      name: sellers.name,
      username: sellers.username,
      profileImage: sellers.profileImage,
      email: sellers.email,
      cityId: sellers.cityId,
    })
    .from(sellers)
    .where(inArray(sellers.userId, unique));
  return new Map(rows.map((r) => [r.id, r]));
}
export interface MemberCard {
  id: string;
  name: string;
  username: string;
  profileImage: string | null;
  email: string | null;
  cityId: number | null;
}

/** Whether the member is out of the catalogue (deactivated by an administrator, or gone), and their town. */
export async function memberStanding(db: Db, userId: string) {
  const [row] = await db
    .select({ deactivatedAt: sellers.deactivatedAt, deletedAt: sellers.deletedAt, cityId: sellers.cityId })
    .from(sellers)
    .where(eq(sellers.userId, userId));
  return { away: Boolean(row?.deactivatedAt ?? row?.deletedAt), cityId: row?.cityId ?? null, known: Boolean(row) };
}

export async function ratingOf(db: Db, userId: string) {
  const [row] = await db
    .select({ average: sellers.ratingAverage, count: sellers.ratingCount })
    .from(sellers)
    .where(eq(sellers.userId, userId));
  return row ?? { average: 0, count: 0 };
}

/**
 * Locks the member's row for a change of their rating (two reviews of one member written at once
 * then count both); a member catalog has not heard of yet gets a placeholder row, which auth's
 * events fill in later.
 */
export async function lockMember(db: Db, userId: string) {
  await db
    .insert(sellers)
    .values({ userId, name: 'Membre', username: 'membre', createdAt: new Date(), version: 0 })
    .onConflictDoNothing();
  await db.execute(sql`select 1 from ${sellers} where ${sellers.userId} = ${userId} for update`);
}

/** Writes the member's rating aggregate; returns its new version (carried by catalog.seller.rated). */
export async function setRating(db: Db, userId: string, rating: { average: number; count: number }) {
  const [updated] = await db
    .update(sellers)
    .set({ ratingAverage: rating.average, ratingCount: rating.count, ratingVersion: sql`${sellers.ratingVersion} + 1` })
    .where(eq(sellers.userId, userId))
    .returning({ version: sellers.ratingVersion });
  return updated!.version;
}
