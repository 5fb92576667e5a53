import { ebillingProvider } from './ebilling.ts';
import { manualProvider } from './manual.ts';
import { mypvitProvider } from './mypvit.ts';
import type { PaymentProvider, PaymentProviders, PaymentSettings } from './provider.ts';
import { simulatedProvider } from './simulated.ts';

/** The providers this installation accepts: manual always, each aggregator when its URL is set. */
export function createPaymentProviders(
  config: PaymentSettings,
  extra: PaymentProvider[] = [],
  fetcher: typeof fetch = fetch,
): PaymentProviders {
  const all: PaymentProvider[] = [manualProvider(config)];
  if (config.PAYMENT_AGGREGATOR_URL) all.push(simulatedProvider(config, fetcher));
  if (config.PAYMENT_EBILLING_URL) all.push(ebillingProvider(config, fetcher));
  if (config.PAYMENT_MYPVIT_URL) all.push(mypvitProvider(config, fetcher));
  all.push(...extra);
  const byName = new Map(all.map((p) => [p.name, p]));
  return { get: (name) => byName.get(name), list: () => all };
}
