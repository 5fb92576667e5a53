import type { FastifyPluginAsync } from 'fastify';
import type { GatewayConfig } from '../config.ts';

/** GET /app-config.json: what the browser needs to know of the server's settings, read once at start. */
export const appConfigRoutes: FastifyPluginAsync<{ config: GatewayConfig }> = async (app, { config }) => {
  app.get('/app-config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return {
      inactivity_limit_ms: config.INACTIVITY_LIMIT_MS,
      inactivity_warning_ms: config.INACTIVITY_WARNING_MS,
      currency: config.CURRENCY,
    };
  });
};
