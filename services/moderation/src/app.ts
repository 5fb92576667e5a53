import {
  checksResponses,
  createHttpApp,
  idempotencyPlugin,
  type ReadinessCheck,
  registerOpenApi,
} from '@cartable/service-kit';
import type { ModerationDeps } from './deps.ts';
import { adminStatsRoutes } from './routes/admin-stats.ts';
import { commentRoutes } from './routes/comments.ts';
import { contactRoutes } from './routes/contact.ts';
import { reportRoutes } from './routes/reports.ts';

export async function buildModerationApp(deps: ModerationDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'moderation',
    logLevel: deps.config.LOG_LEVEL,
    trustProxy: deps.config.TRUST_PROXY,
    checkResponses: checksResponses(deps.config),
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  // GET /openapi.json, from the routes' schemas (libs/contracts).
  await registerOpenApi(app, {
    title: 'moderation',
    description: 'Comments and their moderation, the contact form and its back office (services/moderation/API.md).',
  });
  // Creating calls accept an Idempotency-Key: a retried POST gets the first answer back.
  await app.register(idempotencyPlugin, { db: deps.uow.db });
  await app.register(commentRoutes, deps);
  await app.register(contactRoutes, deps);
  await app.register(adminStatsRoutes, deps);
  await app.register(reportRoutes, deps);
  return app;
}
