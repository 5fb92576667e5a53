/**
 * Search: the catalogue's pages of listings (one interface, two engines: the in-memory listing
 * index and SQL over listings' published view), the search box's suggestions, the home page's
 * rows, and the searches that found nothing. This file is the only one of the module other
 * modules may import.
 */
import type { FastifyPluginAsync } from 'fastify';
import { catalogueRoutes } from './routes/catalogue.ts';
import type { SearchRouteDeps } from './routes/deps.ts';

export { inCategories, missesMatchingTitles, textCondition, topMisses } from './db/queries.ts';
export type { BoostedIds } from './domain/catalogue.ts';
export { selectionOf } from './domain/listing-index.ts';
export { CARDS_KEPT, type ListingIndexFeed, startListingIndexFeed } from './domain/listing-index-feed.ts';
export { normaliseSearch, searchMissRetention } from './domain/misses.ts';
export { planSearch, type UnderstoodFilter, understoodCategorySets } from './domain/planner.ts';
export { CATALOGUE_DEPENDS_ON, createSearch, type Search } from './search.ts';
export type { SearchRouteDeps };

export const searchRoutes: FastifyPluginAsync<SearchRouteDeps> = async (app, deps) => {
  await app.register(catalogueRoutes, deps);
};
