import { invalid, unprocessable, upstreamFailed } from '@cartable/service-kit';
import { type PaymentProvider, type PaymentSettings, verifySignedWebhook } from './provider.ts';

const UNREACHABLE = 'Le service de paiement ne répond pas. Réessayez dans quelques minutes.';
const REFUSED = 'Le service de paiement a refusé la demande. Vérifiez le numéro et réessayez.';

/**
 * A mobile-money aggregator: we ask it to push a payment request to the member's phone, it
 * answers at once with its id, and confirms later by a signed webhook (provider.ts).
 * services/payment-simulator plays one in development and tests.
 */
export function simulatedProvider(config: PaymentSettings, fetcher: typeof fetch = fetch): PaymentProvider {
  const base = config.PAYMENT_AGGREGATOR_URL!.replace(/\/+$/, '');
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
          signal: AbortSignal.timeout(10_000),
        });
      } catch {
        throw upstreamFailed(UNREACHABLE);
      }
      if (res.status !== 201 && res.status !== 200)
        throw res.status >= 500 ? upstreamFailed(REFUSED) : invalid(REFUSED);
      const body = (await res.json().catch(() => null)) as { id?: unknown } | null;
      if (!body || typeof body.id !== 'string' || !body.id) throw upstreamFailed(UNREACHABLE);
      return {
        providerReference: body.id,
        instructions: {
          provider: 'simulated',
          operator: payment.operator,
          amount: payment.amount,
          reference: payment.reference,
          merchant_number: null,
          merchant_name: config.PAYMENT_MERCHANT_NAME,
          steps: [
            `Une demande de paiement de ${payment.amount} FCFA a été envoyée au ${payment.payerPhone}.`,
            'Confirmez-la sur votre téléphone avec votre code secret.',
            'Votre abonnement s’active dès que l’opérateur confirme le paiement.',
          ],
        },
      };
    },
    parseWebhook(rawBody, headers) {
      return verifySignedWebhook(config.PAYMENT_WEBHOOK_SECRET, rawBody, headers);
    },
  };
}
