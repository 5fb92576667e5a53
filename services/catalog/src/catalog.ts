import type { Db, Guards, Redis, Storage, UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import type { CatalogConfig } from './config.ts';
import { classListIsbnBooks, classListLots, createClassLists } from './modules/class-lists/index.ts';
import { createExchanges, sellersWishingItems } from './modules/exchanges/index.ts';
import {
  countShownWithin,
  countWithCategory,
  createListings,
  countInTowns as listingsInTowns,
} from './modules/listings/index.ts';
import { countInTowns as membersInTowns } from './modules/members/index.ts';
import {
  createMonetisation,
  createPaymentProviders,
  type PaymentProviders,
  type SubscriptionJobs,
  sellerBadgeSql,
} from './modules/monetisation/index.ts';
import { createSavedSearches } from './modules/saved-searches/index.ts';
import { createSearch, type ListingIndexFeed } from './modules/search/index.ts';
import { createTaxonomy } from './modules/taxonomy/index.ts';
import { createTrust, dealSales } from './modules/trust/index.ts';

/** What the catalog service stands on, opened by main.ts (or a test) before the modules are built. */
export interface CatalogInfrastructure {
  config: CatalogConfig;
  uow: UnitOfWork;
  guards: Guards;
  storage: Storage;
  redis: Redis | undefined;
  log: Logger;
  /** The in-memory listing index (PostgreSQL only); absent: every catalogue page from SQL. */
  listingFeed?: ListingIndexFeed | undefined;
  /** The pool of the catalogue's SQL searches (PostgreSQL only); absent: the service's own. */
  searchDb?: Db | undefined;
  /** Payment providers; built from the configuration when absent. */
  payments?: PaymentProviders | undefined;
  /** BullMQ delayed jobs at subscriptions' ends; absent: the periodic sweep alone. */
  subscriptionJobs?: SubscriptionJobs | undefined;
  /** How often counted views are written (tests flush by hand). */
  viewFlushMs?: number | undefined;
}

/**
 * The composition root of the catalog service: each module's services built once, and the ports
 * by which one module answers another's questions wired in here, so that no module imports a
 * module that depends on it. Caches are built inside the modules they belong to and listen to
 * the unit of work: two catalogs in one process (tests, replicas) never share one.
 */
export function createCatalog(infra: CatalogInfrastructure) {
  const { config, uow, storage, log } = infra;
  const taxonomy = createTaxonomy({
    uow,
    redis: infra.redis,
    redisPrefix: config.REDIS_KEY_PREFIX,
    storage,
    log,
    usage: {
      shownListingsWithin: countShownWithin,
      listingsWithCategory: countWithCategory,
      async placedInTowns(db, ids) {
        const [listings, members] = await Promise.all([listingsInTowns(db, ids), membersInTowns(db, ids)]);
        return new Map(ids.map((id) => [id, { listings: listings.get(id) ?? 0, members: members.get(id) ?? 0 }]));
      },
    },
  });
  const categories = taxonomy.categories;
  const listings = createListings({
    uow,
    storage,
    categories,
    sellerBadge: sellerBadgeSql,
    lots: classListLots,
    sales: dealSales,
    isbnBooks: classListIsbnBooks,
    rowsCache: infra.listingFeed,
    redis: infra.redis,
    redisPrefix: config.REDIS_KEY_PREFIX,
    log,
    viewFlushMs: infra.viewFlushMs,
  });
  const monetisation = createMonetisation({
    uow,
    providers: infra.payments ?? createPaymentProviders(config),
    jobs: infra.subscriptionJobs,
    currency: config.CURRENCY,
    pendingHours: config.PAYMENT_PENDING_HOURS,
    reconcile: {
      firstCheckMs: config.PAYMENT_RECONCILE_FIRST_MS,
      maxIntervalMs: config.PAYMENT_RECONCILE_MAX_INTERVAL_MS,
      marginMs: config.PAYMENT_RECONCILE_MARGIN_HOURS * 3600_000,
    },
    log,
  });
  return {
    config,
    db: uow.db,
    uow,
    guards: infra.guards,
    storage,
    taxonomy,
    listings,
    monetisation,
    search: createSearch({
      uow,
      categories,
      listings,
      boostedIds: monetisation.boostedIds,
      feed: infra.listingFeed,
      searchDb: infra.searchDb,
      log,
    }),
    trust: createTrust({ uow, storage, listings }),
    classLists: createClassLists({ uow, storage, categories, exchangeWishes: sellersWishingItems }),
    savedSearches: createSavedSearches({ uow, categories, log }),
    exchanges: createExchanges(uow, storage, categories),
  };
}
export type Catalog = ReturnType<typeof createCatalog>;
