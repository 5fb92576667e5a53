import { Cache, type UnitOfWork } from '@cartable/service-kit';
import * as queries from './db/queries.ts';
import { monetisationBackOffice } from './domain/back-office.ts';
import { memberCheckout } from './domain/checkout.ts';
import { noSubscriptionJobs, type SubscriptionJobs } from './domain/jobs.ts';
import { endBoostsOfListing, markBoostsTransferable } from './domain/lifecycle.ts';
import { applyWebhook } from './domain/payments.ts';
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
}) {
  const { uow, providers } = options;
  const jobs = options.jobs ?? noSubscriptionJobs;

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
    }),
    backOffice: monetisationBackOffice({ uow, providers, jobs }),
    boostedIds: () => boosted.read('ids', () => queries.liveBoostedBookIds(uow.db)),
    sellerBadge: (userId: string) => queries.sellerBadgeOf(uow.db, userId),
    /** An aggregator's notification, checked by its provider, applied once; a paid subscription's end scheduled. */
    async notification(providerName: string, raw: Buffer, headers: Record<string, string | string[] | undefined>) {
      const provider = providers.get(providerName);
      if (!provider?.parseWebhook) return null;
      const outcome = await applyWebhook(uow, provider.name, provider.parseWebhook(raw, headers));
      if (outcome.changed && outcome.subscription) await jobs.schedule(outcome.subscription);
      return outcome;
    },
  };
}
export type Monetisation = ReturnType<typeof createMonetisation>;
