/**
 * Monetisation: the plans, members' subscriptions (a listing boost, a member plan with its badge),
 * the boosts they give, mobile-money payments through the providers, refunds and receipts. This
 * file is the only one of the module other modules may import.
 */
import type { FastifyPluginAsync } from 'fastify';
import { adminMonetisationRoutes } from './routes/admin.ts';
import { adminPaymentExportRoutes } from './routes/admin-payment-exports.ts';
import { adminPaymentRoutes } from './routes/admin-payments.ts';
import type { MonetisationRouteDeps } from './routes/deps.ts';
import { paymentRoutes } from './routes/payments.ts';
import { subscriptionRoutes } from './routes/subscriptions.ts';
import { paymentWebhookRoutes } from './routes/webhooks.ts';

export { sellerBadgeSql } from './db/queries.ts';
export { defaultPlans, seedPlans } from './db/seed.ts';
export {
  createSubscriptionJobs,
  noSubscriptionJobs,
  runSubscriptionSweep,
  type SubscriptionJobs,
  startPaymentReconciliation,
  startSubscriptionSweep,
} from './domain/jobs.ts';
export { SUBSCRIPTION_EVENTS } from './events.ts';
export { createMonetisation, type Monetisation } from './monetisation.ts';
export {
  newPaymentReference,
  OutcomeUnknown,
  type PaymentProvider,
  type PaymentProviders,
  signWebhook,
  verifySignedWebhook,
} from './providers/provider.ts';
export { createPaymentProviders } from './providers/registry.ts';
export type { MonetisationRouteDeps };

export const monetisationRoutes: FastifyPluginAsync<MonetisationRouteDeps> = async (app, deps) => {
  await app.register(subscriptionRoutes, deps);
  await app.register(paymentRoutes, deps);
  await app.register(adminMonetisationRoutes, deps);
  await app.register(adminPaymentRoutes, deps);
  await app.register(adminPaymentExportRoutes, deps);
  // Its own plugin: the raw body, as signed.
  await app.register(paymentWebhookRoutes, deps);
};
