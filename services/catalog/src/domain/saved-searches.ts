import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  type BookListQuery,
  conditionLabels,
  eventSchemas,
  savedSearchMessages as m,
  type SavedSearch,
  type SavedSearchFilters,
  type SavedSearchFrequency,
  savedSearchFrequencyLabels,
  savedSearchQueryString,
} from '@cartable/contracts';
import { type Db, notFound, outbox, recordEvent, rowsOf, unprocessable } from '@cartable/service-kit';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { categories, cities, savedSearches, savedSearchMatches } from '../db/schema.ts';
import type { CategoryView } from '../modules/taxonomy/domain/category-store.ts';
import { planSearch, webSearchQuery } from './search.ts';

/**
 * Saved searches with alerts (issue 15 item 5; API.md « Saved searches »). The filters are
 * resolved once, when saved, into columns (db/schema.ts `savedSearches`); a listing that becomes
 * available is matched against every active saved search by one query, in the transaction that
 * lists it (book-writes.ts `recordBookEvent`). HTTP lives in routes/saved-searches.ts.
 */

type Row = typeof savedSearches.$inferSelect;

const unique = (ids: number[]) => [...new Set(ids)];
const fcfa = (n: number) => `${n.toLocaleString('fr-FR').replace(/[\u202f\u00a0]/g, ' ')} FCFA`;
/** What /books reads as an ISBN (domain/books.ts textCondition). */
const isbnOf = (text: string) => {
  const compact = text.replace(/[-\s]/g, '');
  return /^\d{9,13}[\dXx]?$/.test(compact) ? compact : null;
};

// ── resolving the filters ────────────────────────────────────────────────────────────────────

export interface ResolvedFilters {
  /** Any of the groups; each group all of its sets; each set any of its categories. Null: no condition. */
  groups: number[][][] | null;
  /** A category every match has: the smallest set of each group, together; [0] for no condition. */
  any: number[];
  /** The words left for the full-text query, if any. */
  text: string | null;
  isbn: string | null;
}

/**
 * The filters as the catalogue reads them (books.ts `listConditions` after search.ts
 * `planSearch`): levels and subjects in the text become category conditions unless `literal`
 * or an explicit category of that kind wins; explicit categories as the graph's filter groups.
 */
export function resolveFilters(filters: SavedSearchFilters, view: CategoryView): ResolvedFilters {
  const graph = view.graph;
  const plan = planSearch({ ...filters, page: 1 } as BookListQuery, view);
  const text = (plan ? plan.query.query : filters.query)?.trim() || null;
  const understood = plan
    ? [plan.filter.levelIds, plan.filter.subjectIds]
        .filter((ids) => ids.length > 0)
        .map((ids) => unique(ids.flatMap((id) => graph.within(id))))
    : [];
  const explicit = filters.category_ids?.length ? graph.filterGroups(filters.category_ids) : [];
  const groups = explicit.length
    ? explicit.map((sets) => [...sets, ...understood])
    : understood.length
      ? [understood]
      : null;
  const any = groups
    ? unique(groups.flatMap((sets) => sets.reduce((a, b) => (b.length < a.length ? b : a)))).sort((a, b) => a - b)
    : [0];
  return { groups, any, text, isbn: text ? isbnOf(text) : null };
}

/** « maths 6e · Mathématiques · Libreville · 1 000 à 5 000 FCFA · Bon état · Négociable · Échange possible ». */
export function summarize(filters: SavedSearchFilters, view: CategoryView, cityName: string | null): string {
  const parts: string[] = [];
  if (filters.query) parts.push(`« ${filters.query} »`);
  for (const id of filters.category_ids ?? []) {
    const name = view.graph.nodes.get(id)?.name;
    if (name) parts.push(name);
  }
  if (cityName) parts.push(cityName);
  const { min_price: min, max_price: max } = filters;
  if (min !== undefined && max !== undefined) parts.push(min === max ? fcfa(min) : `${fcfa(min)} à ${fcfa(max)}`);
  else if (max !== undefined) parts.push(max === 0 ? 'Dons uniquement' : `${fcfa(max)} au plus`);
  else if (min !== undefined) parts.push(`${fcfa(min)} au moins`);
  if (filters.condition) parts.push(conditionLabels[filters.condition]);
  if (filters.is_negociable !== undefined) parts.push(filters.is_negociable ? 'Négociable' : 'Prix ferme');
  if (filters.is_exchange_possible !== undefined)
    parts.push(filters.is_exchange_possible ? 'Échange possible' : 'Sans échange');
  return parts.join(' · ') || 'Toutes les annonces';
}

/** Unknown categories and towns are field errors (422); answers the town's name. */
export async function checkFilterReferences(db: Db, filters: SavedSearchFilters, view: CategoryView) {
  const errors: Record<string, string[]> = {};
  if (filters.category_ids?.some((id) => !view.graph.has(id))) {
    // The view may be a few seconds old: the database decides.
    const found = await db
      .select({ id: categories.id })
      .from(categories)
      .where(inArray(categories.id, filters.category_ids));
    if (found.length !== filters.category_ids.length) errors['filters.category_ids'] = [m.categoryUnknown];
  }
  let cityName: string | null = null;
  if (filters.city_id) {
    const [city] = await db.select({ name: cities.name }).from(cities).where(eq(cities.id, filters.city_id));
    if (!city) errors['filters.city_id'] = [m.cityUnknown];
    cityName = city?.name ?? null;
  }
  if (Object.keys(errors).length) throw unprocessable(errors);
  return cityName;
}

/** The columns of a saved search for these filters (insert or update). */
export function filterColumns(filters: SavedSearchFilters, view: CategoryView, cityName: string | null) {
  const resolved = resolveFilters(filters, view);
  const tsq = resolved.text
    ? sql`(select case when numnode(q) = 0 then null else q end from ${webSearchQuery(resolved.text)} as q)`
    : null;
  return {
    filters,
    summary: summarize(filters, view, cityName),
    categoryAny: resolved.any,
    categoryGroups: resolved.groups,
    textQuery: tsq as unknown as string | null,
    isbn: resolved.isbn,
    minPrice: filters.min_price ?? null,
    maxPrice: filters.max_price ?? null,
    cityId: filters.city_id ?? null,
    condition: filters.condition ?? null,
    isNegotiable: filters.is_negociable ?? null,
    isExchangePossible: filters.is_exchange_possible ?? null,
  };
}

// ── the unsubscribe token ────────────────────────────────────────────────────────────────────

/**
 * `<id>.<32 random bytes, base64url>`: a secret per saved search, kept on its row, so one link
 * stops that search only, needs no login and no shared key to rotate.
 */
export const newUnsubscribeSecret = () => randomBytes(32).toString('base64url');
export const unsubscribeTokenOf = (row: Pick<Row, 'id' | 'unsubscribeToken'>) => `${row.id}.${row.unsubscribeToken}`;

/** The saved search a token names, or 404 (the same answer for a wrong id and a wrong secret). */
export async function savedSearchByToken(db: Db, token: string): Promise<Row> {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  const id = match ? Number(match[1]) : 0;
  const [row] =
    id > 0 && id <= 2_147_483_647 ? await db.select().from(savedSearches).where(eq(savedSearches.id, id)) : [];
  const given = Buffer.from(match?.[2] ?? '');
  const expected = Buffer.from(row?.unsubscribeToken ?? '');
  if (!row || given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound(m.tokenInvalid);
  return row;
}

// ── answers ──────────────────────────────────────────────────────────────────────────────────

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function toDtos(db: Db, rows: Row[]): Promise<SavedSearch[]> {
  const ids = rows.map((r) => r.id);
  const stats = ids.length
    ? await db
        .select({
          id: savedSearchMatches.savedSearchId,
          n: sql<number>`count(*)::int`,
          last: sql<string | null>`max(${savedSearchMatches.createdAt})`,
        })
        .from(savedSearchMatches)
        .where(inArray(savedSearchMatches.savedSearchId, ids))
        .groupBy(savedSearchMatches.savedSearchId)
    : [];
  const byId = new Map(stats.map((s) => [s.id, s]));
  return rows.map((r) => {
    const filters = r.filters as SavedSearchFilters;
    const stat = byId.get(r.id);
    return {
      id: r.id,
      name: r.name,
      frequency: r.frequency,
      frequency_label: savedSearchFrequencyLabels[r.frequency],
      filters,
      summary: r.summary,
      query_string: savedSearchQueryString(filters),
      active: r.active,
      match_count: Number(stat?.n ?? 0),
      last_match_at: iso(stat?.last ?? null),
      created_at: iso(r.createdAt)!,
      updated_at: iso(r.updatedAt)!,
    };
  });
}

export async function savedSearchesOf(db: Db, userId: string) {
  const rows = await db
    .select()
    .from(savedSearches)
    .where(eq(savedSearches.userId, userId))
    .orderBy(desc(savedSearches.createdAt), desc(savedSearches.id));
  return toDtos(db, rows);
}

/** The member's own saved search, or 404 (another member's is not theirs to know about). */
export async function ownSavedSearch(db: Db, userId: string, id: number) {
  const [row] = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)));
  if (!row) throw notFound(m.notFound);
  return row;
}

export async function recordStopped(
  tx: Db,
  row: Pick<Row, 'id' | 'userId'>,
  reason: 'unsubscribed' | 'paused' | 'deleted',
) {
  await recordEvent(tx, 'catalog.saved_search.stopped', {
    saved_search_id: row.id,
    user_id: row.userId,
    reason,
    at: new Date().toISOString(),
  });
}

// ── matching ─────────────────────────────────────────────────────────────────────────────────

interface MatchRow {
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
 * A listing became available (created, back to « disponible », shown again, or edited): every
 * active saved search of another member it matches gets one saved_search_matches row and one
 * catalog.saved_search.matched event, in the caller's transaction; a (saved search, listing)
 * pair already alerted is skipped. One statement: the GIN index on `category_any` picks the
 * candidates (`{0}` stands for the searches without a category condition), then price, town,
 * condition, flags, the full-text query and the exact category groups decide.
 */
export async function matchSavedSearches(tx: Db, bookId: number, thumbnail: string | null): Promise<number> {
  const rows = await rowsOf<MatchRow>(
    tx,
    sql`
    with b as (
      select b.id, b.user_id, b.title, b.price, b.category_ids, b.city_id, b.condition,
             b.is_negotiable, b.is_exchange_possible, b.search, replace(coalesce(b.isbn, ''), '-', '') as isbn,
             c.name as city_name
      from books b left join cities c on c.id = b.city_id
      where b.id = ${bookId} and b.status = 'disponible' and b.hidden_at is null
        and not b.seller_away
    ),
    hits as (
      select s.id, s.user_id, s.name, s.frequency, s.summary, s.filters, s.unsubscribe_token
      from b
      join saved_searches s on s.active and s.category_any && (b.category_ids || 0)
      where s.user_id <> b.user_id
        and (s.min_price is null or b.price >= s.min_price)
        and (s.max_price is null or b.price <= s.max_price)
        and (s.city_id is null or s.city_id = b.city_id)
        and (s.condition is null or s.condition = b.condition)
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
      insert into saved_search_matches (saved_search_id, book_id)
      select h.id, ${bookId} from hits h
      on conflict do nothing
      returning saved_search_id
    )
    select h.*, b.title, b.price, b.city_name
    from inserted x join hits h on h.id = x.saved_search_id cross join b
  `,
  );
  if (!rows.length) return 0;
  const at = new Date().toISOString();
  const type = 'catalog.saved_search.matched';
  // One insert for all the events (a popular listing may answer hundreds of searches).
  await tx.insert(outbox).values(
    rows.map((r) => ({
      id: randomUUID(),
      type,
      payload: eventSchemas[type].parse({
        saved_search_id: Number(r.id),
        user_id: r.user_id,
        name: r.name,
        frequency: r.frequency,
        summary: r.summary,
        query_string: savedSearchQueryString(r.filters),
        unsubscribe_token: unsubscribeTokenOf({ id: Number(r.id), unsubscribeToken: r.unsubscribe_token }),
        book: {
          id: bookId,
          title: r.title,
          price: Number(r.price),
          city_name: r.city_name,
          thumbnail,
        },
        at,
      }),
    })),
  );
  return rows.length;
}

// ── the categories changed ───────────────────────────────────────────────────────────────────

let refreshing: Promise<number> | null = null;
let again = false;

/**
 * Resolves every saved search again against the category graph as it is now (a category added
 * under « Collège », renamed or moved): run after each change of the hierarchy, in the
 * background, one at a time (a change during a run asks for one more). Answers how many rows
 * it rewrote.
 */
export function refreshSavedSearches(db: Db, view: () => Promise<CategoryView>): Promise<number> {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  const run = async () => {
    let total = 0;
    do {
      again = false;
      const current = await view();
      const rows = await db
        .select({ id: savedSearches.id, filters: savedSearches.filters, cityName: cities.name })
        .from(savedSearches)
        .leftJoin(cities, eq(cities.id, savedSearches.cityId));
      for (const row of rows) {
        const { filters, ...columns } = filterColumns(row.filters as SavedSearchFilters, current, row.cityName);
        await db.update(savedSearches).set(columns).where(eq(savedSearches.id, row.id));
        total++;
      }
    } while (again);
    return total;
  };
  refreshing = run().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
