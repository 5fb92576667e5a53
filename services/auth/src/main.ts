import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  createGuards,
  createStorage,
  createTokenVerifier,
  loadConfig,
  openInfrastructure,
  serve,
  startConsumers,
} from '@cartable/service-kit';
import { createLocalJWKSet } from 'jose';
import pino from 'pino';
import { buildAuthApp } from './app.ts';
import { authConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { seedAdmin, seedDemoMembers } from './db/seed.ts';
import { loginThrottle } from './domain/login-throttle.ts';
import { loadSigner } from './domain/signing.ts';
import { memberActivity } from './events/member-activity.ts';

await bootstrap(async () => {
  const config = loadConfig(authConfigSchema);
  const log = pino({ level: config.LOG_LEVEL, base: { service: 'auth' } });
  const infra = await openInfrastructure({
    name: 'auth',
    config,
    log,
    databaseUrl: config.AUTH_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    publishes: true,
    redis: true,
  });
  const db = infra.database.db;
  await seedAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  if (config.SEED_DEMO === '1') await seedDemoMembers(db);
  const signer = await loadSigner(config.AUTH_PRIVATE_KEY, config.DATA_DIR);
  // auth checks its own tokens with its own keys, no HTTP round trip.
  const guards = createGuards(createTokenVerifier(createLocalJWKSet(signer.jwks)));
  const redis = infra.redis!;
  const app = await buildAuthApp(
    {
      config,
      db,
      redis,
      relay: infra.relay!,
      signer,
      guards,
      throttle: loginThrottle(redis, config.REDIS_KEY_PREFIX, config.LOGIN_MAX_FAILURES, config.LOGIN_LOCK_MINUTES),
      storage: await createStorage(config, config.DATA_DIR),
    },
    infra.readiness,
  );
  // The dashboard's counters and activity, from catalog's book events.
  const stopConsumers = await startConsumers(
    { nc: infra.nc, db: infra.database.db, namespace: config.EVENT_NAMESPACE, log, consumer: 'auth' },
    { catalog: memberActivity },
  );
  await serve(app, { port: config.PORT, host: config.HOST }, [...stopConsumers, ...infra.closers]);
});
