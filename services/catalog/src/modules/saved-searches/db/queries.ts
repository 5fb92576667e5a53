import type { SavedSearchFilters, SavedSearchFrequency } from '@cartable/contracts';
import { type Db, rowsOf } from '@cartable/service-kit';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { listingFacts, textQuery } from '../../listings/index.ts';
import { blockedEitherWay } from '../../members/index.ts';
import { townRelation } from '../../taxonomy/index.ts';
import { savedSearches, savedSearchMatches } from './schema.ts';

export type SavedSearchRow = typeof savedSearches.$inferSelect;

/** What a saved search's filters resolve to, as the catalogue reads them (the module's domain resolves them). */
export interface ResolvedColumns {
  filters: SavedSearchFilters;
  summary: string;
  categoryAny: number[];
  categoryGroups: number[][][] | null;
  /** The words left for the full-text query, if any. */
  text: string | null;
  isbn: string | null;
}

/** The row's columns for these resolved filters; the words become a tsquery (null when no word is left). */
const columnsOf = (r: ResolvedColumns) => ({
  filters: r.filters,
  summary: r.summary,
  categoryAny: r.categoryAny,
  categoryGroups: r.categoryGroups,
  textQuery: (r.text
    ? sql`(select case when numnode(q) = 0 then null else q end from ${textQuery(r.text)} as q)`
    : null) as unknown as string | null,
  isbn: r.isbn,
  minPrice: r.filters.min_price ?? null,
  maxPrice: r.filters.max_price ?? null,
  cityId: r.filters.city_id ?? null,
  condition: r.filters.condition ?? null,
  isNegotiable: r.filters.is_negociable ?? null,
  isExchangePossible: r.filters.is_exchange_possible ?? null,
});

export const savedSearchesOf = (db: Db, userId: string) =>
  db
    .select()
    .from(savedSearches)
    .where(eq(savedSearches.userId, userId))
    .orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));

export async function savedSearchOf(db: Db, userId: string, id: number) {
  const [row] = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)));
  return row;
}

export async function savedSearchById(db: Db, id: number) {
  const [row] = await db.select().from(savedSearches).where(eq(savedSearches.id, id));
  return row;
}

/** Serialises a member's saves (until the transaction ends), so two at once cannot both pass the cap. */
export async function lockMemberSearches(db: Db, userId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`saved_searches:${userId}`}))`);
}

export async function countOf(db: Db, userId: string) {
  const [row] = await db.select({ n: count() }).from(savedSearches).where(eq(savedSearches.userId, userId));
  return row?.n ?? 0;
}

export async function insertSavedSearch(
  db: Db,
  values: { userId: string; name: string; frequency: SavedSearchFrequency; unsubscribeToken: string },
  resolved: ResolvedColumns,
) {
  const [row] = await db
    .insert(savedSearches)
    .values({ ...values, ...columnsOf(resolved) })
    .returning();
  return row!;
}

export async function updateSavedSearch(
  db: Db,
  id: number,
  userId: string,
  values: { name?: string; frequency?: SavedSearchFrequency; active?: boolean },
  resolved: ResolvedColumns | null,
) {
  const [row] = await db
    .update(savedSearches)
    .set({ ...values, ...(resolved ? columnsOf(resolved) : {}), updatedAt: new Date() })
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
    .returning();
  return row!;
}

/** The filters resolved again (the categories changed). */
export async function setResolved(db: Db, id: number, resolved: ResolvedColumns) {
  const { filters: _, ...columns } = columnsOf(resolved);
  await db.update(savedSearches).set(columns).where(eq(savedSearches.id, id));
}

export async function setActive(db: Db, id: number, active: boolean) {
  await db.update(savedSearches).set({ active, updatedAt: new Date() }).where(eq(savedSearches.id, id));
}

export async function deleteSavedSearch(db: Db, id: number) {
  await db.delete(savedSearches).where(eq(savedSearches.id, id));
}

/** Every saved search's filters, with its town's name (to resolve them again). */
export const everyFilter = (db: Db) =>
  rowsOf<{ id: number; filters: SavedSearchFilters; city_name: string | null }>(
    db,
    sql`select s.id, s.filters, c.name as city_name from ${savedSearches} s left join ${townRelation} c on c.id = s.city_id`,
  );

/** How many listings each search alerted about, and the last time. */
export async function matchStats(db: Db, ids: number[]) {
  if (!ids.length) return new Map<number, { n: number; last: string | null }>();
  const rows = await db
    .select({
      id: savedSearchMatches.savedSearchId,
      n: sql<number>`count(*)::int`,
      last: sql<string | null>`max(${savedSearchMatches.createdAt})`,
    })
    .from(savedSearchMatches)
    .where(inArray(savedSearchMatches.savedSearchId, ids))
    .groupBy(savedSearchMatches.savedSearchId);
  return new Map(rows.map((s) => [s.id, s]));
}

export interface MatchRow {
  id: number;
  user_id: string;
  name: string;
  frequency: SavedSearchFrequency;
  summary: string;
  filters: SavedSearchFilters;
  unsubscribe_token: string;
  title: string;
  price: number;
  city_name: string | null;
}

/**
 * The active saved searches of other members this listing matches, once per (search, listing):
 * their saved_search_matches rows are written and returned. One statement: the GIN index on
 * `category_any` picks the candidates (`{0}` stands for the searches without a category
 * condition), then price, town, condition, flags, the full-text query and the exact category
 * groups decide. The listing is read through listings' published view.
 */
export function writeMatchesFor(db: Db, bookId: number) {
  return rowsOf<MatchRow>(
    db,
    sql`
    with b as (
      select b.id, b.user_id, b.title, b.price, b.category_ids, b.city_id, b.condition, b.condition_flags,
             b.is_negotiable, b.is_exchange_possible, b.search, replace(coalesce(b.isbn, ''), '-', '') as isbn,
             c.name as city_name
      from ${listingFacts} b left join ${townRelation} c on c.id = b.city_id
      where b.id = ${bookId} and b.status = 'disponible' and b.hidden_at is null
        and not b.seller_away
    ),
    hits as (
      select s.id, s.user_id, s.name, s.frequency, s.summary, s.filters, s.unsubscribe_token
      from b
      join ${savedSearches} s on s.active and s.category_any && (b.category_ids || 0)
      where s.user_id <> b.user_id
        -- No alert about the listing of a member the searcher blocked or was blocked by.
        and not ${blockedEitherWay(sql`s.user_id`, sql`b.user_id`)}
        and (s.min_price is null or b.price >= s.min_price)
        and (s.max_price is null or b.price <= s.max_price)
        and (s.city_id is null or s.city_id = b.city_id)
        and (s.condition is null or s.condition = b.condition)
        -- The flags the member left out are kept only in the saved filters: few searches have any.
        and not (b.condition_flags && array(select jsonb_array_elements_text(coalesce(s.filters->'without_flags', '[]'))))
        and (s.is_negotiable is null or s.is_negotiable = b.is_negotiable)
        and (s.is_exchange_possible is null or s.is_exchange_possible = b.is_exchange_possible)
        and (
          (s.text_query is null and s.isbn is null)
          or (s.text_query is not null and b.search @@ s.text_query)
          or (s.isbn is not null and s.isbn = b.isbn)
        )
        and (
          s.category_groups is null
          or exists (
            select 1 from jsonb_array_elements(s.category_groups) g
            where not exists (
              select 1 from jsonb_array_elements(g) st
              where not (b.category_ids && array(select jsonb_array_elements_text(st)::int))
            )
          )
        )
    ),
    inserted as (
      insert into ${savedSearchMatches} (saved_search_id, book_id)
      select h.id, ${bookId} from hits h
      on conflict do nothing
      returning saved_search_id
    )
    select h.*, b.title, b.price, b.city_name
    from inserted x join hits h on h.id = x.saved_search_id cross join b
  `,
  );
}
