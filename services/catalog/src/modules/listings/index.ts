/**
 * Listings: the books members put up (one, or a lot of a class list's books), their photos, their
 * status, their counted views, and their moderation. Other modules read listings through the
 * functions and the published views (listing_facts, lot_item_facts) below, and react to their
 * events; this file is the only one of the module they may import.
 */
import type { FastifyPluginAsync } from 'fastify';
import { adminBookRoutes } from './routes/admin-books.ts';
import { bookRoutes } from './routes/books.ts';
import type { ListingRouteDeps } from './routes/deps.ts';
import { isbnRoutes } from './routes/isbn.ts';
import { myBookRoutes } from './routes/my-books.ts';

export { seedDemoCatalogue } from './db/demo.ts';
export {
  type BookRow,
  countInTowns,
  countShownWithin,
  countWithCategory,
  exchangeOffersOf,
  findListingRows,
  firstThumbnailKeys,
  type ListingRow,
  type ListingSummary,
  listingById,
  listingFigures,
  listingSummaries,
  lockListing,
  lockListings,
  type SellerBadgeSql,
  shownIds,
  textQuery,
} from './db/queries.ts';
export { listingFacts, lotItemFacts } from './db/schema.ts';
export type { ListingRowsCache } from './domain/cards.ts';
export type { ClassListBookOfIsbn, IsbnBookSource } from './domain/isbn-lookup.ts';
export { changeStatus, type DealSales, type LotSource } from './domain/listing-writes.ts';
export { processBookImage, storePhotos } from './domain/photos.ts';
export type { Viewer } from './domain/view-counter.ts';
export { LISTING_EVENTS, listingCreated, listingStatusChanged } from './events.ts';
export { BOOK_PAGE_DEPENDS_ON, createListings, type Listings } from './listings.ts';
export type { ListingRouteDeps };

/** Every route of the module. */
export const listingRoutes: FastifyPluginAsync<ListingRouteDeps> = async (app, deps) => {
  for (const routes of [bookRoutes, isbnRoutes, myBookRoutes, adminBookRoutes]) await app.register(routes, deps);
};
