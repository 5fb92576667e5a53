import cors from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The product's pages come from this gateway: its API is called from its own origin, which needs
 * no CORS header, and a page of any other site cannot read its responses. CORS is on only for the
 * other origins CORS_ORIGINS names (a frontend served elsewhere, a development server).
 */
const crossOrigin: FastifyPluginAsync<{ origins: string | undefined }> = async (app, { origins }) => {
  const allowed = (origins ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (allowed.length) await app.register(cors, { origin: allowed, credentials: true });
};

export const corsPlugin = fp(crossOrigin, { name: 'cartable-cors' });
