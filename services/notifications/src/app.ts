import { checksResponses, createHttpApp, type ReadinessCheck, registerOpenApi } from '@cartable/service-kit';
import type { NotificationsConfig } from './config.ts';
import { type NoticeDeps, noticeRoutes } from './routes/notices.ts';
import { alertChannelRoutes, type SmsDeps, smsWebhookRoutes } from './routes/sms-alerts.ts';
import { unsubscribeRoutes } from './routes/unsubscribe.ts';

export interface NotificationsDeps extends NoticeDeps, Omit<SmsDeps, keyof NoticeDeps> {
  config: NotificationsConfig;
}

/** notifications' HTTP side: health and readiness, and the member's notice centre behind the gateway. */
export async function buildNotificationsApp(deps: NotificationsDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'notifications',
    logLevel: deps.config.LOG_LEVEL,
    trustProxy: deps.config.TRUST_PROXY,
    checkResponses: checksResponses(deps.config),
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  // GET /openapi.json, from the routes' schemas (libs/contracts).
  await registerOpenApi(app, {
    title: 'notifications',
    description: 'The in-app notice centre and notification preferences (e-mails are sent from events).',
  });
  await app.register(noticeRoutes, deps);
  await app.register(unsubscribeRoutes, deps);
  await app.register(alertChannelRoutes, deps);
  await app.register(smsWebhookRoutes, deps);
  return app;
}
