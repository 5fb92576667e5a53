import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  createGuards,
  createLogger,
  createStorage,
  createTokenVerifier,
  deleteOlderThan,
  loadConfig,
  openInfrastructure,
  serve,
} from '@cartable/service-kit';
import { createLocalJWKSet } from 'jose';
import { buildAuthApp } from './app.ts';
import { authConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { seedAdmin, seedDemoMembers } from './db/seed.ts';
import { loginThrottle, throttleSettings } from './domain/login-throttle.ts';
import { configurePasswordWork } from './domain/passwords.ts';
import { createRevocationCache, currentClaimsInDatabase } from './domain/revocation.ts';
import { loadSigner } from './domain/signing.ts';
import { memberActivity, memberExchanges } from './events/member-activity.ts';

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
      if (config.SEED_DEMO === '1') await seedDemoMembers(db);
    },
    // The dashboard shows the latest lines; a year of history is plenty.
    housekeeping: [{ name: 'user_activities', run: deleteOlderThan('user_activities', 'occurred_at', 365) }],
  });
  const db = infra.database.db;
  configurePasswordWork({ concurrency: config.PASSWORD_HASH_CONCURRENCY, maxWaiting: config.PASSWORD_HASH_QUEUE });
  const signer = await loadSigner(config.AUTH_PRIVATE_KEY, config.DATA_DIR);
  // auth checks its own tokens with its own keys, no HTTP round trip.
  const guards = createGuards(createTokenVerifier(createLocalJWKSet(signer.jwks)), {
    // auth holds the source of truth: its own database says whether a token was revoked.
    revocation: { currentClaims: (_token, claims) => currentClaimsInDatabase(db, claims) },
  });
  // Redis only caches revocations for the gateway (the database has them): rebuilt at start,
  // after every reconnection and periodically. No route of auth needs Redis to answer.
  const revocation = createRevocationCache({
    db,
    redis: infra.redis!,
    prefix: config.REDIS_KEY_PREFIX,
    tokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshSeconds: config.REVOCATION_CACHE_REFRESH_SECONDS,
    log: log.child({ component: 'revocation-cache' }),
  });
  const stopRevocationCache = revocation.start();
  const app = await buildAuthApp(
    {
      config,
      db,
      relay: infra.relay!,
      signer,
      guards,
      throttle: loginThrottle(db, throttleSettings(config)),
      revocation,
      storage: await createStorage(config, config.DATA_DIR),
    },
    infra.readiness,
  );
  // The dashboard's counters and activity, from catalog's book events.
  infra.startConsumers({ catalog: memberActivity, ...memberExchanges });
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, [
    stopRevocationCache,
    ...infra.closers,
  ]);
});
