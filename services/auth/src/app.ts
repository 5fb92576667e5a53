import { jwksResponseSchema } from '@cartable/contracts';
import { checksResponses, createHttpApp, type ReadinessCheck, registerOpenApi } from '@cartable/service-kit';
import type { AuthDeps } from './deps.ts';
import { adminRoleRoutes } from './routes/admin-roles.ts';
import { adminStatsRoutes } from './routes/admin-stats.ts';
import { adminUserRoutes } from './routes/admin-users.ts';
import { internalRoutes } from './routes/internal.ts';
import { passwordRoutes } from './routes/password.ts';
import { profileRoutes } from './routes/profile.ts';
import { registrationRoutes } from './routes/registration.ts';
import { sessionRoutes } from './routes/session.ts';
import { twoFactorRoutes } from './routes/two-factor.ts';

/** The auth service as a Fastify app; main.ts gives it real connections, tests their own. */
export async function buildAuthApp(deps: AuthDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const app = createHttpApp({
    name: 'auth',
    logLevel: deps.config.LOG_LEVEL,
    trustProxy: deps.config.TRUST_PROXY,
    checkResponses: checksResponses(deps.config),
    readiness,
    ...(logger === false ? { logger } : {}),
  });
  // Answers carry tokens, codes and personal data: no browser or proxy cache keeps them (the
  // public keys below say otherwise for themselves).
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  // GET /openapi.json, from the routes' schemas (libs/contracts).
  await registerOpenApi(app, {
    title: 'auth',
    description:
      'Accounts, sessions, verification, password reset, two-factor, profiles, roles and permissions (services/auth/API.md).',
  });
  app.get(
    '/.well-known/jwks.json',
    { schema: { tags: ['internal'], response: { 200: jwksResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return deps.signer.jwks;
    },
  );
  for (const routes of [
    sessionRoutes,
    registrationRoutes,
    passwordRoutes,
    profileRoutes,
    twoFactorRoutes,
    adminUserRoutes,
    adminRoleRoutes,
    adminStatsRoutes,
    internalRoutes,
  ]) {
    await app.register(routes, deps);
  }
  return app;
}
