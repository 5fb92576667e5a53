import type { BookListPage, BookListQuery, EventType } from '@cartable/contracts';
import { Cache, type Db, DomainError, databaseErrorCode, type UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import { LISTING_EVENTS, type Listings } from '../listings/index.ts';
import { MEMBER_STANDING_EVENTS } from '../members/index.ts';
import type { CategoryStore } from '../taxonomy/index.ts';
import { type BoostedIds, catalogueSearch } from './domain/catalogue.ts';
import { featuredListings } from './domain/featured.ts';
import type { ListingIndexFeed } from './domain/listing-index-feed.ts';
import { createMissRecorder } from './domain/misses.ts';
import { searchSuggestions } from './domain/suggestions.ts';

const SEARCH_TOO_SLOW =
  'La recherche a pris trop de temps. Essayez avec moins de mots ou de catégories, ou réessayez dans un instant.';

/** What changes a catalogue page: its listings, their sellers' standing, the boosts, the names it shows. */
export const CATALOGUE_DEPENDS_ON: readonly EventType[] = [
  ...LISTING_EVENTS,
  ...MEMBER_STANDING_EVENTS,
  'catalog.subscription.activated',
  'catalog.subscription.renewed',
  'catalog.subscription.extended',
  'catalog.subscription.expired',
  'catalog.subscription.cancelled',
  'catalog.subscription.refunded',
  'catalog.subscription.books_changed',
  'catalog.categories.changed',
  'catalog.cities.changed',
];
/** What changes the listing index's rows: the listings and their sellers' standing (the table's triggers notify it). */
const INDEX_CATCHES_UP_ON: readonly EventType[] = [...LISTING_EVENTS, ...MEMBER_STANDING_EVENTS];

/** The search module's services, built once per process (main.ts) and handed to its routes. */
export function createSearch(options: {
  uow: UnitOfWork;
  categories: CategoryStore;
  listings: Pick<Listings, 'cards'>;
  boostedIds: BoostedIds;
  /** The in-memory listing index (PostgreSQL only); absent: every page from SQL. */
  feed?: ListingIndexFeed | undefined;
  /** Where the catalogue's SQL searches run: a pool of their own with a short statement timeout (config SEARCH_*). */
  searchDb?: Db | undefined;
  log: Pick<Logger, 'warn'>;
}) {
  const { uow, categories, listings, feed, log } = options;
  const db = uow.db;
  const catalogue = catalogueSearch({ db: options.searchDb ?? db, feed, boostedIds: options.boostedIds });
  const suggestions = searchSuggestions(db, categories);
  const misses = createMissRecorder(db, log);
  /**
   * Whole listing pages, kept 10 s: the same searches come back all day (« maths 3e », a cycle
   * from the home page), and ranking ten thousand matches again for each visitor is waste.
   * Another replica's page may be up to 10 s old.
   */
  const pages = new Cache<string, BookListPage>({ max: 1000, ttlMs: 10_000 });
  uow.listen(CATALOGUE_DEPENDS_ON, () => {
    pages.clear();
    catalogue.clear();
    suggestions.cache.clear();
  });
  // After a write of this replica, the index answers again once it has read the change back,
  // so a member sees their own change on the next page they load.
  if (feed) uow.listen(INDEX_CATCHES_UP_ON, () => feed.catchUp());

  return {
    catalogue,
    suggestions,
    misses,
    featured: featuredListings({ db, feed, boostedIds: options.boostedIds }),
    /** GET /books: the same answer for everyone (a listing page holds nothing personal), kept by its key. */
    listingPage(key: string, query: BookListQuery): Promise<BookListPage> {
      return pages.read(key, async () => {
        const page = await catalogue.page(query, await categories.view()).catch((err: unknown) => {
          // Past the search pool's statement timeout: the request asked too much of the catalogue.
          if (databaseErrorCode(err) === '57014')
            throw new DomainError('unavailable', SEARCH_TOO_SLOW, undefined, { retry_after: 2 });
          throw err;
        });
        if (page.total === 0) {
          // For the Rapports screen; off the answer's path, and a failure costs only the figure.
          const { query: text, category_ids, category_id } = query;
          misses.record(text, category_ids ?? (category_id ? [category_id] : []));
        }
        const [data, sponsored] = await Promise.all([
          listings.cards.byIds(page.ids),
          listings.cards.byIds(page.sponsoredIds),
        ]);
        return {
          data,
          // The first page only, when there are some: boosted listings the page shows first (« Sponsorisé »).
          ...(sponsored.length ? { sponsored: sponsored.map((b) => ({ ...b, sponsored: true })) } : {}),
          total: page.total,
          per_page: page.perPage,
          current_page: query.page,
          last_page: Math.max(1, Math.ceil(page.total / page.perPage)),
          ...(query.query ? { interpreted: page.interpreted ?? null, did_you_mean: page.didYouMean ?? null } : {}),
        };
      });
    },
  };
}
export type Search = ReturnType<typeof createSearch>;
