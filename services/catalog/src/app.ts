import {
  checksResponses,
  createHttpApp,
  idempotencyPlugin,
  type ReadinessCheck,
  registerOpenApi,
} from '@cartable/service-kit';
import type { CatalogDeps } from './deps.ts';
import { adminBookRoutes } from './routes/admin-books.ts';
import { adminCityRoutes } from './routes/admin-cities.ts';
import { adminStatsRoutes } from './routes/admin-stats.ts';
import { adminSubscriptionRoutes } from './routes/admin-subscriptions.ts';
import { bannerRoutes } from './routes/banners.ts';
import { bookRoutes } from './routes/books.ts';
import { categoryRoutes } from './routes/categories.ts';
import { classListRoutes } from './routes/class-lists.ts';
import { exchangeRoutes } from './routes/exchanges.ts';
import { favouriteRoutes } from './routes/favourites.ts';
import { locationRoutes } from './routes/locations.ts';
import { paymentWebhookRoutes } from './routes/payment-webhooks.ts';
import { ratingRoutes } from './routes/ratings.ts';
import { savedSearchRoutes } from './routes/saved-searches.ts';
import { subscriptionRoutes } from './routes/subscriptions.ts';
import { transactionRoutes } from './routes/transactions.ts';

export async function buildCatalogApp(deps: CatalogDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'catalog',
    logLevel: deps.config.LOG_LEVEL,
    trustProxy: deps.config.TRUST_PROXY,
    checkResponses: checksResponses(deps.config),
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
  for (const routes of [
    locationRoutes,
    adminCityRoutes,
    categoryRoutes,
    bookRoutes,
    adminBookRoutes,
    bannerRoutes,
    adminStatsRoutes,
  ])
    await app.register(routes, deps);
  // Deals and trust: transactions between members and the ratings that follow them.
  await app.register(transactionRoutes, deps);
  await app.register(ratingRoutes, deps);
  // Favourites tied to the account and a member's public listings and deals.
  await app.register(favouriteRoutes, deps);
  // Subscriptions and payments: plans, boosts, mobile-money payments, refunds (issue 13).
  await app.register(subscriptionRoutes, deps);
  await app.register(adminSubscriptionRoutes, deps);
  // Class book lists, « Ma liste », the listing form's autofill, saved lists (issue 15).
  await app.register(classListRoutes, deps);
  // Saved searches with alerts and their one-click unsubscribe (issue 15 item 5).
  await app.register(savedSearchRoutes, deps);
  // Exchange matching: wishes, pairs and cycles of three (issue 15 item 6).
  await app.register(exchangeRoutes, deps);
  // Its own plugin: the raw body, as signed.
  await app.register(paymentWebhookRoutes, deps);
  return app;
}
