import { join } from 'node:path';
import {
  checksResponses,
  createHttpApp,
  createRevocationChecker,
  type ReadinessCheck,
  type Storage,
  type TokenVerifier,
} from '@cartable/service-kit';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from './config.ts';
import { authenticationPlugin } from './plugins/app/authentication.ts';
import { routeTable as defaultRouteTable, type RouteEntry, type Upstream } from './plugins/app/route-table.ts';
import { compressPlugin } from './plugins/external/compress.ts';
import { corsPlugin } from './plugins/external/cors.ts';
import { helmetPlugin } from './plugins/external/helmet.ts';
import { rateLimitPlugin } from './plugins/external/rate-limit.ts';
import { staticPlugin } from './plugins/external/static.ts';
import { apiRoutes } from './routes/api.ts';
import { apiDocsRoutes } from './routes/api-docs.ts';
import { appConfigRoutes } from './routes/app-config.ts';
import { frontendsPlugin } from './routes/frontends.ts';
import { createBookPreviews, linkPreviewRoutes } from './routes/link-previews.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  redis: Redis;
  verifier: TokenVerifier;
  routeTable?: readonly RouteEntry[];
  /** Set with the S3 driver: images are streamed from the bucket. */
  storage?: Storage;
}

/**
 * The gateway, in three passes as fastify/demo lays them out: the maintained plugins every
 * response goes through (plugins/external), what the routes rely on (plugins/app: who the
 * caller is), then the routes (the API proxy, the frontends, link previews).
 */
export async function buildGateway(deps: GatewayDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const { config, redis } = deps;
  const routeTable = deps.routeTable ?? defaultRouteTable;
  const upstreams: Record<Upstream, string> = {
    auth: config.AUTH_URL,
    catalog: config.CATALOG_URL,
    messaging: config.MESSAGING_URL,
    moderation: config.MODERATION_URL,
    notifications: config.NOTIFICATIONS_URL,
  };
  const app = createHttpApp({
    name: 'gateway',
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    checkResponses: checksResponses(config),
    readiness,
    bodyLimit: config.JSON_BODY_LIMIT,
    defaultNotFound: false,
    ...(logger === false ? { logger } : {}),
  });

  await app.register(helmetPlugin);
  await app.register(corsPlugin, { origins: config.CORS_ORIGINS });
  await app.register(compressPlugin);
  await app.register(rateLimitPlugin, { redis, keyPrefix: config.REDIS_KEY_PREFIX });
  await app.register(staticPlugin, {
    frontendsDir: config.FRONTENDS_DIR,
    // With an object store, images are a route of their own (routes/frontends.ts).
    storageDir: deps.storage ? undefined : join(config.DATA_DIR, 'storage'),
  });

  await app.register(authenticationPlugin, {
    verifier: deps.verifier,
    revocation: createRevocationChecker({
      redis,
      prefix: config.REDIS_KEY_PREFIX,
      authUrl: config.AUTH_URL,
      internalServiceToken: config.INTERNAL_SERVICE_TOKEN,
      statusCacheMs: config.TOKEN_STATUS_CACHE_MS,
      log: app.log,
    }),
  });

  await app.register(apiRoutes, {
    prefix: '/api',
    routeTable,
    upstreams,
    uploadBodyLimit: config.UPLOAD_BODY_LIMIT,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    limits: {
      register: config.RATE_LIMIT_REGISTER,
      login: config.RATE_LIMIT_LOGIN,
      verificationResend: config.RATE_LIMIT_VERIFICATION_RESEND,
      checkEmailVerification: config.RATE_LIMIT_CHECK_EMAIL_VERIFICATION,
      forgotPassword: config.RATE_LIMIT_FORGOT_PASSWORD,
      resetPassword: config.RATE_LIMIT_RESET_PASSWORD,
      validateResetToken: config.RATE_LIMIT_VALIDATE_RESET_TOKEN,
      twoFactorResend: config.RATE_LIMIT_TWO_FACTOR_RESEND,
      contact: config.RATE_LIMIT_CONTACT,
      captcha: config.RATE_LIMIT_CAPTCHA,
      uploads: config.RATE_LIMIT_UPLOADS,
    },
  });
  // Development only: the services' OpenAPI documents merged under /api/docs (JSON and swagger-ui).
  if (config.NODE_ENV !== 'production') await app.register(apiDocsRoutes, { routeTable, upstreams });
  await app.register(appConfigRoutes, { config });
  await app.register(frontendsPlugin, { frontendsDir: config.FRONTENDS_DIR, storage: deps.storage });
  if (app.shellBuilt) await app.register(linkPreviewRoutes, { bookPreview: createBookPreviews(config.CATALOG_URL) });
  return app;
}
