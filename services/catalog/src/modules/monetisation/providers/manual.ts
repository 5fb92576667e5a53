import { operatorLabels } from '@cartable/contracts';
import { formatFcfa } from '@cartable/service-kit';
import type { PaymentProvider, PaymentSettings } from './provider.ts';

/** The member sends the money to our merchant number, then declares the SMS reference. */
export function manualProvider(config: PaymentSettings): PaymentProvider {
  return {
    name: 'manual',
    label: 'Déclaration manuelle',
    manual: true,
    async initiate(payment) {
      const merchant =
        payment.operator === 'airtel_money' ? config.PAYMENT_MERCHANT_AIRTEL : config.PAYMENT_MERCHANT_MOOV;
      const operator = operatorLabels[payment.operator];
      return {
        providerReference: null,
        instructions: {
          provider: 'manual',
          operator: payment.operator,
          amount: payment.amount,
          reference: payment.reference,
          merchant_number: merchant,
          merchant_name: config.PAYMENT_MERCHANT_NAME,
          steps: [
            `Ouvrez ${operator} sur votre téléphone.`,
            `Envoyez ${formatFcfa(payment.amount)} au ${merchant} (${config.PAYMENT_MERCHANT_NAME}), en indiquant la référence ${payment.reference} en motif si possible.`,
            'Notez la référence de la transaction reçue par SMS.',
            'Déclarez le paiement ici avec cette référence : un administrateur le vérifie et active votre abonnement.',
          ],
        },
      };
    },
  };
}
