import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  combineHandlers,
  createLogger,
  createServiceGuards,
  idempotencyRetention,
  loadConfig,
  openInfrastructure,
  serve,
} from '@cartable/service-kit';
import { buildMessagingApp } from './app.ts';
import { messagingConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { LiveHub } from './domain/live.ts';
import { exchangeConversations } from './events/exchange-conversations.ts';
import { type LiveFeed, startLiveFeed } from './events/live-feed.ts';
import { bookProjection, memberProjection } from './events/projections.ts';

await bootstrap(async () => {
  const config = loadConfig(messagingConfigSchema);
  const log = createLogger('messaging', config.LOG_LEVEL);
  const infra = await openInfrastructure({
    name: 'messaging',
    config,
    log,
    databaseUrl: config.MESSAGING_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    publishes: true,
    // The revocation cache the guards read.
    redis: true,
    housekeeping: [idempotencyRetention],
  });
  const db = infra.database.db;
  infra.startConsumers({ auth: memberProjection, catalog: combineHandlers(bookProjection, exchangeConversations) });
  // Tokens are checked here too, not only at the gateway: revoked ones are refused by the service.
  const guards = createServiceGuards(config, infra.redis!, log);
  // Live conversations: every replica hears every message event and tells its own connections.
  const live = new LiveHub(
    db,
    { perMember: config.MESSAGE_STREAM_MAX_PER_MEMBER, total: config.MESSAGE_STREAM_MAX_CONNECTIONS },
    log,
  );
  let feed: LiveFeed | undefined;
  void infra.nats.then((nc) => {
    feed = startLiveFeed({ nc, namespace: config.EVENT_NAMESPACE, hub: live, log });
  });
  const app = await buildMessagingApp({ config, uow: infra.unitOfWork, guards, live }, infra.readiness);
  // Before NATS is drained (the closers run in order, after HTTP has drained).
  const closers = [async () => feed?.stop(), ...infra.closers];
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, closers);
});
