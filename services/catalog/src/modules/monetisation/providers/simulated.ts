import { invalid, unprocessable } from '@cartable/service-kit';
import { pushSteps, REFUSED, UNREACHABLE } from './aggregator-http.ts';
import {
  OutcomeUnknown,
  type PaymentProvider,
  type PaymentSettings,
  type ProviderReport,
  verifySignedWebhook,
} from './provider.ts';

/**
 * A mobile-money aggregator: we ask it to push a payment request to the member's phone, it
 * answers at once with its id, and confirms later by a signed webhook (provider.ts).
 * services/payment-simulator plays one in development and tests.
 */
export function simulatedProvider(config: PaymentSettings, fetcher: typeof fetch = fetch): PaymentProvider {
  const base = config.PAYMENT_AGGREGATOR_URL!.replace(/\/+$/, '');
  const timeoutMs = config.PAYMENT_REQUEST_TIMEOUT_MS ?? 10_000;
  return {
    name: 'simulated',
    label: 'Agrégateur (simulé)',
    manual: false,
    async initiate(payment) {
      if (!payment.payerPhone)
        throw unprocessable(
          { payer_phone: ['Numéro de téléphone gabonais invalide (ex. 077 12 34 56)'] },
          'Indiquez le numéro à débiter',
        );
      let res: Response;
      try {
        res = await fetcher(`${base}/v1/payments`, {
          method: 'POST',
          headers: { authorization: `Bearer ${config.PAYMENT_AGGREGATOR_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            reference: payment.reference,
            amount: payment.amount,
            currency: payment.currency,
            operator: payment.operator,
            msisdn: payment.payerPhone,
            callback_url: `${config.PAYMENT_WEBHOOK_BASE_URL.replace(/\/+$/, '')}/simulated`,
            description: payment.description,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch {
        // Sent, perhaps received: the status query (by our reference) will say.
        throw new OutcomeUnknown(UNREACHABLE);
      }
      if (res.status >= 500) throw new OutcomeUnknown(UNREACHABLE);
      if (res.status !== 201 && res.status !== 200) throw invalid(REFUSED);
      const body = (await res.json().catch(() => null)) as { id?: unknown } | null;
      if (!body || typeof body.id !== 'string' || !body.id) throw new OutcomeUnknown(UNREACHABLE);
      return {
        providerReference: body.id,
        instructions: {
          provider: 'simulated',
          operator: payment.operator,
          amount: payment.amount,
          reference: payment.reference,
          merchant_number: null,
          merchant_name: config.PAYMENT_MERCHANT_NAME,
          steps: pushSteps(payment.amount, payment.payerPhone),
        },
      };
    },
    async status(payment) {
      let res: Response;
      try {
        res = await fetcher(`${base}/v1/payments?reference=${encodeURIComponent(payment.reference)}`, {
          headers: { authorization: `Bearer ${config.PAYMENT_AGGREGATOR_KEY}` },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch {
        throw new OutcomeUnknown(UNREACHABLE);
      }
      // Never received: the payer was never asked, so nothing can be paid.
      if (res.status === 404)
        return {
          reference: payment.reference,
          providerReference: null,
          state: 'failed',
          amount: null,
          currency: null,
          failureReason: 'Demande jamais reçue par l’agrégateur',
          raw: { status: 404 },
        };
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      if (!res.ok || !body) throw new OutcomeUnknown(UNREACHABLE);
      return simulatedReport(body);
    },
    parseCallback(rawBody, headers) {
      const notice = verifySignedWebhook(config.PAYMENT_WEBHOOK_SECRET, rawBody, headers);
      return {
        trusted: true,
        eventId: notice.event_id,
        report: {
          reference: notice.reference,
          providerReference: notice.provider_reference,
          state: notice.status,
          amount: notice.amount,
          currency: notice.currency,
          failureReason: notice.failure_reason ?? null,
          raw: { ...notice },
        },
      };
    },
  };
}

/** The simulator's view of a payment (GET /v1/payments?reference=…) in the providers' words. */
function simulatedReport(body: Record<string, unknown>): ProviderReport {
  const known = ['pending', 'paid', 'failed', 'expired', 'ambiguous'] as const;
  const state = known.find((k) => k === body.status) ?? 'ambiguous';
  return {
    reference: String(body.reference ?? ''),
    providerReference: typeof body.id === 'string' ? body.id : null,
    state,
    amount: typeof body.amount === 'number' ? body.amount : null,
    currency: typeof body.currency === 'string' ? body.currency : null,
    failureReason: typeof body.failure_reason === 'string' ? body.failure_reason : null,
    raw: body,
  };
}
