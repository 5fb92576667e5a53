/** Everything the catalog's routes are given: the service's modules, built once (catalog.ts). */
export type { Catalog as CatalogDeps } from './catalog.ts';
