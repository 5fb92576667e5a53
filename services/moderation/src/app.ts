import { createHttpApp, type Guards, type ReadinessCheck } from '@cartable/service-kit';
import type { ModerationConfig } from './config.ts';

export interface ModerationDeps {
  config: ModerationConfig;
  guards: Guards;
}

/** The moderation service's routes are registered here as its features land. */
export async function buildModerationApp(deps: ModerationDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  return createHttpApp({
    name: 'moderation',
    logLevel: deps.config.LOG_LEVEL,
    readiness,
    ...(logger === false ? { logger } : {}),
  });
}
