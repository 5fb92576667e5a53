import { type Db, isNewer, rowsOf } from '@cartable/service-kit';
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

/**
 * Whether either member blocked the other: a block stands both ways (neither sees the other's
 * contact details, comments on, deals with, or is matched or alerted with the other's listings).
 */
export const blockedEitherWay = (a: SQLWrapper, b: SQLWrapper) =>
  sql<boolean>`exists (select 1 from ${memberBlocks} where ${memberBlocks.blocked} and (
    (${memberBlocks.blockerId} = ${a} and ${memberBlocks.blockedId} = ${b})
    or (${memberBlocks.blockerId} = ${b} and ${memberBlocks.blockedId} = ${a})))`;

/** The same, asked for two member ids. */
export async function blockBetween(db: Db, a: string, b: string) {
  const [row] = await rowsOf<{ blocked: boolean }>(
    db,
    sql`select ${blockedEitherWay(sql`${a}::uuid`, sql`${b}::uuid`)} as blocked`,
  );
  return Boolean(row?.blocked);
}

/** Every standing block, as pairs (for the exchange matcher, which reads all members at once). */
export const standingBlocks = (db: Db) =>
  db
    .select({ blockerId: memberBlocks.blockerId, blockedId: memberBlocks.blockedId })
    .from(memberBlocks)
    .where(eq(memberBlocks.blocked, true));

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
  return row;
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

/** The same for drizzle's query builder: members' public columns as a subquery with typed columns. */
export const membersSubquery = (db: Db, alias: string) =>
  db
    .select({
      userId: sellers.userId,
      name: sellers.name,
      username: sellers.username,
      profileImage: sellers.profileImage,
      email: sellers.email,
      phone: sellers.phone,
      cityId: sellers.cityId,
      ratingAverage: sellers.ratingAverage,
      ratingCount: sellers.ratingCount,
      createdAt: sellers.createdAt,
      deactivatedAt: sellers.deactivatedAt,
      deletedAt: sellers.deletedAt,
    })
    .from(sellers)
    .as(alias);

/**
 * A demo member's public face, written by the demo catalogue's seed before auth's events about
 * them arrive (they fill in the rest); their town follows the seed.
 */
export async function placeDemoMember(
  db: Db,
  member: { id: string; name: string; username: string; phone: string | null },
  cityId: number | null,
) {
  await db
    .insert(sellers)
    .values({
      userId: member.id,
      name: member.name,
      username: member.username,
      countryId: 266,
      cityId,
      phone: member.phone,
      createdAt: new Date(),
    })
    .onConflictDoUpdate({ target: sellers.userId, set: { cityId } });
}

// ── the projections of auth's members and messaging's blocks ─────────────────────────────────

type MemberValues = Partial<Omit<typeof sellers.$inferInsert, 'userId'>> & { version: number };

/**
 * Writes what an event says of a member, only if the event is newer than the row (auth's
 * version); a member not yet known gets the row, dated `createdAt` when the event gives none.
 */
export async function keepMember(db: Db, userId: string, values: MemberValues, createdAt?: Date) {
  await db
    .insert(sellers)
    .values({ userId, name: 'Membre', username: 'membre', createdAt: createdAt ?? new Date(), ...values })
    .onConflictDoUpdate({ target: sellers.userId, set: values, setWhere: isNewer(sellers.version) });
}

/**
 * Sets or clears the deactivation flag at auth's version of it; a member not yet known gets a
 * placeholder row at version 0, which their registration or next update fills in.
 */
export async function setDeactivated(db: Db, userId: string, deactivatedAt: Date | null, version: number) {
  const flag = { deactivatedAt, deactivationVersion: version };
  await db
    .insert(sellers)
    .values({ userId, name: 'Membre', username: 'membre', createdAt: new Date(), version: 0, ...flag })
    .onConflictDoUpdate({
      target: sellers.userId,
      set: flag,
      setWhere: sql`${sellers.deactivationVersion} < ${version}`,
    });
}
