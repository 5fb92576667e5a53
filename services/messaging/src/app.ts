import { createHttpApp, type Guards, type ReadinessCheck } from '@cartable/service-kit';
import type { MessagingConfig } from './config.ts';

export interface MessagingDeps {
  config: MessagingConfig;
  guards: Guards;
}

/** The messaging service's routes are registered here as its features land. */
export async function buildMessagingApp(deps: MessagingDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  return createHttpApp({
    name: 'messaging',
    logLevel: deps.config.LOG_LEVEL,
    readiness,
    ...(logger === false ? { logger } : {}),
  });
}
