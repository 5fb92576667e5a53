import { subscriptionMessages } from '@cartable/contracts';
import { invalid, notFound } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MonetisationRouteDeps } from './deps.ts';

const s = subscriptionMessages;

/**
 * POST /payments/webhooks/{provider}: an aggregator's signed notification. Its own plugin, so the
 * body stays the bytes that were signed (no JSON parser here, whatever the content type).
 */
export const paymentWebhookRoutes: FastifyPluginAsyncZod<MonetisationRouteDeps> = async (app, { monetisation }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  app.post(
    '/payments/webhooks/:provider',
    {
      schema: {
        tags: ['subscriptions'],
        params: z.object({ provider: z.string().max(40) }),
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const outcome = await monetisation.notification(request.params.provider, raw, request.headers);
      if (!outcome) throw notFound(s.webhookUnknown);
      if (outcome.status === 422) throw invalid(outcome.message);
      return reply.status(200).send({ message: outcome.message });
    },
  );
};
