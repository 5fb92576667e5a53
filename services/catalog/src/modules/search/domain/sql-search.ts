import { Cache, type Db } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';

/**
 * Up to this many matches (PostgreSQL's estimate), `total` is exact; past it, it is the planner's
 * estimate (docs: search): an exact count reads every match, which costs tens of milliseconds
 * at 100,000 listings where the page itself costs one. The estimate is never below what the pages
 * already shown prove, and a page that is not full gives the exact total.
 */
export const EXACT_COUNT_UP_TO = 200;
/**
 * Relevance over a broad word (more than EXACT_COUNT_UP_TO estimated matches) ranks the newest
 * RANKED_WINDOW matches rather than all of them: ranking 15,000 « mathématiques » costs 45 ms.
 * Deeper pages (past the window) rank every match.
 */
export const RANKED_WINDOW = 150;
/** A word typed stands for at most this many of the listings' words when a typo is forgiven. */
export const SIMILAR_WORDS_PER_WORD = 3;

/** What a page asks of an engine: its filters, its order, which page. */
export interface PageRequest {
  filter: queries.CatalogueFilter;
  sortBy: queries.CatalogueSort;
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** A page of ids with the number of all the matches. */
export interface IdPage {
  ids: number[];
  total: number;
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

/**
 * The catalogue in SQL, over the listings' published view: every request the in-memory index
 * does not answer (search words, the sort by title, a seller's own listings, deep pages by
 * popularity), and all of them while the index is loading or catching up. Totals are kept 15 s
 * (counting tens of thousands of rows on every page turn costs more than the page), until a
 * listing changes (`clear`, wired in search.ts).
 */
export function sqlSearch(db: Db) {
  const totals = new Cache<string, number>({ max: 2000, ttlMs: 15_000 });
  /**
   * The listings' words closest to a text's, until a listing changes (at most a minute): a text
   * searched again page after page (another filter, another page) would look each word up again.
   */
  const closeWords = new Cache<string, string[][]>({ max: 2000, ttlMs: 60_000 });

  /** What a total is kept under: every filter, not the page or the order. */
  const totalKey = (filter: queries.CatalogueFilter, match: queries.TextMatch) =>
    `${JSON.stringify(match)}:${JSON.stringify(filter)}`;

  /**
   * How a text is matched in this mode: as typed, or with each of its words replaced by the
   * listings' closest ones (any of them), all words required; null when a word has none (the
   * forgiving pass then finds nothing, as no title is like the text).
   */
  async function textMatch(text: string | undefined, mode: queries.TextMode): Promise<queries.TextMatch | null> {
    if (mode === 'fulltext' || !text) return { mode: 'fulltext' };
    const words = await closeWords.read(text, () => queries.similarWords(db, text, SIMILAR_WORDS_PER_WORD));
    if (!words.length || words.some((alternatives) => !alternatives.length)) return null;
    return { mode: 'typo', tsquery: words.map((alternatives) => `(${alternatives.join(' | ')})`).join(' & ') };
  }
  const count = (key: string, where: queries.Where) => totals.read(key, () => queries.countMatches(db, where));

  /**
   * A page without search words: its ids, and its total (exact when few match, a counted total
   * kept from an earlier page, or the planner's estimate).
   */
  async function browse(
    where: queries.Where,
    order: queries.OrderTerm[],
    request: PageRequest,
    key: string,
  ): Promise<IdPage> {
    const { perPage } = request;
    const offset = (request.page - 1) * perPage;
    const counted = totals.peek(key);
    const ids = await queries.pageIds(db, where, order, perPage, offset);
    if (offset === 0 && ids.length < perPage) return { ids, total: ids.length };
    if (counted !== undefined) return { ids, total: counted };
    const estimate = await queries.estimateMatches(db, where);
    if (estimate <= EXACT_COUNT_UP_TO) return { ids, total: await count(key, where) };
    return { ids, total: totalPast(estimate, offset, ids.length, perPage) };
  }

  /** A page of a text search: its ids, ranked, and its total. */
  async function search(
    where: queries.Where,
    order: queries.OrderTerm[],
    request: PageRequest,
    key: string,
  ): Promise<IdPage> {
    const { perPage } = request;
    const offset = (request.page - 1) * perPage;
    // A broad word's relevance is ranked over the newest matches only, while the page stays
    // within that window.
    const windowed = request.sortBy === 'relevance' && offset + perPage <= RANKED_WINDOW;
    let estimate: number | undefined;
    if (windowed) {
      // The window's page and its size in one statement. A window that is not full holds every
      // match: its page is the whole ranking's and its size the exact total.
      const page = await queries.windowPage(db, where, order, RANKED_WINDOW, perPage, offset);
      if (!page.ids.length && offset === 0) return { ids: [], total: 0 };
      if (page.matching < RANKED_WINDOW) return { ids: page.ids, total: page.matching };
      estimate = await queries.estimateMatches(db, where);
      if (estimate > EXACT_COUNT_UP_TO)
        return { ids: page.ids, total: totalPast(estimate, offset, page.ids.length, perPage) };
    }
    estimate ??= await queries.estimateMatches(db, where);
    if (estimate <= EXACT_COUNT_UP_TO) {
      // A text search reads and ranks every match anyway: count them in the same pass rather
      // than run the whole search a second time for the total.
      const page = await queries.pageIdsCounted(db, where, order, perPage, offset);
      const total = page.matching ?? (offset > 0 ? await count(key, where) : 0);
      return { ids: page.ids, total };
    }
    // Many matches: no count (the estimate stands for it).
    const ids = windowed
      ? await queries.windowIds(db, where, order, RANKED_WINDOW, perPage, offset)
      : await queries.pageIds(db, where, order, perPage, offset);
    return { ids, total: totalPast(estimate, offset, ids.length, perPage) };
  }

  /**
   * A relevance page of a text search within its window, among the listings the index found for
   * every other filter (`candidates`: the newest first, and how many there are in all): only the
   * words are left to PostgreSQL. Null when the candidates cannot say (fewer matches than a
   * window among only some of the candidates, a total small enough to count exactly, a page past
   * the window's matches): the SQL engine answers then.
   */
  async function rankedAmong(candidates: IdPage, request: PageRequest, mode: queries.TextMode): Promise<IdPage | null> {
    const { perPage } = request;
    const offset = (request.page - 1) * perPage;
    if (request.sortBy !== 'relevance' || offset + perPage > RANKED_WINDOW || !request.filter.text) return null;
    const match = await textMatch(request.filter.text, mode);
    if (!match) return { ids: [], total: 0 };
    if (!candidates.ids.length) return { ids: [], total: 0 };
    const page = await queries.windowAmong(db, candidates.ids, request.filter, match, RANKED_WINDOW, perPage, offset);
    if (!page.ids.length && offset > 0) return null;
    const everyCandidate = candidates.ids.length >= candidates.total;
    if (page.matching < RANKED_WINDOW) return everyCandidate ? { ids: page.ids, total: page.matching } : null;
    // A full window: its matches are to the candidates it read what all the matches are to all the
    // listings passing the other filters.
    const read = candidates.ids.filter((id) => id >= page.oldest!).length;
    const estimate = Math.round((candidates.total * page.matching) / Math.max(read, page.matching));
    if (estimate <= EXACT_COUNT_UP_TO) return null;
    return { ids: page.ids, total: totalPast(estimate, offset, page.ids.length, perPage) };
  }

  return {
    rankedAmong,
    /** Forgets what was kept of the listings: a listing has changed. */
    clear() {
      totals.clear();
      closeWords.clear();
    },
    /** A page of ids with its total, for this filter in this text mode. */
    async page(request: PageRequest, mode: queries.TextMode): Promise<IdPage> {
      const match = await textMatch(request.filter.text, mode);
      if (!match) return { ids: [], total: 0 };
      const where = queries.catalogueWhere(request.filter, match);
      const order = queries.catalogueOrder(request.sortBy, request.direction, request.filter.text, match);
      const key = totalKey(request.filter, match);
      return request.filter.text ? search(where, order, request, key) : browse(where, order, request, key);
    },
    /** Of these ids, those the filter matches (the boosted listings of a page's sponsored places). */
    async matching(ids: number[], filter: queries.CatalogueFilter, mode: queries.TextMode) {
      const match = await textMatch(filter.text, mode);
      return match ? queries.idsMatching(db, ids, queries.catalogueWhere(filter, match)) : [];
    },
  };
}
export type SqlSearch = ReturnType<typeof sqlSearch>;
