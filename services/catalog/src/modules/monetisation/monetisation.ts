import { Cache, type UnitOfWork } from '@cartable/service-kit';
import type { Logger } from 'pino';
import * as queries from './db/queries.ts';
import { monetisationBackOffice } from './domain/back-office.ts';
import { memberCheckout } from './domain/checkout.ts';
import { noSubscriptionJobs, type SubscriptionJobs } from './domain/jobs.ts';
import { endBoostsOfListing, markBoostsTransferable } from './domain/lifecycle.ts';
import { paymentReconciliation, type ReconcileSettings } from './domain/reconciliation.ts';
import { SUBSCRIPTION_EVENTS } from './events.ts';
import type { PaymentProviders } from './providers/provider.ts';

/**
 * The monetisation module's services (plans, subscriptions, boosts, payments, refunds), built once
 * per process (main.ts) and handed to its routes. It reacts to other modules' events in their
 * transactions: a listing sold or deleted ends its boost; a deal confirmed keeps the boost of a
 * listing that changed hands for another listing of the seller.
 */
export function createMonetisation(options: {
  uow: UnitOfWork;
  providers: PaymentProviders;
  /** BullMQ delayed jobs at subscriptions' ends; absent: the periodic sweep alone. */
  jobs?: SubscriptionJobs | undefined;
  currency: string;
  pendingHours: number;
  /** How the providers are asked about payments not settled (config.ts's PAYMENT_RECONCILE_*). */
  reconcile?: Partial<ReconcileSettings> | undefined;
  log?: Pick<Logger, 'warn' | 'info'> | undefined;
}) {
  const { uow, providers } = options;
  const jobs = options.jobs ?? noSubscriptionJobs;
  const settings: ReconcileSettings = { ...DEFAULT_RECONCILE, ...options.reconcile };
  const reconciliation = paymentReconciliation({ uow, providers, jobs, settings, log: options.log });

  uow.react('catalog.book.deleted', (t, { data }) => endBoostsOfListing(t, data.book_id, 'deleted'));
  uow.react('catalog.book.status_changed', async (t, { data }) => {
    if (data.status === 'vendu' && data.previous_status !== 'vendu') await endBoostsOfListing(t, data.book_id, 'sold');
  });
  uow.react('catalog.transaction.confirmed', (t, { data }) =>
    markBoostsTransferable(t, [data.book_id, ...(data.exchange_book_id ? [data.exchange_book_id] : [])]),
  );

  /**
   * The listings boosted now: a handful of ids, read once per few seconds (a boost starting or
   * ending clears them), so a catalogue page's sponsored places cost one indexed filter.
   */
  const boosted = new Cache<'ids', number[]>({ max: 1, ttlMs: 10_000 });
  uow.listen(SUBSCRIPTION_EVENTS, () => boosted.clear());

  return {
    providers,
    checkout: memberCheckout({
      uow,
      providers,
      jobs,
      currency: options.currency,
      pendingHours: options.pendingHours,
      firstCheckMs: settings.firstCheckMs,
    }),
    backOffice: monetisationBackOffice({ uow, providers, jobs }),
    boostedIds: () => boosted.read('ids', () => queries.liveBoostedBookIds(uow.db)),
    sellerBadge: (userId: string) => queries.sellerBadgeOf(uow.db, userId),
    /** Payments not settled, asked about again (the periodic sweep) or at once (an operator). */
    reconciliation,
    /**
     * A provider's callback: checked and read by its provider (401 for a bad signature), applied
     * or turned into a status query. Null: no such provider or payment (404). The answer is the one
     * the provider expects.
     */
    async notification(providerName: string, raw: Buffer, headers: Record<string, string | string[] | undefined>) {
      const provider = providers.get(providerName);
      if (!provider?.parseCallback) return null;
      const callback = provider.parseCallback(raw, headers);
      const outcome = await reconciliation.callback(provider, callback);
      if (!outcome) return null;
      const reply =
        outcome.status === 200 && provider.acknowledge
          ? provider.acknowledge(callback)
          : { status: outcome.status, body: { message: outcome.message } };
      return { outcome, reply };
    },
  };
}
export type Monetisation = ReturnType<typeof createMonetisation>;

/** Two minutes, then twice as late up to half an hour, until the provider's expiry and a day. */
export const DEFAULT_RECONCILE: ReconcileSettings = {
  firstCheckMs: 120_000,
  maxIntervalMs: 30 * 60_000,
  marginMs: 24 * 3600_000,
  batch: 20,
};
