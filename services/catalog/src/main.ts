import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  createGuards,
  createTokenVerifier,
  loadConfig,
  openInfrastructure,
  serve,
  startConsumer,
} from '@cartable/service-kit';
import pino from 'pino';
import { buildCatalogApp } from './app.ts';
import { catalogConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { seedLocations } from './db/seed.ts';
import { sellersProjection } from './events/sellers-projection.ts';

await bootstrap(async () => {
  const config = loadConfig(catalogConfigSchema);
  const log = pino({ level: config.LOG_LEVEL, base: { service: 'catalog' } });
  const infra = await openInfrastructure({
    name: 'catalog',
    config,
    log,
    databaseUrl: config.CATALOG_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    publishes: true,
  });
  const db = infra.database.db;
  await seedLocations(db);
  const consumer = await startConsumer({
    nc: infra.nc,
    db,
    namespace: config.EVENT_NAMESPACE,
    log,
    consumer: 'catalog',
    producer: 'auth',
    handlers: sellersProjection,
  });
  const guards = createGuards(createTokenVerifier(config.AUTH_JWKS_URL));
  const app = await buildCatalogApp({ config, db, guards }, infra.readiness);
  await serve(app, { port: config.PORT, host: config.HOST }, [() => consumer.stop(), ...infra.closers]);
});
