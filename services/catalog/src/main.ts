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
  serve,
} from '@cartable/service-kit';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { buildCatalogApp } from './app.ts';
import { catalogConfigSchema } from './config.ts';
import { seedClassLists } from './db/class-lists-seed.ts';
import { seedDemoCatalogue } from './db/demo-catalogue.ts';
import * as schema from './db/schema.ts';
import { seedCategories, seedLocations, seedPlans } from './db/seed.ts';
import { forgetListings, onListingsWritten } from './domain/books.ts';
import { searchMissRetention } from './domain/catalog-stats.ts';
import { createCategoryStore } from './domain/category-store.ts';
import { startExchangeMatcher } from './domain/exchanges.ts';
import { startListingIndexFeed } from './domain/listing-index-feed.ts';
import { createSubscriptionJobs, startSubscriptionSweep } from './domain/subscription-jobs.ts';
import { createViewCounter } from './domain/view-counter.ts';
import { bookContactsProjection } from './events/book-contacts-projection.ts';
import { memberBlocksProjection } from './events/member-blocks-projection.ts';
import { movesSellersBooks, sellersProjection } from './events/sellers-projection.ts';
import { createPaymentProviders } from './payments/provider.ts';

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
        const created = await seedDemoCatalogue(db, storage);
        if (created) log.info({ created }, 'demo catalogue seeded');
        // Illustrative class book lists of 2026-2027 (README « Listes de manuels »).
        const lists = await seedClassLists(db);
        if (lists) log.info({ lists }, 'demo class lists seeded');
      }
    },
  });
  const db = infra.database.db;
  // Pages without search words from memory, kept equal to the table by its notifications
  // (PGlite, the embedded fallback, serves them from SQL).
  const listings =
    infra.database.kind === 'postgres' && config.CATALOG_DATABASE_URL
      ? startListingIndexFeed(config.CATALOG_DATABASE_URL, log)
      : undefined;
  if (listings) onListingsWritten(() => listings.catchUp());
  const categoryStore = createCategoryStore(db, infra.redis, config.REDIS_KEY_PREFIX, log);
  infra.startConsumers(
    { auth: sellersProjection, messaging: { ...bookContactsProjection, ...memberBlocksProjection } },
    {
      // A member's books entering or leaving the catalogue change the cached pages and the
      // categories' book counts.
      onHandled: (event) => {
        if (movesSellersBooks(event)) {
          forgetListings();
          void categoryStore.invalidate().catch((error) => log.warn({ err: error }, 'category counts not refreshed'));
        }
      },
    },
  );
  // Tokens are checked here too, not only at the gateway: revoked ones are refused by the service.
  const guards = createServiceGuards(config, infra.redis!, log);
  const views = createViewCounter(db, log, { redis: infra.redis, prefix: config.REDIS_KEY_PREFIX });
  // Subscriptions end on time: BullMQ delayed jobs at the moments, a sweep for what Redis forgot.
  const queueRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const workerRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const subscriptionJobs = createSubscriptionJobs(queueRedis, workerRedis, db, log, config.REDIS_KEY_PREFIX, () => {
    forgetListings();
    infra.relay?.kick();
  });
  const stopSweep = startSubscriptionSweep(db, log, config.SUBSCRIPTION_SWEEP_INTERVAL_MS, () => {
    forgetListings();
    infra.relay?.kick();
  });
  // Exchange suggestions: pairs and cycles among the members' wishes and listings.
  const stopMatcher = startExchangeMatcher(db, log, config.EXCHANGE_MATCH_INTERVAL_MS, () => infra.relay?.kick());
  const app = await buildCatalogApp(
    {
      config,
      db,
      guards,
      storage,
      categoryStore,
      relay: infra.relay!,
      views,
      payments: createPaymentProviders(config),
      subscriptionJobs,
      ...(listings ? { listings } : {}),
    },
    infra.readiness,
  );
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, [
    () => views.stop(),
    async () => listings?.close(),
    async () => {
      stopSweep();
      stopMatcher();
      await subscriptionJobs.close();
      await Promise.all([queueRedis.quit(), workerRedis.quit()]).catch(() => {});
    },
    ...infra.closers,
  ]);
});
