import { EXCHANGE_SUGGESTION_DAYS } from '@cartable/contracts';
import { type Db, rowsOf } from '@cartable/service-kit';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { itemRelation } from '../../class-lists/index.ts';
import { listingFacts, lotItemFacts } from '../../listings/index.ts';
import { blockedEitherWay, memberRelation } from '../../members/index.ts';
import { categoryRelation, townRelation } from '../../taxonomy/index.ts';
import { exchangeSuggestions, exchangeWishes } from './schema.ts';

/**
 * Exchanges read listings through the views the listings module publishes, members, towns,
 * categories and class lists' books through their modules' relations: they name no table of
 * another module.
 */

export type SuggestionRow = typeof exchangeSuggestions.$inferSelect;
export type SuggestionValues = typeof exchangeSuggestions.$inferInsert;
export type WishRow = typeof exchangeWishes.$inferSelect;

// ── wishes ───────────────────────────────────────────────────────────────────────────────────

export async function wishCountOf(db: Db, userId: string) {
  const [row] = await db.select({ n: count() }).from(exchangeWishes).where(eq(exchangeWishes.userId, userId));
  return row?.n ?? 0;
}

export async function insertWish(db: Db, values: typeof exchangeWishes.$inferInsert) {
  const [row] = await db.insert(exchangeWishes).values(values).returning();
  return row!;
}

/** Whether the member had it. */
export async function deleteWish(db: Db, userId: string, id: number) {
  const [row] = await db
    .delete(exchangeWishes)
    .where(and(eq(exchangeWishes.id, id), eq(exchangeWishes.userId, userId)))
    .returning({ id: exchangeWishes.id });
  return Boolean(row);
}

export const wishesOf = (db: Db, userId: string) =>
  db.select().from(exchangeWishes).where(eq(exchangeWishes.userId, userId)).orderBy(asc(exchangeWishes.createdAt));

/** Exchange wishes naming each of these class list books. */
export async function wishesForItems(db: Db, itemIds: number[]) {
  if (!itemIds.length) return new Map<number, number>();
  const rows = await db
    .select({ itemId: exchangeWishes.classListItemId, n: count() })
    .from(exchangeWishes)
    .where(inArray(exchangeWishes.classListItemId, itemIds))
    .groupBy(exchangeWishes.classListItemId);
  return new Map(rows.map((r) => [r.itemId!, r.n]));
}

/**
 * « Compléter ma liste »: which of these books (a family's, by class list item) each of these
 * sellers looks for, wished as a class list's book with the same ISBN or title key (the same book
 * in another year's or school's list counts). A wish for a level and a subject names no book: it
 * is left out.
 */
export function sellersWishingItems(db: Db, sellerIds: string[], itemIds: number[]) {
  if (!sellerIds.length || !itemIds.length) return Promise.resolve([]);
  return rowsOf<{ seller_id: string; item_id: number }>(
    db,
    sql`
    select distinct w.user_id::text as seller_id, o.id as item_id
    from ${exchangeWishes} w
    join ${itemRelation} wi on wi.id = w.class_list_item_id
    join ${itemRelation} o on o.id = any(${`{${itemIds.join(',')}}`}::int[])
      and ((o.isbn is not null and o.isbn = wi.isbn) or (o.title_key <> '' and o.title_key = wi.title_key))
    where w.user_id = any(${`{${sellerIds.join(',')}}`}::uuid[])
    order by 1, 2`,
  );
}

// ── the matcher's reads ──────────────────────────────────────────────────────────────────────

/** Two replicas never run the matcher at once (a transaction-scoped advisory lock). */
const MATCHER_LOCK = 7_815_001;

export async function tryMatcherLock(db: Db) {
  const [row] = await rowsOf<{ locked: boolean }>(db, sql`select pg_try_advisory_xact_lock(${MATCHER_LOCK}) as locked`);
  return row?.locked ?? false;
}

/** Every wish of a member in the catalogue, with what it names (a book's keys, or a level and subject). */
export const matcherWishes = (db: Db) =>
  rowsOf<{
    id: number;
    user_id: string;
    label: string;
    title_key: string | null;
    isbn: string | null;
    level_id: number | null;
    subject_id: number | null;
  }>(
    db,
    sql`
    select w.id, w.user_id, coalesce(i.title, lv.name || ' · ' || sj.name) as label,
           i.title_key, i.isbn, w.level_id, w.subject_id
    from ${exchangeWishes} w
    left join ${itemRelation} i on i.id = w.class_list_item_id
    left join ${categoryRelation} lv on lv.id = w.level_id
    left join ${categoryRelation} sj on sj.id = w.subject_id
    join ${memberRelation} s on s.user_id = w.user_id and not s.away`,
  );

/** The listings open to exchange of the members who wish for something (a lot offers each of its books). */
export const matcherOffers = (db: Db) =>
  rowsOf<{
    id: number;
    user_id: string;
    title_key: string;
    isbn_key: string | null;
    category_ids: number[];
    city_id: number | null;
    province_id: number | null;
  }>(
    db,
    sql`
    select b.id, b.user_id, cartable_title_key(b.title) as title_key, cartable_isbn_key(b.isbn) as isbn_key,
           b.category_ids, b.city_id, c.province_id
    from ${listingFacts} b
    left join ${townRelation} c on c.id = b.city_id
    where b.is_exchange_possible and b.status = 'disponible' and b.hidden_at is null
      and b.user_id in (select distinct user_id from ${exchangeWishes})
    union all
    select b.id, b.user_id, li.title_key, li.isbn_key, b.category_ids, b.city_id, c.province_id
    from ${lotItemFacts} li
    join ${listingFacts} b on b.id = li.book_id
    left join ${townRelation} c on c.id = b.city_id
    where b.is_exchange_possible and b.status = 'disponible' and b.hidden_at is null
      and b.user_id in (select distinct user_id from ${exchangeWishes})`,
  );

/** Where the members who wish for something live. */
export const matcherMembers = (db: Db) =>
  rowsOf<{ id: string; city_id: number | null; province_id: number | null }>(
    db,
    sql`
    select s.user_id as id, s.city_id, c.province_id
    from ${memberRelation} s left join ${townRelation} c on c.id = s.city_id
    where s.user_id in (select distinct user_id from ${exchangeWishes})`,
  );

// ── suggestions ──────────────────────────────────────────────────────────────────────────────

/** The signatures of open and declined suggestions (never made again), and their listings. */
export const liveSignatures = (db: Db) =>
  db
    .select({
      signature: exchangeSuggestions.signature,
      status: exchangeSuggestions.status,
      bookIds: exchangeSuggestions.bookIds,
    })
    .from(exchangeSuggestions)
    .where(inArray(exchangeSuggestions.status, ['open', 'declined']));

/** The new suggestion, or undefined when the same was made already. */
export async function insertSuggestion(db: Db, values: SuggestionValues) {
  const [row] = await db.insert(exchangeSuggestions).values(values).onConflictDoNothing().returning();
  return row;
}

/**
 * Open suggestions whose listings went (sold, reserved, hidden, no longer for exchange), too old,
 * or between members one of whom has since blocked another.
 */
export async function lapseSuggestions(db: Db, now: Date) {
  await db.execute(sql`
    update ${exchangeSuggestions} s set status = 'lapsed', updated_at = ${now.toISOString()}::timestamptz
    where s.status = 'open' and (
      s.created_at < ${now.toISOString()}::timestamptz - make_interval(days => ${EXCHANGE_SUGGESTION_DAYS})
      or exists (
        select 1 from unnest(s.book_ids) as bid
        left join ${listingFacts} b on b.id = bid
        where b.id is null or b.status <> 'disponible' or b.hidden_at is not null or not b.is_exchange_possible
      )
      or exists (
        select 1 from unnest(s.member_ids) as one, unnest(s.member_ids) as another
        where one < another and ${blockedEitherWay(sql`one`, sql`another`)}
      )
    )`);
}

/** A suggestion made to this member, locked when asked; undefined for anyone else. */
export async function suggestionFor(db: Db, id: string, userId: string, lock = false) {
  const query = db
    .select()
    .from(exchangeSuggestions)
    .where(and(eq(exchangeSuggestions.id, id), sql`${userId}::uuid = any(${exchangeSuggestions.memberIds})`));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function updateSuggestion(db: Db, id: string, values: Partial<SuggestionValues>) {
  const [row] = await db
    .update(exchangeSuggestions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(exchangeSuggestions.id, id))
    .returning();
  return row!;
}

/** The suggestions made to a member: open and accepted ones, and the others for a month. */
export const suggestionsOf = (db: Db, userId: string) =>
  db
    .select()
    .from(exchangeSuggestions)
    .where(
      and(
        sql`${userId}::uuid = any(${exchangeSuggestions.memberIds})`,
        sql`(${exchangeSuggestions.status} in ('open', 'accepted') or ${exchangeSuggestions.updatedAt} > now() - interval '30 days')`,
      ),
    )
    .orderBy(desc(exchangeSuggestions.createdAt))
    .limit(50);
