import { createHttpApp, type Db, type Guards, type OutboxRelay, type ReadinessCheck } from '@cartable/service-kit';
import type { ModerationConfig } from './config.ts';
import { commentRoutes } from './routes/comments.ts';
import { contactRoutes } from './routes/contact.ts';

export interface ModerationDeps {
  config: ModerationConfig;
  db: Db;
  guards: Guards;
  relay: Pick<OutboxRelay, 'kick'>;
}

export async function buildModerationApp(deps: ModerationDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'moderation',
    logLevel: deps.config.LOG_LEVEL,
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  await app.register(commentRoutes, deps);
  await app.register(contactRoutes, deps);
  return app;
}
