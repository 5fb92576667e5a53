import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  createLogger,
  createStorage,
  deleteOlderThan,
  loadConfig,
  openInfrastructure,
  serve,
  UnitOfWork,
} from '@cartable/service-kit';
import { buildAuthApp } from './app.ts';
import { createAuth } from './auth.ts';
import { authConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { configurePasswordWork } from './domain/passwords.ts';
import { memberActivity, memberBlocksProjection, memberExchanges } from './events/member-activity.ts';
import { reportActions } from './events/report-actions.ts';
import { seedAdmin, seedDemoMembers } from './seed.ts';

await bootstrap(async () => {
  const config = loadConfig(authConfigSchema);
  const log = createLogger('auth', config.LOG_LEVEL);
  const infra = await openInfrastructure({
    name: 'auth',
    config,
    log,
    databaseUrl: config.AUTH_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    publishes: true,
    redis: true,
    seed: async (db) => {
      await seedAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
      // Before the relay runs: it publishes the demo members' events it finds at start.
      if (config.SEED_DEMO === '1') await seedDemoMembers(new UnitOfWork({ db, log }));
    },
    // The dashboard shows the latest lines; a year of history is plenty.
    housekeeping: [{ name: 'user_activities', run: deleteOlderThan('user_activities', 'occurred_at', 365) }],
  });
  configurePasswordWork({ concurrency: config.PASSWORD_HASH_CONCURRENCY, maxWaiting: config.PASSWORD_HASH_QUEUE });
  const deps = await createAuth({
    config,
    uow: infra.unitOfWork,
    redis: infra.redis!,
    storage: await createStorage(config, config.DATA_DIR),
    log: log.child({ component: 'revocation-cache' }),
  });
  const stopRevocationCache = deps.revocation.start();
  const app = await buildAuthApp(deps, infra.readiness);
  // The dashboard's counters and activity, from catalog's book events.
  // Messaging's blocks too: a blocked pair does not read each other's contact details.
  infra.startConsumers({
    catalog: memberActivity,
    ...memberExchanges,
    messaging: { ...memberExchanges.messaging, ...memberBlocksProjection },
    // A report's decision to deactivate its member: applied here, answered to moderation.
    moderation: { ...memberExchanges.moderation, ...reportActions(deps) },
  });
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, [
    stopRevocationCache,
    ...infra.closers,
  ]);
});
