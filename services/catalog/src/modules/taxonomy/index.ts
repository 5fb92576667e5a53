/**
 * Taxonomy: the school categories (a graph where a subject hangs under several levels), the
 * countries, provinces and towns, and the home page's banners. Other modules read the hierarchy
 * through its CategoryView, and towns through the relations below; this file is the only one of
 * the module they may import.
 */
import type { FastifyPluginAsync } from 'fastify';
import { adminCategoryRoutes } from './routes/admin-categories.ts';
import { adminTownRoutes } from './routes/admin-towns.ts';
import { bannerRoutes } from './routes/banners.ts';
import { categoryRoutes } from './routes/categories.ts';
import type { TaxonomyRouteDeps } from './routes/deps.ts';
import { locationRoutes } from './routes/locations.ts';

export { gabonProvinces } from './db/gabon.ts';
export {
  categoriesSubquery,
  categoryIdsByName,
  categoryRelation,
  cityIdByName,
  existingCategoryIds,
  existingCityIds,
  provinceNames,
  townNames,
  townRelation,
  townsSubquery,
} from './db/queries.ts';
export { cycles as schoolCycles, subjects as schoolSubjects } from './db/school-system.ts';
export { seedCategories, seedLocations } from './db/seed.ts';
export { CategoryGraph, type CategoryNode } from './domain/category-graph.ts';
export type { CategoryStore, CategoryView } from './domain/category-store.ts';
export { kindOf } from './domain/kinds.ts';
export type { TaxonomyUsage } from './domain/usage.ts';
export { createTaxonomy, type Taxonomy } from './taxonomy.ts';
export type { TaxonomyRouteDeps };

/** Every route of the module. */
export const taxonomyRoutes: FastifyPluginAsync<TaxonomyRouteDeps> = async (app, deps) => {
  for (const routes of [locationRoutes, adminTownRoutes, categoryRoutes, adminCategoryRoutes, bannerRoutes])
    await app.register(routes, deps);
};
