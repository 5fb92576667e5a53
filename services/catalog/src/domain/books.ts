import {
  type Book,
  type BookDetail,
  type BookListPage,
  type BookListQuery,
  conditionLabels,
  type Seller,
  SPONSORED_PER_PAGE_MAX,
  statusLabel,
} from '@cartable/contracts';
import { type Db, rowsOf, type Storage } from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias, PgDialect } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import { bookImages, books, cities, memberBlocks, provinces, sellers } from '../db/schema.ts';
import type { CategoryView } from '../modules/taxonomy/domain/category-store.ts';
import { AnswerCache } from './answer-cache.ts';
import { selectionOf } from './listing-index.ts';
import type { ListingIndexFeed } from './listing-index-feed.ts';
import { lotsOf } from './lots.ts';
import { didYouMean, planSearch, type UnderstoodFilter, understoodConditions, webSearchQuery } from './search.ts';
import { liveBoostedBookIds, sellerBadgeSql } from './subscriptions.ts';

export const DEFAULT_PER_PAGE = 12;

const bookColumns = {
  id: books.id,
  userId: books.userId,
  title: books.title,
  author: books.author,
  isbn: books.isbn,
  description: books.description,
  publisher: books.publisher,
  publicationYear: books.publicationYear,
  condition: books.condition,
  price: books.price,
  status: books.status,
  cityId: books.cityId,
  isNegotiable: books.isNegotiable,
  isExchangePossible: books.isExchangePossible,
  views: books.views,
  categoryIds: books.categoryIds,
  createdAt: books.createdAt,
  updatedAt: books.updatedAt,
  hiddenAt: books.hiddenAt,
  hiddenReason: books.hiddenReason,
  isLot: sql<boolean>`${books.lotTitles} is not null`,
  cityName: cities.name,
  province: provinces.name,
  // The photos, in slot order, read in the same pass: a page of listings or a book page made a
  // second round trip for them. PostgreSQL runs this subquery only for the rows it returns (past
  // the sort and the LIMIT: an expensive output column is computed last).
  images: sql<PhotoKeys[]>`coalesce((select json_agg(json_build_object('slot', ${bookImages.slot},
    'displayKey', ${bookImages.displayKey}, 'thumbnailKey', ${bookImages.thumbnailKey}) order by ${bookImages.slot})
    from ${bookImages} where ${bookImages.bookId} = ${books.id}), '[]'::json)`,
};

interface PhotoKeys {
  slot: number;
  displayKey: string;
  thumbnailKey: string;
}

const fromBooks = (db: Db) =>
  db
    .select(bookColumns)
    .from(books)
    .leftJoin(cities, eq(cities.id, books.cityId))
    .leftJoin(provinces, eq(provinces.id, cities.provinceId));
export type BookRow = Awaited<ReturnType<ReturnType<typeof fromBooks>['execute']>>[number];

/** The same, with the number of matching rows computed in the same pass (before LIMIT). */
const fromBooksCounted = (db: Db) =>
  db
    .select({ ...bookColumns, matching: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(books)
    .leftJoin(cities, eq(cities.id, books.cityId))
    .leftJoin(provinces, eq(provinces.id, cities.provinceId));

/**
 * A page ranked within a window of matches (`windowIds`: a query of their ids), with the window's
 * size and the planner's estimate of all the matches of a condition (inlinedCondition), both
 * computed once for the statement. The window is read once (a CTE used twice is materialized),
 * and the photos only for the page's rows.
 */
const fromWindowEstimated = (db: Db, windowIds: ReturnType<typeof pageIdsQuery>, condition: string) => {
  const matches = db.$with('window_matches').as(windowIds);
  return db
    .with(matches)
    .select({
      ...bookColumns,
      matching: sql<number>`(select count(*) from ${matches})`.mapWith(Number),
      estimate: sql<number>`(select cartable_listing_estimate(${condition}))`.mapWith(Number),
    })
    .from(books)
    .leftJoin(cities, eq(cities.id, books.cityId))
    .leftJoin(provinces, eq(provinces.id, cities.provinceId))
    .where(sql`${books.id} in (select ${matches.id} from ${matches})`);
};

/** The text a visitor typed, made comparable: lower case, no accents (as the indexes are). */
const plain = (q: string) => sql`cartable_unaccent(lower(${q}))`;

/**
 * How a text query matches: French full-text (stems, accents ignored) and the ISBN; when that
 * finds nothing, trigram word similarity on title and author, which forgives typos.
 */
export type TextMode = 'fulltext' | 'typo';

function textCondition(q: string, mode: TextMode): SQL {
  if (mode === 'typo') {
    return sql`(${plain(q)} <% cartable_unaccent(lower(${books.title})) or ${plain(q)} <% cartable_unaccent(lower(${books.author})))`;
  }
  const compactIsbn = q.replace(/[-\s]/g, '');
  const isbn = /^\d{9,13}[\dXx]?$/.test(compactIsbn)
    ? // the ISBNs of a lot's books are in its vector, digits only
      sql` or replace(${books.isbn}, '-', '') = ${compactIsbn} or ${books.search} @@ to_tsquery('simple', ${compactIsbn})`
    : sql``;
  return sql`(${books.search} @@ ${webSearchQuery(q)}${isbn})`;
}

/**
 * The seller was not deactivated by an administrator (sellers.deactivated_at, from auth's
 * events): the books of a deactivated member are out of the public catalogue until reactivation.
 * A deleted account's listings leave it for good (sellers.deleted_at, from auth.user.deleted).
 * Read from books.seller_away, which the database keeps from the sellers' rows (migration 0021).
 */
export const sellerActive = sql`not ${books.sellerAway}`;

/** Whether this member is deactivated or gone (their books are shown only to them and to moderators). */
export async function isSellerDeactivated(db: Db, userId: string) {
  const [row] = await db
    .select({ at: sellers.deactivatedAt, deletedAt: sellers.deletedAt })
    .from(sellers)
    .where(eq(sellers.userId, userId));
  return Boolean(row?.at ?? row?.deletedAt);
}

/** Every filter of the catalogue (SPEC.md section 2) as SQL conditions. */
export function listConditions(
  query: BookListQuery,
  view: CategoryView,
  mode: TextMode = 'fulltext',
  understood: UnderstoodFilter | null = null,
): SQL[] {
  // "Listed" is every status but vendu: the form the partial indexes are built on.
  const conditions: SQL[] = [query.status ? eq(books.status, query.status) : ne(books.status, 'vendu')];
  // A listing hidden by the moderation is out of the public catalogue.
  conditions.push(isNull(books.hiddenAt));
  conditions.push(sellerActive);
  if (query.query) conditions.push(textCondition(query.query, mode));
  // Levels and subjects read in the search text (« maths 6e »).
  conditions.push(...understoodConditions(understood, view.graph));
  const wanted = [...(query.category_ids ?? []), ...(query.category_id ? [query.category_id] : [])];
  if (wanted.length) {
    const groups = view.graph.filterGroups(wanted);
    const overlaps = (ids: number[]) => sql`${books.categoryIds} && ${`{${ids.join(',')}}`}::integer[]`;
    conditions.push(
      groups.length
        ? sql`(${sql.join(
            groups.map((sets) => sql`(${sql.join(sets.map(overlaps), sql` and `)})`),
            sql` or `,
          )})`
        : sql`false`,
    );
  }
  if (query.min_price !== undefined) conditions.push(sql`${books.price} >= ${query.min_price}`);
  if (query.max_price !== undefined) conditions.push(sql`${books.price} <= ${query.max_price}`);
  if (query.condition) conditions.push(eq(books.condition, query.condition));
  const negotiable = query.is_negociable ?? query.is_negotiable;
  if (negotiable !== undefined) conditions.push(eq(books.isNegotiable, negotiable));
  if (query.is_exchange_possible !== undefined)
    conditions.push(eq(books.isExchangePossible, query.is_exchange_possible));
  if (query.city_id) conditions.push(eq(books.cityId, query.city_id));
  if (query.user_id) conditions.push(eq(books.userId, query.user_id));
  if (query.exclude_id) conditions.push(sql`${books.id} <> ${query.exclude_id}`);
  return conditions;
}

function ordering(query: BookListQuery, mode: TextMode): SQL[] {
  const direction = query.sort_direction ?? (query.sort_by === 'title' || query.sort_by === 'price' ? 'asc' : 'desc');
  const dir = (column: SQL | AnyPgColumn) => (direction === 'asc' ? asc(column) : desc(column));
  const sortBy = query.sort_by ?? (query.query ? 'relevance' : 'created_at');
  switch (sortBy) {
    case 'price':
      return [dir(books.price), dir(books.id)];
    case 'title':
      return [dir(sql`lower(${books.title})`), dir(books.id)];
    case 'popularity':
      return [dir(books.views), dir(books.id)];
    case 'relevance':
      if (query.query) {
        const rank =
          mode === 'typo'
            ? sql`word_similarity(${plain(query.query)}, cartable_unaccent(lower(${books.title})))`
            : sql`ts_rank_cd(${books.search}, ${webSearchQuery(query.query)})`;
        return [desc(rank), desc(books.id)];
      }
      return [desc(books.createdAt), desc(books.id)];
    default:
      return [dir(books.createdAt), dir(books.id)];
  }
}

/**
 * Totals for pagination, kept 15 s: counting tens of thousands of rows on every page turn costs
 * more than the page itself, and a total a few seconds old misleads nobody. Writes clear it.
 */
const totals = new LRUCache<string, number>({ max: 2000, ttl: 15_000 });

/**
 * Whole listing pages, kept 10 s: the same searches come back all day (« maths 3e », a cycle
 * from the home page), and ranking ten thousand matches again for each visitor is waste. A book
 * written here clears the caches; another replica's page may be up to 10 s old.
 */
export const listingPages = new AnswerCache<string, BookListPage>({ max: 1000, ttlMs: 10_000 });

/**
 * A visitor's book page (no token: nothing in it depends on who reads it), kept 10 s as the
 * listing pages: a listing's link goes round a class's WhatsApp group, and its visitors come
 * within the same minutes. Members always read the row (their seller block, their own listing).
 */
export const visitorBookPages = new AnswerCache<number, { userId: string; book: BookDetail }>({
  max: 2000,
  ttlMs: 10_000,
});

const listingWriteHooks = new Set<() => void>();
/** What else must hear of this replica's committed listing writes (the listing index's catchUp). */
export function onListingsWritten(hook: () => void) {
  listingWriteHooks.add(hook);
  return () => listingWriteHooks.delete(hook);
}

/** Called once a write that changes listings is committed. */
export const forgetListings = () => {
  totals.clear();
  listingPages.clear();
  visitorBookPages.clear();
  boostedIds = null;
  for (const hook of listingWriteHooks) hook();
};

/**
 * The listings boosted now: a handful of ids, read once per few seconds (a boost starting or
 * ending clears it with the pages), so sponsored places cost one indexed filter on the page.
 */
let boostedIds: { ids: number[]; at: number } | null = null;
export async function boostedBookIds(db: Db): Promise<number[]> {
  if (boostedIds && Date.now() - boostedIds.at < 10_000) return boostedIds.ids;
  const ids = await liveBoostedBookIds(db);
  boostedIds = { ids, at: Date.now() };
  return ids;
}

/** Fair places for the boosted: a new order each time the page is built. */
const shuffle = <T>(items: T[]) => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/**
 * The first page's sponsored listings: boosted ones matching the same filters (the text, its
 * understood levels and subjects, the explicit filters), at most SPONSORED_PER_PAGE_MAX.
 */
export async function sponsoredBooks(
  db: Db,
  storage: Storage,
  view: CategoryView,
  query: BookListQuery,
): Promise<Book[]> {
  const ids = await boostedBookIds(db);
  if (!ids.length) return [];
  const plan = planSearch(query, view);
  const conditions = plan
    ? listConditions(plan.query, view, 'fulltext', plan.filter)
    : listConditions(query, view, 'fulltext');
  let rows = await fromBooks(db).where(and(inArray(books.id, ids), ...conditions));
  if (!rows.length && query.query) {
    // The words matched nothing exactly: the forgiving match, as the page itself does.
    rows = await fromBooks(db).where(and(inArray(books.id, ids), ...listConditions(query, view, 'typo')));
  }
  const picked = shuffle(rows).slice(0, SPONSORED_PER_PAGE_MAX);
  return (await toBookDtos(db, storage, view, picked)).map((b) => ({ ...b, sponsored: true }));
}

/**
 * Up to this many matches (PostgreSQL's estimate), `total` is exact; past it, it is the planner's
 * estimate (README « Catalogue »): an exact count reads every match, which costs tens of
 * milliseconds at 100,000 books where the page itself costs one. The estimate is never below
 * what the pages already shown prove, and a page that is not full gives the exact total.
 */
export const EXACT_COUNT_UP_TO = 200;
/**
 * Relevance over a broad word (more than EXACT_COUNT_UP_TO estimated matches) ranks the newest
 * RANKED_WINDOW matches (by id: the newest, read backwards along the primary key, which follows
 * the table's order) rather than all of them: ranking 15,000 « mathématiques » costs 45 ms.
 * Deeper pages (past the window) rank every match.
 */
export const RANKED_WINDOW = 150;

async function estimateRows(db: Db, where: SQL | undefined): Promise<number> {
  const result = await db.execute(sql`explain (format json) select 1 from ${books} where ${where}`);
  const [row] = (result as unknown as { rows: Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }> }).rows;
  return Math.round(row?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
}

/** What a total is kept under: every filter, not the page or the order. */
function totalKey(query: BookListQuery, mode: TextMode, understood: UnderstoodFilter | null) {
  const {
    page: _page,
    per_page: _perPage,
    limit: _limit,
    sort_by: _sortBy,
    sort_direction: _direction,
    ...filters
  } = query;
  return `${mode}:${JSON.stringify(filters)}:${JSON.stringify(understood)}`;
}

async function countBooks(db: Db, key: string, where: SQL | undefined) {
  const cached = totals.get(key);
  if (cached !== undefined) return cached;
  const [{ total } = { total: 0 }] = await db.select({ total: sql<number>`count(*)::int` }).from(books).where(where);
  totals.set(key, total);
  return total;
}

/**
 * The ids of a page of listings without a text search. Sorted by date or price, they come from an
 * index-only scan of a covering index (migration 0019): the filters are checked on the index
 * entries, not on every row skipped.
 */
const pageIdsQuery = (db: Db, where: SQL | undefined, order: SQL[], limit: number, offset: number) =>
  db
    .select({ id: books.id })
    .from(books)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset);

async function pageIds(db: Db, where: SQL | undefined, order: SQL[], limit: number, offset: number) {
  return (await pageIdsQuery(db, where, order, limit, offset)).map((r) => r.id);
}

const dialect = new PgDialect();

/**
 * A listing condition as text for cartable_listing_estimate (migration 0022), its values inlined
 * by drizzle-orm, which quotes them (a search's words too: a quote in them is doubled, and texts
 * hold no control characters, services/catalog/test/books.test.ts tries hostile ones); null for
 * one holding a semicolon, which the function refuses (such a search estimates the separate way:
 * an EXPLAIN with bound values).
 */
function inlinedCondition(where: SQL | undefined): string | null {
  const condition = dialect.sqlToQuery(sql`${where ?? sql`true`}`.inlineParams());
  return condition.params.length || condition.sql.includes(';') ? null : condition.sql;
}

/**
 * The page's ids and the planner's estimate of all the matches, in one statement rather than an
 * EXPLAIN beside the page (inlinedCondition); the two side by side when the condition cannot be
 * inlined.
 */
async function pageIdsAndEstimate(db: Db, where: SQL | undefined, order: SQL[], limit: number, offset: number) {
  const condition = inlinedCondition(where);
  if (condition === null) {
    const [ids, estimate] = await Promise.all([pageIds(db, where, order, limit, offset), estimateRows(db, where)]);
    return { ids, estimate };
  }
  const [row] = await rowsOf<{ ids: number[]; estimate: number }>(
    db,
    sql`select array(${pageIdsQuery(db, where, order, limit, offset)}) as ids,
      cartable_listing_estimate(${condition}) as estimate`,
  );
  return { ids: row?.ids ?? [], estimate: Math.round(row?.estimate ?? 0) };
}

/**
 * A page without a text search and its total, in two round trips whatever the case: the page's
 * ids and the planner's estimate in one statement, then the rows and, when few matches are
 * expected, the exact count together. Under load each round trip waits for a process to be
 * scheduled and costs both sides a socket write and a wake-up: the estimate's own EXPLAIN,
 * beside the ids, cost (c) a tenth of its rate. A first page that is not full is its own total,
 * and a total counted for an earlier page is used as it is.
 */
async function browse(
  db: Db,
  rowsOf: (ids: number[]) => Promise<BookRow[]>,
  query: BookListQuery,
  where: SQL | undefined,
  order: SQL[],
  perPage: number,
  key: string,
) {
  const offset = (query.page - 1) * perPage;
  const counted = totals.get(key);
  const { ids, estimate } =
    counted === undefined
      ? await pageIdsAndEstimate(db, where, order, perPage, offset)
      : { ids: await pageIds(db, where, order, perPage, offset), estimate: counted };
  const rows = rowsOf(ids);
  if (offset === 0 && ids.length < perPage) {
    const page = await rows;
    return { rows: page, total: page.length };
  }
  if (counted !== undefined) return { rows: await rows, total: counted };
  if (estimate <= EXACT_COUNT_UP_TO) {
    const [page, total] = await Promise.all([rows, countBooks(db, key, where)]);
    return { rows: page, total };
  }
  const page = await rows;
  return { rows: page, total: totalPast(estimate, offset, page.length, perPage) };
}

/**
 * The total shown when there are too many matches to count: the planner's estimate, never below
 * what the pages already shown prove; a last page (not full) gives the exact figure.
 */
function totalPast(estimate: number, offset: number, onPage: number, perPage: number) {
  const seen = offset + onPage;
  const lastPage = onPage < perPage && (onPage > 0 || offset === 0);
  return lastPage ? seen : Math.max(estimate, onPage === perPage ? seen + 1 : seen);
}

export async function listBooks(
  db: Db,
  storage: Storage,
  view: CategoryView,
  query: BookListQuery,
  listings?: Pick<ListingIndexFeed, 'select' | 'rows'>,
): Promise<BookListPage> {
  const perPage = query.limit ?? query.per_page ?? DEFAULT_PER_PAGE;
  const rowsOf = (ids: number[]) => pageRows(db, ids, listings);
  const run = async (query: BookListQuery, understood: UnderstoodFilter | null, mode: TextMode) => {
    if (!query.query && listings) {
      // No words left to search: the in-memory index has the page's ids and the exact total,
      // unless it is catching up with a write (then SQL answers).
      const selection = selectionOf(query, view.graph, understood, perPage);
      const served = selection && listings.select(selection);
      if (served) return { rows: await rowsOf(served.ids), total: served.total };
    }
    const where = and(...listConditions(query, view, mode, understood));
    const order = ordering(query, mode);
    if (!query.query) return browse(db, rowsOf, query, where, order, perPage, totalKey(query, mode, understood));
    const offset = (query.page - 1) * perPage;
    // A broad word's relevance is ranked over the newest matches only, while the page stays
    // within that window.
    const windowed = (query.sort_by ?? 'relevance') === 'relevance' && offset + perPage <= RANKED_WINDOW;
    const windowIds = pageIdsQuery(db, where, [desc(books.id)], RANKED_WINDOW, 0);
    let estimate: number | undefined;
    const condition = windowed ? inlinedCondition(where) : null;
    if (condition !== null) {
      // The window's page, the window's size and the estimate in one statement. A window that is
      // not full holds every match: its page is the whole ranking's and its size the exact total.
      // A full one with a broad estimate is the answer too. One round trip either way, where
      // the estimate's EXPLAIN came first before.
      const rows = await fromWindowEstimated(db, windowIds, condition)
        .orderBy(...order)
        .limit(perPage)
        .offset(offset);
      if (!rows.length && offset === 0) return { rows, total: 0 };
      const [first] = rows;
      if (first && first.matching < RANKED_WINDOW) return { rows, total: first.matching };
      estimate = first?.estimate;
      if (estimate !== undefined && estimate > EXACT_COUNT_UP_TO)
        return { rows, total: totalPast(estimate, offset, rows.length, perPage) };
    }
    estimate ??= await estimateRows(db, where);
    if (estimate <= EXACT_COUNT_UP_TO) {
      // A text search reads and ranks every match anyway: count them in the same pass rather
      // than run the whole search a second time for the total.
      const rows = await fromBooksCounted(db)
        .where(where)
        .orderBy(...order)
        .limit(perPage)
        .offset(offset);
      const total =
        rows[0]?.matching ?? (offset > 0 ? await countBooks(db, totalKey(query, mode, understood), where) : 0);
      return { rows, total };
    }
    // Many matches: no count (the estimate stands for it).
    const rows = await fromBooks(db)
      .where(windowed ? sql`${books.id} in (${windowIds})` : where)
      .orderBy(...order)
      .limit(perPage)
      .offset(offset);
    return { rows, total: totalPast(estimate, offset, rows.length, perPage) };
  };
  const search = async (query: BookListQuery, understood: UnderstoodFilter | null) => {
    const result = await run(query, understood, 'fulltext');
    // Nothing for those words: perhaps a typo (« mathematqiues »); try the similar ones.
    return query.query && result.total === 0 ? run(query, understood, 'typo') : result;
  };
  // « maths 6e »: Mathématiques and 6e as filters; if they find nothing, the words as typed.
  const plan = planSearch(query, view);
  let result = plan ? await search(plan.query, plan.filter) : null;
  const interpreted = plan?.interpreted ?? null;
  let applied = result && result.total > 0 ? interpreted : null;
  if (!result || result.total === 0) {
    const literal = await search(query, null);
    if (!result || literal.total > 0) result = literal;
    else applied = interpreted;
  }
  let did_you_mean: string | null = null;
  if (query.query && result.total === 0 && query.page === 1) {
    // Only a suggestion that finds something, with the same other filters.
    const suggestion = await didYouMean(db, view, query.query);
    if (suggestion) {
      const retry = { ...query, query: suggestion };
      const retryPlan = planSearch(retry, view);
      const found =
        (retryPlan && (await search(retryPlan.query, retryPlan.filter)).total > 0) ||
        (await search(retry, null)).total > 0;
      if (found) did_you_mean = suggestion;
    }
  }
  const sponsored = query.page === 1 ? await sponsoredBooks(db, storage, view, query) : [];
  return {
    data: await toBookDtos(db, storage, view, result.rows),
    // The first page only, when there are some: boosted listings the page shows first (« Sponsorisé »).
    ...(sponsored.length ? { sponsored } : {}),
    total: result.total,
    per_page: perPage,
    current_page: query.page,
    last_page: Math.max(1, Math.ceil(result.total / perPage)),
    // What the text meant, only for a text search.
    ...(query.query ? { interpreted: applied, did_you_mean } : {}),
  };
}

/**
 * The reads of every book page and listing page as named prepared statements, one set per
 * database: drizzle builds their SQL once and PostgreSQL parses and plans them once per connection
 * (building and planning were most of a book page's cost in catalog's CPU profile).
 */
const sellerCities = alias(cities, 'seller_cities');
const sellerProvinces = alias(provinces, 'seller_provinces');
const bookPageStatements = new WeakMap<Db, ReturnType<typeof prepareBookPage>>();
function prepareBookPage(db: Db) {
  const id = sql.placeholder('id');
  return {
    // The book page: the book, its photos, its seller (with their town, badge and whether they
    // blocked the viewer, null for a visitor) in one trip.
    page: db
      .select({
        ...bookColumns,
        seller: sellers,
        sellerCity: sellerCities.name,
        sellerProvince: sellerProvinces.name,
        badge: sellerBadgeSql(sellers.userId),
        blockedViewer: sql<boolean>`exists (select 1 from ${memberBlocks} where ${memberBlocks.blockerId} = ${sellers.userId}
          and ${memberBlocks.blockedId} = ${sql.placeholder('viewer')}::uuid and ${memberBlocks.blocked})`,
      })
      .from(books)
      .leftJoin(cities, eq(cities.id, books.cityId))
      .leftJoin(provinces, eq(provinces.id, cities.provinceId))
      .leftJoin(sellers, eq(sellers.userId, books.userId))
      .leftJoin(sellerCities, eq(sellerCities.id, sellers.cityId))
      .leftJoin(sellerProvinces, eq(sellerProvinces.id, sellerCities.provinceId))
      .where(eq(books.id, id))
      .prepare('catalog_book_page'),
    // Pages of listings by id: one plan per connection whatever the number of ids.
    books: fromBooks(db)
      .where(sql`${books.id} = any(${sql.placeholder('ids')}::int[])`)
      .prepare('catalog_books_by_ids'),
  };
}
function bookPage(db: Db) {
  let statements = bookPageStatements.get(db);
  if (!statements) {
    statements = prepareBookPage(db);
    bookPageStatements.set(db, statements);
  }
  return statements;
}

/**
 * A book page's reads in one prepared statement: the book's row (photos included), and its seller
 * block for this viewer (none for a visitor), with whether the seller is out of the catalogue
 * (deactivated or deleted). Undefined when there is no such book.
 */
export async function findBookPage(db: Db, id: number, viewer?: string) {
  const [row] = await bookPage(db).page.execute({ id, viewer: viewer ?? null });
  if (!row) return undefined;
  const { seller, sellerCity, sellerProvince, badge, blockedViewer, ...book } = row;
  return { book, ...sellerBlock(seller, { city: sellerCity, province: sellerProvince, badge, blockedViewer }) };
}

/**
 * Books by id, in the order of the ids (one that no longer exists is left out), from a prepared
 * statement. One statement joining a page's ids and its rows was slower (1.5 against 1.15 ms for
 * (c), measured): drizzle builds its SQL and PostgreSQL plans its joins at every request, where
 * this one is planned once per connection.
 */
export async function findBookRows(db: Db, ids: number[]) {
  if (!ids.length) return [];
  const byId = new Map((await bookPage(db).books.execute({ ids })).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
}

/** A page's rows by id: from the listing index feed's memory when it has them, else from SQL. */
export function pageRows(db: Db, ids: number[], listings?: Pick<ListingIndexFeed, 'rows'>) {
  return listings ? listings.rows(ids, (missing) => findBookRows(db, missing)) : findBookRows(db, ids);
}

/**
 * The API's Book (services/catalog/API.md) for a page of rows: photos come with the rows, names
 * from the cached graph; a query only for the books of lots.
 */
export async function toBookDtos(db: Db, storage: Storage, view: CategoryView, rows: BookRow[]): Promise<Book[]> {
  const lots = await lotsOf(
    db,
    view,
    rows.filter((r) => r.isLot).map((r) => r.id),
  );
  return rows.map((r) => {
    const kept = r.isLot ? undefined : booksOfRows.get(r);
    if (kept?.view === view && kept.storage === storage) {
      // The one field that changes without a new row (ListingCards.setViews).
      kept.book.views = r.views;
      return kept.book;
    }
    const book = toBookDto(r, storage, view, lots);
    if (!r.isLot) booksOfRows.set(r, { view, storage, book });
    return book;
  });
}

/**
 * The Book of each row kept in memory (ListingCards), built once per category view: the same rows
 * come back page after page, and building their Books was a tenth of a listing page's CPU.
 * Lots are built each time (their books are read apart).
 */
const booksOfRows = new WeakMap<BookRow, { view: CategoryView; storage: Storage; book: Book }>();

function toBookDto(r: BookRow, storage: Storage, view: CategoryView, lots: Map<number, Book['lot']>): Book {
  const bookCats = r.categoryIds
    .filter((id) => view.graph.has(id))
    .map((id) => ({ id, name: view.graph.nodes.get(id)!.name }));
  const bookImgs = r.images.map((i) => ({
    slot: i.slot,
    url: storage.url(i.displayKey),
    thumbnail_url: storage.url(i.thumbnailKey),
  }));
  const slot = (n: number) => bookImgs.find((i) => i.slot === n)?.url ?? null;
  return {
    id: r.id,
    title: r.title,
    author: r.author,
    isbn: r.isbn,
    description: r.description,
    publisher: r.publisher,
    publication_year: r.publicationYear,
    condition: r.condition,
    condition_label: conditionLabels[r.condition],
    price: r.price,
    status: r.status,
    status_label: statusLabel(r.status),
    is_negociable: r.isNegotiable,
    is_negotiable: r.isNegotiable,
    is_exchange_possible: r.isExchangePossible,
    city: r.cityId && r.cityName ? { id: r.cityId, name: r.cityName, province: r.province } : null,
    city_id: r.cityId,
    category: bookCats[0] ?? null,
    categories: bookCats,
    category_ids: bookCats.map((c) => c.id),
    image1: slot(1),
    image2: slot(2),
    image3: slot(3),
    thumbnail: bookImgs[0]?.thumbnail_url ?? null,
    images: bookImgs,
    user_id: r.userId,
    views: r.views,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    hidden: r.hiddenAt !== null,
    hidden_at: r.hiddenAt?.toISOString() ?? null,
    hidden_reason: r.hiddenAt ? r.hiddenReason : null,
    lot: lots.get(r.id) ?? null,
  };
}
export type BookDto = Book;

/**
 * The seller block of the book page, from the projection of auth's events (no call to auth); a
 * viewer the seller blocked (messaging's blocks, projected) does not get their phone and e-mail.
 */
function sellerBlock(
  s: typeof sellers.$inferSelect | null,
  extra: { city: string | null; province: string | null; badge: string | null; blockedViewer: boolean },
): { seller: Seller | null; inactive: boolean } {
  if (!s) return { seller: null, inactive: false };
  const hidden = extra.blockedViewer;
  return {
    inactive: Boolean(s.deactivatedAt ?? s.deletedAt),
    seller: {
      id: s.userId,
      name: s.name,
      username: s.username,
      profile_image: s.profileImage,
      city: extra.city,
      province: extra.province,
      created_at: s.createdAt.toISOString(),
      show_email: !hidden && s.email !== null,
      email: hidden ? null : s.email,
      show_phone: !hidden && s.phone !== null,
      phone: hidden ? null : s.phone,
      rating: { average: s.ratingAverage, count: s.ratingCount },
      badge: extra.badge,
    },
  };
}
