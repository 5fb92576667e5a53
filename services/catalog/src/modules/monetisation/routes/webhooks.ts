import { subscriptionMessages } from '@cartable/contracts';
import { invalid, notFound } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MonetisationRouteDeps } from './deps.ts';

const s = subscriptionMessages;

/**
 * POST /payments/webhooks/{provider}: an aggregator's callback (signed, or a form that only says
 * « ask me »). Its own plugin, so the body stays the bytes as sent (no parser here, whatever the
 * content type): a signature is checked on them.
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
        // `{ message }`, or the acknowledgement the provider's protocol asks for (MyPVit's).
        response: { 200: z.record(z.string(), z.unknown()), 202: z.record(z.string(), z.unknown()) },
      },
    },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await monetisation.notification(request.params.provider, raw, request.headers);
      if (!answer) throw notFound(s.webhookUnknown);
      if (answer.outcome.status === 422) throw invalid(answer.outcome.message);
      return reply.status(answer.reply.status === 202 ? 202 : 200).send(answer.reply.body as Record<string, unknown>);
    },
  );
};
