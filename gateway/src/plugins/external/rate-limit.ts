import { messages } from '@cartable/contracts';
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

/**
 * Per-address limits in Redis, shared by every gateway; only the routes whose `config.rateLimit`
 * names one count (plugins/app/route-table.ts).
 */
const limits: FastifyPluginAsync<{ redis: Redis; keyPrefix: string }> = async (app, { redis, keyPrefix }) => {
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: `${keyPrefix}rl:`,
    // If Redis is away, let requests through rather than refuse every login.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: messages.tooManyRequests,
      retryAfter: Math.ceil(context.ttl / 1000),
    }),
  });
};

export const rateLimitPlugin = fp(limits, { name: 'cartable-rate-limit' });
