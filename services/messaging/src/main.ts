import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  createGuards,
  createTokenVerifier,
  idempotencyRetention,
  loadConfig,
  openInfrastructure,
  serve,
} from '@cartable/service-kit';
import pino from 'pino';
import { buildMessagingApp } from './app.ts';
import { messagingConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { bookProjection, memberProjection } from './events/projections.ts';

await bootstrap(async () => {
  const config = loadConfig(messagingConfigSchema);
  const log = pino({ level: config.LOG_LEVEL, base: { service: 'messaging' } });
  const infra = await openInfrastructure({
    name: 'messaging',
    config,
    log,
    databaseUrl: config.MESSAGING_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    publishes: true,
    housekeeping: [idempotencyRetention],
  });
  const db = infra.database.db;
  infra.startConsumers({ auth: memberProjection, catalog: bookProjection });
  const guards = createGuards(createTokenVerifier(config.AUTH_JWKS_URL));
  const app = await buildMessagingApp({ config, db, guards, relay: infra.relay! }, infra.readiness);
  await serve(app, { port: config.PORT, host: config.HOST }, infra.closers);
});
