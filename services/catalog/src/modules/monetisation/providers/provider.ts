import { randomBytes } from 'node:crypto';
import {
  type MobileMoneyOperator,
  type PaymentInstructions,
  type PaymentWebhook,
  paymentProviderLabels,
  paymentWebhookSchema,
  subscriptionMessages,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
} from '@cartable/contracts';
import { invalid, signWebhook, unauthorized, verifyWebhookSignature } from '@cartable/service-kit';

const s = subscriptionMessages;

/**
 * A way to be paid. Every payment follows one life, whatever the provider:
 *
 *   initiate → `pending` → (`submitted`: a manual payment declared, waiting for an operator)
 *            → `paid` | `failed` | `expired` (nothing heard within PAYMENT_PENDING_HOURS)
 *
 * - `initiate(payment)` runs once, after the payment row is written: it tells the member what to
 *   do (`instructions`) and, for an aggregator, returns the aggregator's id of the payment
 *   (`providerReference`). It throws a domain error when the provider refuses or cannot be reached.
 * - `parseWebhook(rawBody, headers)` (aggregators only) checks a notification as received, before
 *   anything is parsed: HMAC-SHA256 of "<t>.<raw body>" in `x-cartable-signature: t=…,v1=…`,
 *   at most WEBHOOK_TOLERANCE_SECONDS away from now (401 otherwise), then the body's shape (422).
 *   What it returns is applied by ../domain/payments.ts: the reference found (else 404), the amount
 *   and currency compared (422, kept), the event id recorded once (a retry changes nothing).
 * - `manual` providers have no webhook: the member declares, someone with payments.manage decides.
 *
 * A real aggregator speaking this protocol is the `simulated` provider with another
 * PAYMENT_AGGREGATOR_URL, key and secret; one speaking another protocol is a new file here,
 * registered in createPaymentProviders (registry.ts).
 */
export interface PaymentProvider {
  readonly name: string;
  readonly label: string;
  /** The member declares the payment and an operator validates it. */
  readonly manual: boolean;
  initiate(payment: PaymentToInitiate): Promise<InitiatedPayment>;
  parseWebhook?(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): WebhookNotice;
}

export interface PaymentToInitiate {
  id: string;
  reference: string;
  amount: number;
  currency: string;
  operator: MobileMoneyOperator;
  payerPhone: string | null;
  description: string;
}

export interface InitiatedPayment {
  instructions: PaymentInstructions;
  providerReference: string | null;
}

export type WebhookNotice = PaymentWebhook;

export interface PaymentProviders {
  get(name: string): PaymentProvider | undefined;
  /** What GET /subscription-plans lists as accepted. */
  list(): PaymentProvider[];
}

export const providerLabel = (name: string) => paymentProviderLabels[name] ?? name;

/** Our reference of a payment: CRT- and 10 characters without look-alikes (0/O, 1/I). */
export function newPaymentReference() {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(10);
  return `CRT-${[...bytes].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

// ── signed webhooks (the HMAC scheme is service-kit's, shared with services/payment-simulator) ──

export { signWebhook };

/** Checks the signature and its age, then the body; throws 401 or 422 (French). */
export function verifySignedWebhook(
  secret: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  now = Date.now(),
): WebhookNotice {
  const check = verifyWebhookSignature(secret, rawBody, headers[WEBHOOK_SIGNATURE_HEADER], {
    toleranceSeconds: WEBHOOK_TOLERANCE_SECONDS,
    now,
  });
  // The age is checked after the signature, so a forged timestamp is never told apart from a bad one.
  if (!check.ok) throw unauthorized(check.reason === 'stale' ? s.webhookStale : s.webhookSignature);
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw invalid(s.webhookMismatch);
  }
  const parsed = paymentWebhookSchema.safeParse(json);
  if (!parsed.success) throw invalid(s.webhookMismatch);
  return parsed.data;
}

/** What the providers read of the service's configuration. */
export interface PaymentSettings {
  PAYMENT_MERCHANT_AIRTEL: string;
  PAYMENT_MERCHANT_MOOV: string;
  PAYMENT_MERCHANT_NAME: string;
  PAYMENT_AGGREGATOR_URL?: string | undefined;
  PAYMENT_AGGREGATOR_KEY: string;
  PAYMENT_WEBHOOK_SECRET: string;
  PAYMENT_WEBHOOK_BASE_URL: string;
}
