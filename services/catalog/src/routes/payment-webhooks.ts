import { subscriptionMessages } from '@cartable/contracts';
import { HttpError } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CatalogDeps } from '../deps.ts';
import { forgetListings } from '../domain/books.ts';
import { applyWebhook } from '../domain/payments.ts';
import { noSubscriptionJobs } from '../domain/subscription-jobs.ts';
import { createPaymentProviders } from '../payments/provider.ts';

const s = subscriptionMessages;

/**
 * POST /payments/webhooks/{provider}: an aggregator's signed notification. Its own plugin, so the
 * body stays the bytes that were signed (no JSON parser here, whatever the content type).
 */
export const paymentWebhookRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, relay, config } = deps;
  const providers = deps.payments ?? createPaymentProviders(config);
  const jobs = deps.subscriptionJobs ?? noSubscriptionJobs;
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
      const provider = providers.get(request.params.provider);
      if (!provider?.parseWebhook) throw new HttpError(404, s.webhookUnknown);
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const notice = provider.parseWebhook(raw, request.headers);
      const outcome = await applyWebhook(db, provider.name, notice);
      relay.kick();
      if (outcome.changed) {
        forgetListings();
        if (outcome.subscription) await jobs.schedule(outcome.subscription);
      }
      if (outcome.status === 422) throw new HttpError(422, outcome.message);
      return reply.status(200).send({ message: outcome.message });
    },
  );
};
