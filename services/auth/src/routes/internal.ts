import { tokenStatusResponseSchema } from '@cartable/contracts';
import { requireServiceToken } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { tokenStatus } from '../domain/revocation.ts';

/**
 * POST /internal/token-status, for the gateway and the services when their Redis cache cannot
 * say (Redis away or restarted empty). The gateway's route table has no /internal path, so it is
 * never public; a caller must hold the service credential (INTERNAL_SERVICE_TOKEN, in the
 * x-service-token header) and present the member's token itself (Authorization: Bearer), and
 * learns only whether that token is refused, and its holder's rights if they changed since it was
 * issued: { revoked, rights? }. Read-only.
 */
export const internalRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  // Before anything else, the token's signature included.
  app.addHook('onRequest', requireServiceToken(deps.config.INTERNAL_SERVICE_TOKEN));
  app.post(
    '/internal/token-status',
    {
      onRequest: deps.guards.requireSignature,
      // A Redis outage sends every authenticated request here: keep the logs for problems.
      logLevel: 'warn',
      schema: { tags: ['internal'], response: { 200: tokenStatusResponseSchema } },
    },
    async (request) => tokenStatus(deps, request.claims!),
  );
};
