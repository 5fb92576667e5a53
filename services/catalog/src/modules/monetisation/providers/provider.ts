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
  /**
   * Throws `OutcomeUnknown` when the request may have reached the provider (a timeout, a cut
   * connection, a 5xx): the payment then waits for the status query, never fails on a guess.
   * Any other error means the provider refused it and nothing was asked of the payer.
   */
  initiate(payment: PaymentToInitiate): Promise<InitiatedPayment>;
  /**
   * The truth about a payment, asked of the provider (the reconciliation sweep, and every
   * callback the provider does not sign). Throws `OutcomeUnknown` when the provider cannot say now.
   */
  status?(payment: PaymentToQuery): Promise<ProviderReport>;
  /**
   * A callback as received. A signed one (checked here, 401 otherwise) is a report we may apply;
   * an unsigned one is only a doorbell: the payment it names is asked for its status.
   */
  parseCallback?(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): ProviderCallback;
  /** The answer the provider expects to a callback, when it is not `{ message }` with 200. */
  acknowledge?(callback: ProviderCallback): { status: number; body: unknown };
  /** Gives the money back (a « give change » for MyPVit); throws `OutcomeUnknown` as initiate does. */
  refund?(payment: PaymentToQuery, amount: number): Promise<{ providerReference: string | null }>;
  /** The least time between two status reads of one payment (the provider's limits). */
  readonly statusReadIntervalMs?: number;
}

/** What a payment is known by, when we ask the provider about it. */
export interface PaymentToQuery {
  id: string;
  reference: string;
  providerReference: string | null;
  amount: number;
  currency: string;
  operator: MobileMoneyOperator;
  payerPhone: string | null;
}

/** The states a provider can report (Airtel's own API has the same five). */
export type ProviderPaymentState = 'pending' | 'paid' | 'failed' | 'expired' | 'ambiguous';

/** What a provider says of a payment: its state, in its words (`raw` is stored as received). */
export interface ProviderReport {
  /** Our reference, as the provider echoes it. */
  reference: string;
  providerReference: string | null;
  state: ProviderPaymentState;
  amount: number | null;
  currency: string | null;
  failureReason: string | null;
  raw: Record<string, unknown>;
}

export type ProviderCallback =
  /** Signed by the provider: applied as it stands, once per event id. */
  | { trusted: true; eventId: string; report: ProviderReport }
  /** Not signed: names a payment (ours or the provider's id), which is then asked for its status. */
  | {
      trusted: false;
      reference: string | null;
      providerReference: string | null;
      raw: Record<string, unknown>;
    };

/**
 * The provider may have received the request and we do not know what it did (a timeout, a
 * connection cut, a 5xx). Never a reason to fail a payment: only the status query settles it.
 */
export class OutcomeUnknown extends Error {
  override readonly name = 'OutcomeUnknown';
}

export interface PaymentToInitiate {
  id: string;
  reference: string;
  amount: number;
  currency: string;
  operator: MobileMoneyOperator;
  payerPhone: string | null;
  /** eBilling asks for the payer's email; sent when known. */
  payerEmail?: string | null;
  description: string;
}

export interface InitiatedPayment {
  instructions: PaymentInstructions;
  providerReference: string | null;
  /** When the provider stops waiting for the payer, if it says (eBilling's expiry_period). */
  expiresAt?: Date | null;
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
  PAYMENT_REQUEST_TIMEOUT_MS?: number | undefined;
  /** eBilling (ebilling.ts): offered when its URL is set. */
  PAYMENT_EBILLING_URL?: string | undefined;
  PAYMENT_EBILLING_USERNAME?: string;
  PAYMENT_EBILLING_KEY?: string;
  PAYMENT_EBILLING_EXPIRY_MINUTES?: number;
  /** MyPVit (mypvit.ts): offered when its URL is set. */
  PAYMENT_MYPVIT_URL?: string | undefined;
  PAYMENT_MYPVIT_ACCOUNT?: string;
  PAYMENT_MYPVIT_PASSWORD?: string;
  PAYMENT_MYPVIT_RENEW_CODE?: string;
  PAYMENT_MYPVIT_REST_CODE?: string;
  PAYMENT_MYPVIT_STATUS_CODE?: string;
  PAYMENT_MYPVIT_CALLBACK_CODE?: string;
}
