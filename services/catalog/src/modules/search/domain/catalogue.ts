import { type BookListQuery, type SearchInterpretation, SPONSORED_PER_PAGE_MAX } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import type { CategoryGraph, CategoryView } from '../../taxonomy/index.ts';
import type { CatalogueFilter, TextMode } from '../db/queries.ts';
import { selectionOf } from './listing-index.ts';
import type { ListingIndexFeed } from './listing-index-feed.ts';
import { didYouMean, planSearch, type UnderstoodFilter, understoodCategorySets } from './planner.ts';
import { type IdPage, type PageRequest, type SqlSearch, sqlSearch } from './sql-search.ts';

export const DEFAULT_PER_PAGE = 12;
/**
 * The newest listings passing a text search's other filters that the index hands to PostgreSQL to
 * match the words in (as deep as its heap goes): enough for a window of matches when one listing in
 * seven has the words; a rarer text is left to the text index.
 */
const CANDIDATES = 1000;

/**
 * The forgiving passes (trigram match, « Vouliez-vous dire … ») run for texts of at most this
 * many words. A typo is forgiven in a few words (« mathematqiues 6e »); over a long text they
 * cost ten times the exact search (each word looked up in the titles) and find nothing more, as
 * the whole text is compared with each title.
 */
export const FORGIVING_MAX_WORDS = 5;
const forgiving = (text: string | undefined) =>
  !!text && text.split(/\s+/).filter(Boolean).length <= FORGIVING_MAX_WORDS;

/** A catalogue page as search answers it: ids, the total, and what the text was understood as. */
export interface CataloguePage extends IdPage {
  perPage: number;
  /** The first page's boosted listings matching the same filters, at most SPONSORED_PER_PAGE_MAX. */
  sponsoredIds: number[];
  /** Only for a text search: the levels and subjects the text named, and a correction that finds something. */
  interpreted?: SearchInterpretation | null;
  didYouMean?: string | null;
}

/** The listings boosted now (monetisation's): a handful of ids. */
export type BoostedIds = () => Promise<number[]>;

/** Fair places for the boosted: a new order each time the page is built. */
const shuffle = <T>(items: T[]) => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

/** The request's filters as the engines read them, with the categories resolved in the graph. */
export function catalogueFilter(
  query: BookListQuery,
  graph: CategoryGraph,
  understood: UnderstoodFilter | null,
): CatalogueFilter {
  const wanted = [...(query.category_ids ?? []), ...(query.category_id ? [query.category_id] : [])];
  return {
    status: query.status,
    text: query.query,
    understoodSets: understoodCategorySets(understood, graph),
    categoryGroups: wanted.length ? graph.filterGroups(wanted) : undefined,
    minPrice: query.min_price,
    maxPrice: query.max_price,
    condition: query.condition,
    withoutFlags: query.without_flags,
    negotiable: query.is_negociable ?? query.is_negotiable,
    exchange: query.is_exchange_possible,
    cityId: query.city_id,
    userId: query.user_id,
    excludeId: query.exclude_id,
  };
}

function requestOf(query: BookListQuery, filter: CatalogueFilter, perPage: number): PageRequest {
  const sortBy = query.sort_by ?? (query.query ? 'relevance' : 'created_at');
  const direction = query.sort_direction ?? (query.sort_by === 'title' || query.sort_by === 'price' ? 'asc' : 'desc');
  return { filter, sortBy, direction, page: query.page, perPage };
}

/**
 * The catalogue's one interface: a page of listing ids with its total, for any request of GET
 * /books. Which engine answers is decided here, in `engine`, and nowhere else: the in-memory
 * listing index for a page without search words while it is up to date, SQL for the rest.
 */
export function catalogueSearch(options: { db: Db; feed?: ListingIndexFeed | undefined; boostedIds: BoostedIds }) {
  const { db, feed, boostedIds } = options;
  const sql: SqlSearch = sqlSearch(db);

  /** One engine's answer for this request and text mode. */
  async function engine(
    query: BookListQuery,
    view: CategoryView,
    understood: UnderstoodFilter | null,
    mode: TextMode,
    perPage: number,
  ): Promise<IdPage> {
    const request = requestOf(query, catalogueFilter(query, view.graph, understood), perPage);
    if (!query.query && feed) {
      // No words left to search: the index has the page's ids and the exact total, unless it is
      // catching up with a write (then SQL answers).
      const selection = selectionOf(query, view.graph, understood, perPage);
      const served = selection && feed.select(selection);
      if (served) return served;
    } else if (feed && request.sortBy === 'relevance') {
      // Words to search: the index finds the newest listings passing every other filter, and
      // PostgreSQL matches the words among them only.
      const others = {
        ...query,
        query: undefined,
        sort_by: 'created_at' as const,
        sort_direction: 'desc' as const,
        page: 1,
      };
      const selection = selectionOf(others, view.graph, understood, CANDIDATES);
      const candidates = selection && feed.select(selection);
      const served = candidates && (await sql.rankedAmong(candidates, request, mode));
      if (served) return served;
    }
    return sql.page(request, mode);
  }

  /** Full text first; nothing for those words: perhaps a typo (« mathematqiues »), the similar ones. */
  async function searchWords(
    query: BookListQuery,
    view: CategoryView,
    understood: UnderstoodFilter | null,
    perPage: number,
  ) {
    const result = await engine(query, view, understood, 'fulltext', perPage);
    return result.total === 0 && forgiving(query.query) ? engine(query, view, understood, 'typo', perPage) : result;
  }

  /** The first page's boosted listings matching the same filters (the text and its understood levels and subjects). */
  async function sponsored(query: BookListQuery, view: CategoryView): Promise<number[]> {
    const ids = await boostedIds();
    if (!ids.length) return [];
    const plan = planSearch(query, view);
    let found = await sql.matching(
      ids,
      plan ? catalogueFilter(plan.query, view.graph, plan.filter) : catalogueFilter(query, view.graph, null),
      'fulltext',
    );
    // The words matched nothing exactly: the forgiving match, as the page itself does.
    if (!found.length && forgiving(query.query))
      found = await sql.matching(ids, catalogueFilter(query, view.graph, null), 'typo');
    return shuffle(found).slice(0, SPONSORED_PER_PAGE_MAX);
  }

  return {
    /** Forgets what was kept of the listings (totals, close words): a listing has changed. */
    clear: () => sql.clear(),
    async page(query: BookListQuery, view: CategoryView): Promise<CataloguePage> {
      const perPage = query.limit ?? query.per_page ?? DEFAULT_PER_PAGE;
      // « maths 6e »: Mathématiques and 6e as filters; if they find nothing, the words as typed.
      const plan = planSearch(query, view);
      let result = plan ? await searchWords(plan.query, view, plan.filter, perPage) : null;
      const interpreted = plan?.interpreted ?? null;
      let applied = result && result.total > 0 ? interpreted : null;
      if (!result || result.total === 0) {
        const literal = await searchWords(query, view, null, perPage);
        if (!result || literal.total > 0) result = literal;
        else applied = interpreted;
      }
      let correction: string | null = null;
      if (query.query && result.total === 0 && query.page === 1 && forgiving(query.query)) {
        // Only a suggestion that finds something, with the same other filters.
        const suggestion = await didYouMean(db, view, query.query);
        if (suggestion) {
          const retry = { ...query, query: suggestion };
          const retryPlan = planSearch(retry, view);
          const found =
            (retryPlan && (await searchWords(retryPlan.query, view, retryPlan.filter, perPage)).total > 0) ||
            (await searchWords(retry, view, null, perPage)).total > 0;
          if (found) correction = suggestion;
        }
      }
      return {
        ids: result.ids,
        total: result.total,
        perPage,
        sponsoredIds: query.page === 1 ? await sponsored(query, view) : [],
        ...(query.query ? { interpreted: applied, didYouMean: correction } : {}),
      };
    },
  };
}
export type CatalogueSearch = ReturnType<typeof catalogueSearch>;
