import type { EventType } from '@cartable/contracts';
import type { Redis, Storage, UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import { MEMBER_STANDING_EVENTS } from '../members/index.ts';
import type { CategoryStore } from '../taxonomy/index.ts';
import type { SellerBadgeSql } from './db/queries.ts';
import { bookPages } from './domain/book-page.ts';
import { type ListingRowsCache, listingCards } from './domain/cards.ts';
import { type IsbnBookSource, isbnLookup } from './domain/isbn-lookup.ts';
import { type DealSales, type LotSource, listingWrites } from './domain/listing-writes.ts';
import { listingModeration } from './domain/moderation.ts';
import { ownerListings } from './domain/owners.ts';
import { priceGuide } from './domain/price-guide.ts';
import { createViewCounter } from './domain/view-counter.ts';
import { listingReportActions } from './events/report-decisions.ts';
import { LISTING_EVENTS } from './events.ts';

/**
 * What a visitor's book page shows and may change under it: the listing, its seller's standing,
 * rating, name and badge (a member plan's), and the names of its categories and town.
 */
export const BOOK_PAGE_DEPENDS_ON: readonly EventType[] = [
  ...LISTING_EVENTS,
  ...MEMBER_STANDING_EVENTS,
  'auth.user.updated',
  'catalog.seller.rated',
  // « Prix habituel » moves with each confirmed sale.
  'catalog.transaction.confirmed',
  'catalog.subscription.activated',
  'catalog.subscription.renewed',
  'catalog.subscription.extended',
  'catalog.subscription.expired',
  'catalog.subscription.cancelled',
  'catalog.subscription.refunded',
  'catalog.categories.changed',
  'catalog.cities.changed',
];

/** The listings module's services, built once per process (main.ts) and handed to its routes. */
export function createListings(options: {
  uow: UnitOfWork;
  storage: Storage;
  categories: CategoryStore;
  /** The seller's badge as SQL (monetisation's). */
  sellerBadge: SellerBadgeSql;
  /** The books of a lot (class lists'). */
  lots: LotSource;
  /** Whether a confirmed deal sold a listing, and what a book sold for (trust's). */
  sales: DealSales;
  /** What the class lists say of an ISBN, for the listing form's look-up (class lists'). */
  isbnBooks: IsbnBookSource;
  /** Where the rows pages show are kept (search's feed, on PostgreSQL); absent: read each time. */
  rowsCache?: ListingRowsCache | undefined;
  redis: Redis | undefined;
  redisPrefix: string;
  log: Logger;
  /** How often counted views are written (5 s; tests wait longer and flush by hand). */
  viewFlushMs?: number;
}) {
  const { uow, storage, categories, sellerBadge } = options;
  const cards = listingCards({ db: uow.db, storage, categories, rowsCache: options.rowsCache });
  const prices = priceGuide(uow.db, options.sales);
  const pages = bookPages({ db: uow.db, sellerBadge, cards, prices });
  uow.listen(BOOK_PAGE_DEPENDS_ON, () => pages.visitorPages.clear());
  const views = createViewCounter(uow.db, options.log, {
    ...(options.redis ? { redis: options.redis } : {}),
    prefix: options.redisPrefix,
    ...(options.viewFlushMs ? { flushMs: options.viewFlushMs } : {}),
  });
  return {
    cards,
    pages,
    prices,
    /** The listing form's look-up of a scanned or typed ISBN. */
    isbnLookup: isbnLookup(uow.db, options.isbnBooks),
    views,
    owners: ownerListings(uow.db, cards),
    writes: listingWrites({ uow, storage, lots: options.lots, sales: options.sales }),
    moderation: listingModeration({ uow, storage, categories, cards, sales: options.sales }),
    /** What moderation's report decisions ask of listings, for the consumer (main.ts). */
    reportActions: listingReportActions(storage),
  };
}
export type Listings = ReturnType<typeof createListings>;
