import { tokenStatusResponseSchema } from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { tokenStatus } from '../domain/revocation.ts';

/**
 * POST /internal/token-status, for the gateway when its Redis cache cannot answer (Redis away
 * or restarted empty). The gateway's route table has no /internal path, so it is never public;
 * whoever calls it must present the token itself (Authorization: Bearer) and learns only
 * whether that token is refused, and its holder's rights if they changed since it was issued:
 * { revoked, rights? }. Read-only.
 */
export const internalRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.post(
    '/internal/token-status',
    {
      preHandler: deps.guards.requireSignature,
      // A Redis outage sends every authenticated request here: keep the logs for problems.
      logLevel: 'warn',
      schema: { tags: ['internal'], response: { 200: tokenStatusResponseSchema } },
    },
    async (request) => tokenStatus(deps, request.claims!),
  );
};
