import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  createLogger,
  createServiceGuards,
  deleteOlderThan,
  idempotencyRetention,
  loadConfig,
  openInfrastructure,
  serve,
} from '@cartable/service-kit';
import { buildModerationApp } from './app.ts';
import { moderationConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import {
  authReportActions,
  bookProjection,
  catalogReportActions,
  memberBlocksProjection,
  memberProjection,
  messageReports,
} from './events/projections.ts';

await bootstrap(async () => {
  const config = loadConfig(moderationConfigSchema);
  const log = createLogger('moderation', config.LOG_LEVEL);
  const infra = await openInfrastructure({
    name: 'moderation',
    config,
    log,
    databaseUrl: config.MODERATION_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    publishes: true,
    // The revocation cache the guards read.
    redis: true,
    // Issued questions are short-lived; answered or not, they go a day after they expire.
    housekeeping: [idempotencyRetention, { name: 'captchas', run: deleteOlderThan('captchas', 'expires_at', 1) }],
  });
  infra.startConsumers({
    // Also the owning services' answers to a report's decision: the reports close then.
    auth: { ...memberProjection, ...authReportActions },
    catalog: { ...bookProjection, ...catalogReportActions },
    messaging: { ...messageReports, ...memberBlocksProjection },
  });
  // Tokens are checked here too, not only at the gateway: revoked ones are refused by the service.
  const guards = createServiceGuards(config, infra.redis!, log);
  const app = await buildModerationApp({ config, uow: infra.unitOfWork, guards }, infra.readiness);
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, infra.closers);
});
