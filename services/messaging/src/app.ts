import {
  checksResponses,
  createHttpApp,
  idempotencyPlugin,
  type ReadinessCheck,
  registerOpenApi,
} from '@cartable/service-kit';
import type { MessagingDeps } from './deps.ts';
import { LiveHub } from './domain/live.ts';
import { adminStatsRoutes } from './routes/admin-stats.ts';
import { blockRoutes } from './routes/blocks.ts';
import { messageRoutes } from './routes/messages.ts';
import { replyTimeRoutes } from './routes/reply-time.ts';
import { streamRoutes } from './routes/stream.ts';

export async function buildMessagingApp(deps: MessagingDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'messaging',
    logLevel: deps.config.LOG_LEVEL,
    trustProxy: deps.config.TRUST_PROXY,
    checkResponses: checksResponses(deps.config),
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  // GET /openapi.json, from the routes' schemas (libs/contracts).
  await registerOpenApi(app, {
    title: 'messaging',
    description: 'Conversations and messages (services/messaging/API.md).',
  });
  // Creating calls accept an Idempotency-Key: a retried POST gets the first answer back.
  await app.register(idempotencyPlugin, { db: deps.uow.db });
  // Live conversations: GET /messages/stream (server-sent events), fed by messaging's events.
  const live =
    deps.live ??
    new LiveHub(
      deps.uow.db,
      { perMember: deps.config.MESSAGE_STREAM_MAX_PER_MEMBER, total: deps.config.MESSAGE_STREAM_MAX_CONNECTIONS },
      app.log,
    );
  await app.register(streamRoutes, { ...deps, live });
  // Open streams would hold the shutdown until their clients leave: they end first, and the
  // browsers reconnect to another replica.
  app.addHook('preClose', async () => live.closeAll());
  await app.register(messageRoutes, deps);
  await app.register(adminStatsRoutes, deps);
  await app.register(blockRoutes, deps);
  // Public: a member's typical reply time, for their profile page.
  await app.register(replyTimeRoutes, deps);
  return app;
}
