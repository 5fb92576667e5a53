import { formatFcfa, unprocessable } from '@cartable/service-kit';
import { OutcomeUnknown, type PaymentToInitiate } from './provider.ts';

/** What the real aggregators' adapters share: one request, its timeout, the payer's number. */

export const UNREACHABLE = 'Le service de paiement ne répond pas. Réessayez dans quelques minutes.';
export const REFUSED = 'Le service de paiement a refusé la demande. Vérifiez le numéro et réessayez.';
export const UNAVAILABLE = 'Le paiement par cet agrégateur est indisponible pour le moment. Choisissez un autre moyen.';

export interface AdapterOptions {
  /** How long a request may take before its outcome is unknown (tests shorten it). */
  timeoutMs?: number;
  now?: () => number;
}

/** One request; a timeout or a cut connection means it may have been received. */
export async function send(fetcher: typeof fetch, url: string, init: RequestInit, timeoutMs: number) {
  try {
    return await fetcher(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    throw new OutcomeUnknown(UNREACHABLE);
  }
}

/** The body as a JSON object, or null (a body cut by the timeout too). */
export async function jsonBody(res: Response): Promise<Record<string, unknown> | null> {
  const body = await res.json().catch(() => null);
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/** The number as Gabon's operators write it: 0 and eight digits (074 00 00 00, +241 74 00 00 00). */
export function localMsisdn(phone: string) {
  return `0${phone.replace(/\D/g, '').slice(-8)}`;
}

export function payerPhoneOf(payment: Pick<PaymentToInitiate, 'payerPhone'>) {
  if (!payment.payerPhone)
    throw unprocessable(
      { payer_phone: ['Numéro de téléphone gabonais invalide (ex. 077 12 34 56)'] },
      'Indiquez le numéro à débiter',
    );
  return localMsisdn(payment.payerPhone);
}

export const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
export const amountOf = (value: unknown) => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * The steps shown to the member once the push is sent, the amount and number written as people
 * read them (« 1 000 FCFA », « 077 12 34 56 ») so they can be checked against the phone's prompt.
 */
export function pushSteps(amount: number, phone: string) {
  const digits = phone.replace(/\D/g, '');
  const readable = /^0\d{8}$/.test(digits) ? digits.replace(/^(\d{3})(\d{2})(\d{2})(\d{2})$/, '$1 $2 $3 $4') : phone;
  const price = formatFcfa(amount);
  return [
    `Une demande de paiement de ${price} a été envoyée au ${readable}.`,
    'Confirmez-la sur votre téléphone avec votre code secret.',
    'Votre abonnement s’active dès que l’opérateur confirme le paiement.',
  ];
}
