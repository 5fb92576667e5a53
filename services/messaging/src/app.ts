import {
  createHttpApp,
  type Db,
  type Guards,
  idempotencyPlugin,
  type OutboxRelay,
  type ReadinessCheck,
  registerOpenApi,
} from '@cartable/service-kit';
import type { MessagingConfig } from './config.ts';
import { adminStatsRoutes } from './routes/admin-stats.ts';
import { blockRoutes } from './routes/blocks.ts';
import { messageRoutes } from './routes/messages.ts';
import { replyTimeRoutes } from './routes/reply-time.ts';

export interface MessagingDeps {
  config: MessagingConfig;
  db: Db;
  guards: Guards;
  relay: Pick<OutboxRelay, 'kick'>;
}

export async function buildMessagingApp(deps: MessagingDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'messaging',
    logLevel: deps.config.LOG_LEVEL,
    trustProxy: deps.config.TRUST_PROXY,
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  // GET /openapi.json, from the routes' schemas (libs/contracts).
  await registerOpenApi(app, {
    title: 'messaging',
    description: 'Conversations and messages (services/messaging/API.md).',
  });
  // Creating calls accept an Idempotency-Key: a retried POST gets the first answer back.
  await app.register(idempotencyPlugin, { db: deps.db });
  await app.register(messageRoutes, deps);
  await app.register(adminStatsRoutes, deps);
  await app.register(blockRoutes, deps);
  // Public: a member's typical reply time, for their profile page.
  await app.register(replyTimeRoutes, deps);
  return app;
}
