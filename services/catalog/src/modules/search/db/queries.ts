import type { BookCondition, BookConditionFlag, BookStatus } from '@cartable/contracts';
import { type Db, rowsOf } from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { listingFacts as l, textQuery } from '../../listings/index.ts';
import { searchMisses, searchWords } from './schema.ts';

/**
 * Search reads the listings through listing_facts, the view the listings module publishes: it
 * names no table of theirs, and the planner reads the books table's indexes through the view.
 */

/** A term of ORDER BY. */
export type OrderTerm = SQL | AnyPgColumn;
/** A WHERE condition as the engines pass it along. */
export type Where = SQL | undefined;

/** The public catalogue's rule: neither hidden by the moderation nor of a seller deactivated or gone. */
export const shown = sql`${l.hiddenAt} is null and not ${l.sellerAway}`;

/** « Listed » is every status but vendu: the form the partial indexes are built on. */
export const listed = ne(l.status, 'vendu');

/** Listings in one of these category sets: one condition per set (any of its categories). */
export const inCategories = (ids: number[]) => sql`${l.categoryIds} && ${`{${ids.join(',')}}`}::integer[]`;

/**
 * How a text query matches: French full-text (stems, accents ignored) and the ISBN; when that
 * finds nothing, the same full text over the listings' words closest to each word typed
 * (sql-search.ts, `textMatch`), which forgives typos.
 */
export type TextMode = 'fulltext' | 'typo';

/**
 * A text as the engines match it: as typed, or forgiven (its words replaced by the listings'
 * closest ones, as a tsquery of words only: sql-search.ts, `textMatch`).
 */
export type TextMatch = { mode: 'fulltext' } | { mode: 'typo'; tsquery: string };
const asTyped: TextMatch = { mode: 'fulltext' };

/** The forgiven words' query: every word is letters and digits only, so it is read as words. */
const forgivenQuery = (tsquery: string) => sql`to_tsquery('french', ${tsquery})`;

export function textCondition(q: string, match: TextMatch = asTyped): SQL {
  if (match.mode === 'typo') return sql`${l.search} @@ ${forgivenQuery(match.tsquery)}`;
  const compactIsbn = q.replace(/[-\s]/g, '');
  const isbn = /^\d{9,13}[\dXx]?$/.test(compactIsbn)
    ? // the ISBNs of a lot's books are in its vector, digits only
      sql` or replace(${l.isbn}, '-', '') = ${compactIsbn} or ${l.search} @@ to_tsquery('simple', ${compactIsbn})`
    : sql``;
  return sql`(${l.search} @@ ${textQuery(q)}${isbn})`;
}

/** How relevant a listing is to a text, as it was matched. */
const relevance = (q: string, match: TextMatch) =>
  sql`ts_rank_cd(${l.search}, ${match.mode === 'typo' ? forgivenQuery(match.tsquery) : textQuery(q)})`;

/** Every filter of the catalogue (SPEC.md section 2), as the search module resolved them. */
export interface CatalogueFilter {
  /** A status asked for, else every listed one (all but sold). */
  status?: BookStatus | undefined;
  text?: string | undefined;
  /** Sets of categories read from the text (a level, a subject): the listing is in each set. */
  understoodSets: number[][];
  /**
   * The categories asked for, as OR-groups of AND-ed sets (taxonomy's filterGroups); undefined:
   * no category filter; empty: only unknown categories, nothing matches.
   */
  categoryGroups?: number[][][] | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  condition?: BookCondition | undefined;
  /** Leave out the listings with any of these flags. */
  withoutFlags?: BookConditionFlag[] | undefined;
  negotiable?: boolean | undefined;
  exchange?: boolean | undefined;
  cityId?: number | undefined;
  userId?: string | undefined;
  excludeId?: number | undefined;
}

export function catalogueConditions(filter: CatalogueFilter, match: TextMatch = asTyped): SQL[] {
  const conditions: SQL[] = [filter.status ? eq(l.status, filter.status) : listed, shown];
  conditions.push(...filter.understoodSets.map(inCategories));
  if (filter.categoryGroups) {
    const groups = filter.categoryGroups;
    conditions.push(
      groups.length
        ? sql`(${sql.join(
            groups.map((sets) => sql`(${sql.join(sets.map(inCategories), sql` and `)})`),
            sql` or `,
          )})`
        : sql`false`,
    );
  }
  if (filter.minPrice !== undefined) conditions.push(sql`${l.price} >= ${filter.minPrice}`);
  if (filter.maxPrice !== undefined) conditions.push(sql`${l.price} <= ${filter.maxPrice}`);
  if (filter.condition) conditions.push(eq(l.condition, filter.condition));
  if (filter.withoutFlags?.length) {
    conditions.push(sql`not (${l.conditionFlags} && ${sql.param(filter.withoutFlags, l.conditionFlags)})`);
  }
  if (filter.negotiable !== undefined) conditions.push(eq(l.isNegotiable, filter.negotiable));
  if (filter.exchange !== undefined) conditions.push(eq(l.isExchangePossible, filter.exchange));
  if (filter.cityId) conditions.push(eq(l.cityId, filter.cityId));
  if (filter.userId) conditions.push(eq(l.userId, filter.userId));
  if (filter.excludeId) conditions.push(sql`${l.id} <> ${filter.excludeId}`);
  // The text last: PostgreSQL tests a row's conditions in the order written (at equal cost), and
  // matching a listing's words costs more than comparing its categories or price, which leave
  // most rows out first when the matches are read along an index other than the text's.
  if (filter.text) conditions.push(textCondition(filter.text, match));
  return conditions;
}

/** Every condition of the filter, together. */
export const catalogueWhere = (filter: CatalogueFilter, match: TextMatch): Where =>
  and(...catalogueConditions(filter, match));

export type CatalogueSort = 'price' | 'title' | 'popularity' | 'relevance' | 'created_at';

export function catalogueOrder(
  sortBy: CatalogueSort,
  direction: 'asc' | 'desc',
  text: string | undefined,
  match: TextMatch,
): OrderTerm[] {
  const dir = (column: OrderTerm) => (direction === 'asc' ? asc(column) : desc(column));
  switch (sortBy) {
    case 'price':
      return [dir(l.price), dir(l.id)];
    case 'title':
      return [dir(sql`lower(${l.title})`), dir(l.id)];
    case 'popularity':
      return [dir(l.views), dir(l.id)];
    case 'relevance':
      if (text) return [desc(relevance(text, match)), desc(l.id)];
      return [desc(l.createdAt), desc(l.id)];
    default:
      return [dir(l.createdAt), dir(l.id)];
  }
}

/** Newest first: the order a broad text's window is read in. */
export const newestFirst = [desc(l.id)];

// ── a page of ids ────────────────────────────────────────────────────────────────────────────

/** The ids of a page in the given order. */
export const pageIdsQuery = (db: Db, where: Where, order: OrderTerm[], limit: number, offset: number) =>
  db
    .select({ id: l.id })
    .from(l)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);

export async function pageIds(db: Db, where: Where, order: OrderTerm[], limit: number, offset: number) {
  return (await pageIdsQuery(db, where, order, limit, offset)).map((r) => r.id);
}

/** A page's ids with the number of all matches, counted in the same pass (before LIMIT). */
export async function pageIdsCounted(db: Db, where: Where, order: OrderTerm[], limit: number, offset: number) {
  const rows = await db
    .select({ id: l.id, matching: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(l)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { ids: rows.map((r) => r.id), matching: rows[0]?.matching };
}

/**
 * A page ranked within a window of matches: the newest `window` matches (read backwards along the
 * primary key), ranked, and the window's size, in one statement (a CTE used twice is read once).
 */
export async function windowPage(
  db: Db,
  where: Where,
  order: OrderTerm[],
  window: number,
  limit: number,
  offset: number,
) {
  const matches = db.$with('window_matches').as(pageIdsQuery(db, where, [desc(l.id)], window, 0));
  const rows = await db
    .with(matches)
    .select({ id: l.id, matching: sql<number>`(select count(*) from ${matches})`.mapWith(Number) })
    .from(l)
    .where(sql`${l.id} in (select ${matches.id} from ${matches})`)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return { ids: rows.map((r) => r.id), matching: rows[0]?.matching ?? 0 };
}

/** The ids of a page ranked within the newest `window` matches, without their count. */
export async function windowIds(
  db: Db,
  where: Where,
  order: OrderTerm[],
  window: number,
  limit: number,
  offset: number,
) {
  return pageIds(db, sql`${l.id} in (${pageIdsQuery(db, where, [desc(l.id)], window, 0)})`, order, limit, offset);
}

/**
 * A text search's page ranked within its window, among listings already known to pass every other
 * filter (the listing index's candidates, newest first): the newest `window` of them whose words
 * match, ranked; with the window's size and its oldest id (how far into the candidates it
 * reached). Only the words are matched here, each candidate read by its id: reading the newest
 * rows backwards along the primary key, testing categories and price on each, cost PostgreSQL
 * about five times as many rows for a text as common as « collectif » in the Lycée.
 */
export async function windowAmong(
  db: Db,
  candidateIds: number[],
  filter: Pick<CatalogueFilter, 'status' | 'text'>,
  match: TextMatch,
  window: number,
  limit: number,
  offset: number,
) {
  const text = filter.text ?? '';
  const rows = await rowsOf<{ id: number; matching: number; oldest: number }>(
    db,
    sql`with window_matches as (
        select ${l.id} as id, ${l.search} as search from ${l}
        where ${l.id} = any(${`{${candidateIds.join(',')}}`}::integer[])
          and ${filter.status ? eq(l.status, filter.status) : listed} and ${shown}
          and ${textCondition(text, match)}
        order by ${l.id} desc limit ${window}
      )
      select id, (select count(*) from window_matches)::int as matching, (select min(id) from window_matches) as oldest
      from window_matches
      order by ts_rank_cd(search, ${match.mode === 'typo' ? forgivenQuery(match.tsquery) : textQuery(text)}) desc, id desc
      limit ${limit} offset ${offset}`,
  );
  return { ids: rows.map((r) => r.id), matching: rows[0]?.matching ?? 0, oldest: rows[0]?.oldest ?? null };
}

export async function countMatches(db: Db, where: SQL | undefined) {
  const [row] = await db.select({ total: sql<number>`count(*)::int` }).from(l).where(where);
  return row?.total ?? 0;
}

/**
 * The planner's estimate of how many listings match: an EXPLAIN of the condition with its values
 * bound as parameters (never written into the statement's text).
 */
export async function estimateMatches(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await rowsOf<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
    db,
    sql`explain (format json) select 1 from ${l} where ${where ?? sql`true`}`,
  );
  return Math.round(row?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
}

/** Of these ids, those matching `where`. */
export async function idsMatching(db: Db, ids: number[], where: Where) {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: l.id })
    .from(l)
    .where(and(inArray(l.id, ids), where));
  return rows.map((r) => r.id);
}

/** Of these ids, the listings available and shown. */
export const availableAmong = (db: Db, ids: number[]) => idsMatching(db, ids, and(eq(l.status, 'disponible'), shown));

/** The most viewed available listings that are shown (SQL, when the in-memory index cannot say). */
export async function mostViewedIds(
  db: Db,
  limit: number,
  filter: { excludeIds?: number[]; excludeUserId?: string | undefined; nearCityId?: number | undefined },
) {
  const rows = await db
    .select({ id: l.id })
    .from(l)
    .where(
      and(
        eq(l.status, 'disponible'),
        shown,
        filter.excludeIds?.length ? notInArray(l.id, filter.excludeIds) : undefined,
        filter.excludeUserId ? ne(l.userId, filter.excludeUserId) : undefined,
      ),
    )
    .orderBy(
      // A listing without a town is not near (a bare comparison would be null, first).
      ...(filter.nearCityId !== undefined ? [desc(sql`coalesce(${l.cityId} = ${filter.nearCityId}, false)`)] : []),
      desc(l.views),
      desc(l.id),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}

// ── forgiving a typo ─────────────────────────────────────────────────────────────────────────

/** How close a listing's word must be to a word typed to stand for it (pg_trgm similarity). */
export const SIMILAR_WORD = 0.4;

/**
 * For each word of a text (split and folded as the listings' words are: cartable_search_words),
 * the listings' words closest to it, at most `perWord`, the closest first (none: an empty list).
 * A look-up in the word list's trigram index, a few thousand rows, where comparing the text with
 * every title read tens of thousands.
 */
export async function similarWords(db: Db, text: string, perWord: number): Promise<string[][]> {
  const rows = await rowsOf<{ typed: string; word: string | null }>(
    db,
    sql`select t.typed, s.word
      from cartable_search_words(${text}, null) as t(typed)
      left join lateral (
        select ${searchWords.word} as word from ${searchWords}
        where ${searchWords.word} % t.typed and similarity(${searchWords.word}, t.typed) >= ${SIMILAR_WORD}
        order by similarity(${searchWords.word}, t.typed) desc, ${searchWords.word}
        limit ${perWord}
      ) s on true`,
  );
  const byTyped = new Map<string, string[]>();
  for (const row of rows) {
    const words = byTyped.get(row.typed) ?? [];
    if (row.word) words.push(row.word);
    byTyped.set(row.typed, words);
  }
  return [...byTyped.values()];
}

// ── « Vouliez-vous dire … » ──────────────────────────────────────────────────────────────────

const TITLE_WORD_THRESHOLD = 0.3;

/** The word of the titles on sale closest to `word` (pg_trgm, over the title's trigram index). */
export async function closestTitleWord(db: Db, word: string): Promise<{ word: string; score: number } | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local pg_trgm.word_similarity_threshold = ${sql.raw(String(TITLE_WORD_THRESHOLD))}`);
    const [row] = await rowsOf<{ word: string; score: number }>(
      tx,
      sql`
      select w as word, similarity(cartable_unaccent(w), ${word}) as score
      from (
        select distinct regexp_split_to_table(lower(title), '[[:space:][:punct:]–—’«»]+') as w
        from (
          select ${l.title} as title from ${l}
          where ${word} <% cartable_unaccent(lower(${l.title})) and ${l.status} <> 'vendu' and ${l.hiddenAt} is null
          limit 50
        ) candidates
      ) words
      where length(w) >= 3
      order by score desc, w
      limit 1`,
    );
    return row ? { word: row.word, score: Number(row.score) } : null;
  });
}

// ── suggestions ──────────────────────────────────────────────────────────────────────────────

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Titles of listings on sale in these category sets whose title holds each word (over the
 * title's trigram index), grouped over a sample of `sample` matches; those that begin like
 * `typed` first, then the commonest and most viewed.
 */
export async function titleSuggestions(
  db: Db,
  options: { categorySets: number[][]; words: string[]; typed: string; sample: number; limit: number },
) {
  const conditions: SQL[] = [
    listed,
    shown,
    ...options.categorySets.map(inCategories),
    ...options.words.map((w) => sql`cartable_unaccent(lower(${l.title})) like ${`%${likeEscape(w)}%`}`),
  ];
  return rowsOf<{ title: string }>(
    db,
    sql`
    select title, count(*)::int as n, max(views)::int as v,
      bool_or(cartable_unaccent(lower(title)) like ${`${likeEscape(options.typed)}%`}) as starts
    from (select ${l.title} as title, ${l.views} as views from ${l} where ${and(...conditions)} limit ${options.sample}) sample
    group by title
    order by starts desc, n desc, v desc, title
    limit ${options.limit}`,
  );
}

// ── what visitors did not find ───────────────────────────────────────────────────────────────

/** A day's searches in vain, by text and category: one row each, counted up (one statement for a batch). */
export async function recordMisses(
  db: Db,
  misses: Array<{ day: string; query: string; categoryId: number; searches: number }>,
) {
  if (!misses.length) return;
  await db
    .insert(searchMisses)
    .values(misses)
    .onConflictDoUpdate({
      target: [searchMisses.day, searchMisses.query, searchMisses.categoryId],
      set: { searches: sql`${searchMisses.searches} + excluded.searches`, lastSeen: sql`now()` },
    });
}

/** The texts most searched in vain over the window, with their category (0: none). */
export const topMisses = (db: Db, window: { from: string; to: string }, limit: number) =>
  db
    .select({
      query: searchMisses.query,
      categoryId: searchMisses.categoryId,
      searches: sql<number>`sum(${searchMisses.searches})::int`,
      lastSeen: sql<Date | string>`max(${searchMisses.lastSeen})`,
    })
    .from(searchMisses)
    .where(sql`${searchMisses.day} between ${window.from}::date and ${window.to}::date`)
    .groupBy(searchMisses.query, searchMisses.categoryId)
    .orderBy(desc(sql`sum(${searchMisses.searches})`), desc(sql`max(${searchMisses.lastSeen})`))
    .limit(limit);

/** Searches in vain over the window whose text (as a title key) is part of each title key. */
export async function missesMatchingTitles(db: Db, window: { from: string; to: string }, titleKeys: string[]) {
  if (!titleKeys.length) return new Map<string, number>();
  const rows = await rowsOf<{ key: string; searched: number }>(
    db,
    sql`select k.key, coalesce(sum(m.searches), 0)::int as searched
      from unnest(${sql.param(titleKeys)}::text[]) as k(key)
      left join ${searchMisses} m
        on m.day between ${window.from}::date and ${window.to}::date
        and char_length(cartable_title_key(m.query)) >= 4
        and k.key like '%' || cartable_title_key(m.query) || '%'
      group by k.key`,
  );
  return new Map(rows.map((r) => [r.key, r.searched]));
}
