import {
  checksResponses,
  createHttpApp,
  idempotencyPlugin,
  type ReadinessCheck,
  registerOpenApi,
} from '@cartable/service-kit';
import type { Catalog } from './catalog.ts';
import { classListRoutes } from './modules/class-lists/index.ts';
import { exchangeRoutes } from './modules/exchanges/index.ts';
import { insightRoutes } from './modules/insights/index.ts';
import { listingRoutes } from './modules/listings/index.ts';
import { monetisationRoutes } from './modules/monetisation/index.ts';
import { savedSearchRoutes } from './modules/saved-searches/index.ts';
import { searchRoutes } from './modules/search/index.ts';
import { taxonomyRoutes } from './modules/taxonomy/index.ts';
import { trustRoutes } from './modules/trust/index.ts';

/** The catalog service's HTTP app: the service kit's plugins, then each module's routes. */
export async function buildCatalogApp(catalog: Catalog, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'catalog',
    logLevel: catalog.config.LOG_LEVEL,
    trustProxy: catalog.config.TRUST_PROXY,
    checkResponses: checksResponses(catalog.config),
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  // GET /openapi.json, from the routes' schemas (libs/contracts).
  await registerOpenApi(app, {
    title: 'catalog',
    description:
      'Listings and their photos, search, categories, towns and banners, deals and ratings, class lists, saved searches, exchanges, subscriptions and payments (services/catalog/API.md).',
  });
  // Creating calls accept an Idempotency-Key: a retried POST gets the first answer back.
  await app.register(idempotencyPlugin, { db: catalog.db });
  await app.register(taxonomyRoutes, catalog);
  await app.register(searchRoutes, catalog);
  await app.register(listingRoutes, catalog);
  await app.register(trustRoutes, catalog);
  await app.register(monetisationRoutes, catalog);
  await app.register(classListRoutes, catalog);
  await app.register(savedSearchRoutes, catalog);
  await app.register(exchangeRoutes, catalog);
  await app.register(insightRoutes, catalog);
  return app;
}
