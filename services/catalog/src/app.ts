import { createHttpApp, idempotencyPlugin, type ReadinessCheck, registerOpenApi } from '@cartable/service-kit';
import type { CatalogDeps } from './deps.ts';
import { adminCityRoutes } from './routes/admin-cities.ts';
import { bannerRoutes } from './routes/banners.ts';
import { bookRoutes } from './routes/books.ts';
import { categoryRoutes } from './routes/categories.ts';
import { locationRoutes } from './routes/locations.ts';

export async function buildCatalogApp(deps: CatalogDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'catalog',
    logLevel: deps.config.LOG_LEVEL,
    trustProxy: deps.config.TRUST_PROXY,
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  // GET /openapi.json, from the routes' schemas (libs/contracts).
  await registerOpenApi(app, {
    title: 'catalog',
    description: 'Books and their photos, categories, locations and banners (services/catalog/API.md).',
  });
  // Creating calls accept an Idempotency-Key: a retried POST gets the first answer back.
  await app.register(idempotencyPlugin, { db: deps.db });
  for (const routes of [locationRoutes, adminCityRoutes, categoryRoutes, bookRoutes, bannerRoutes])
    await app.register(routes, deps);
  return app;
}
