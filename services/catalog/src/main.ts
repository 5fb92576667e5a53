import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  createLogger,
  createRedis,
  createServiceGuards,
  createStorage,
  idempotencyRetention,
  loadConfig,
  openInfrastructure,
  openReadPool,
  serve,
  startPeriodic,
} from '@cartable/service-kit';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { buildCatalogApp } from './app.ts';
import { createCatalog } from './catalog.ts';
import { catalogConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { seedClassLists } from './modules/class-lists/index.ts';
import { startExchangeMatcher } from './modules/exchanges/index.ts';
import { seedDemoCatalogue } from './modules/listings/index.ts';
import { memberBlocksProjection, sellersProjection } from './modules/members/index.ts';
import {
  createSubscriptionJobs,
  seedPlans,
  startPaymentReconciliation,
  startSubscriptionSweep,
} from './modules/monetisation/index.ts';
import { searchMissRetention, startListingIndexFeed } from './modules/search/index.ts';
import { seedCategories, seedLocations } from './modules/taxonomy/index.ts';
import { bookContactsProjection } from './modules/trust/index.ts';

await bootstrap(async () => {
  const config = loadConfig(catalogConfigSchema);
  const log = createLogger('catalog', config.LOG_LEVEL);
  const storage = await createStorage(config, config.DATA_DIR);
  const infra = await openInfrastructure({
    name: 'catalog',
    config,
    log,
    databaseUrl: config.CATALOG_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    publishes: true,
    housekeeping: [idempotencyRetention, searchMissRetention],
    redis: true,
    pgliteExtensions: { unaccent, pg_trgm },
    seed: async (db) => {
      await seedLocations(db);
      await seedCategories(db);
      await seedPlans(db);
      if (config.SEED_DEMO === '1') {
        const created = await seedDemoCatalogue(db, storage, log);
        if (created) log.info({ created }, 'demo catalogue seeded');
        // Illustrative class book lists of 2026-2027 (docs: class lists).
        const lists = await seedClassLists(db);
        if (lists) log.info({ lists }, 'demo class lists seeded');
      }
    },
  });
  const uow = infra.unitOfWork;
  // Pages without search words from memory, kept equal to the table by its notifications
  // (PGlite, the embedded fallback, serves them from SQL).
  const listingFeed =
    infra.database.kind === 'postgres' && config.CATALOG_DATABASE_URL
      ? startListingIndexFeed(config.CATALOG_DATABASE_URL, log)
      : undefined;
  // Searches on their own connections with a short statement timeout (config SEARCH_*).
  const searchPool =
    infra.database.kind === 'postgres' && config.CATALOG_DATABASE_URL
      ? openReadPool({
          url: config.CATALOG_DATABASE_URL,
          schema,
          poolSize: config.SEARCH_POOL_MAX,
          statementTimeoutMs: config.SEARCH_STATEMENT_TIMEOUT_MS,
          connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
        })
      : undefined;
  // Subscriptions end on time: BullMQ delayed jobs at the moments, a sweep for what Redis forgot.
  const queueRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const workerRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const subscriptionJobs = createSubscriptionJobs(queueRedis, workerRedis, uow, log, config.REDIS_KEY_PREFIX);
  const catalog = createCatalog({
    config,
    uow,
    // Tokens are checked here too, not only at the gateway: revoked ones are refused by the service.
    guards: createServiceGuards(config, infra.redis!, log),
    storage,
    redis: infra.redis,
    log,
    listingFeed,
    searchDb: searchPool?.db,
    subscriptionJobs,
  });
  infra.startConsumers({
    auth: sellersProjection,
    messaging: { ...bookContactsProjection, ...memberBlocksProjection },
    // A report's decision to hide a listing: applied here, answered to moderation.
    moderation: catalog.listings.reportActions,
  });
  const stopSweep = startSubscriptionSweep(uow, log, config.SUBSCRIPTION_SWEEP_INTERVAL_MS);
  // Payments not settled: their providers asked again, the only way to hear of a lost callback.
  const stopReconciliation = startPaymentReconciliation(
    catalog.monetisation.reconciliation,
    log,
    config.PAYMENT_RECONCILE_INTERVAL_MS,
  );
  // Exchange suggestions: pairs and cycles among the members' wishes and listings.
  const stopMatcher = startExchangeMatcher(catalog.exchanges, log, config.EXCHANGE_MATCH_INTERVAL_MS);
  // Listings held for a family whose two days have run out: on offer again.
  const stopHoldRelease = startPeriodic(() => catalog.classLists.releaseExpiredHolds(), {
    intervalMs: config.HOLD_RELEASE_INTERVAL_MS,
    log,
    failure: 'releasing the holds past their time failed; the next round will retry',
    report: (released) => {
      if (released > 0) log.info({ released }, 'listings held for families offered again');
    },
  });
  const app = await buildCatalogApp(catalog, infra.readiness);
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, [
    () => catalog.listings.views.stop(),
    () => catalog.search.misses.flush(),
    async () => listingFeed?.close(),
    async () => searchPool?.close(),
    async () => {
      stopSweep();
      stopReconciliation();
      stopMatcher();
      stopHoldRelease();
      await subscriptionJobs.close();
      await Promise.all([queueRedis.quit(), workerRedis.quit()]).catch(() => {});
    },
    ...infra.closers,
  ]);
});
