import { randomBytes } from 'node:crypto';
import { subscriptionMessages } from '@cartable/contracts';
import { invalid } from '@cartable/service-kit';
import {
  type AdapterOptions,
  amountOf,
  jsonBody,
  payerPhoneOf,
  pushSteps,
  REFUSED,
  send,
  text,
  UNAVAILABLE,
  UNREACHABLE,
} from './aggregator-http.ts';
import {
  OutcomeUnknown,
  type PaymentProvider,
  type PaymentSettings,
  type ProviderPaymentState,
  type ProviderReport,
} from './provider.ts';

const REFUND_REFUSED = 'MyPVit a refusé le remboursement (rendu de monnaie).';

/**
 * MyPVit (PVit): Airtel Money and Moov Money.
 *
 * - Every call carries `X-Secret`, a secret renewed by POST {url}/v2/{renew code}/renew-secret
 *   (form: operationAccountCode, password) that lives `expires_in` seconds (an hour). It is kept in
 *   memory, renewed shortly before it expires, and once more when a call answers 401 (a renewal
 *   elsewhere makes the previous secret obsolete at once).
 * - POST {url}/v2/{rest code}/rest with `transaction_type` PAYMENT pushes the request to the payer
 *   and answers PENDING with MyPVit's id (`reference_id`); GIVE_CHANGE sends money back and
 *   answers the final status at once (our refunds).
 * - Our reference must fit in 13 characters: CRT-XXXXXXXXXX is sent without its dash.
 * - The final status is posted as JSON to the callback URL registered under `callback_url_code`;
 *   it carries no signature we could check, so it is a doorbell, answered as MyPVit requires
 *   (`{ transactionId, responseCode: 200 }`), and the status is read:
 *   GET {url}/v2/{status code}/status?transactionId&accountOperationCode&transactionOperation.
 *   That the status read accepts our reference as well as MyPVit's id is an assumption (it is what
 *   finds a payment whose create timed out).
 */
export function mypvitProvider(
  config: PaymentSettings,
  fetcher: typeof fetch = fetch,
  options: AdapterOptions = {},
): PaymentProvider {
  const base = config.PAYMENT_MYPVIT_URL!.replace(/\/+$/, '');
  const account = config.PAYMENT_MYPVIT_ACCOUNT ?? '';
  const api = (code: string | undefined, path: string) => `${base}/v2/${encodeURIComponent(code ?? '')}/${path}`;
  const timeoutMs = options.timeoutMs ?? config.PAYMENT_REQUEST_TIMEOUT_MS ?? 10_000;
  const now = options.now ?? Date.now;

  let secret: { value: string; renewAt: number } | null = null;
  let renewing: Promise<string> | null = null;

  /** One renewal at a time: two would leave only the second valid. */
  function renew(): Promise<string> {
    renewing ??= (async () => {
      const res = await send(
        fetcher,
        api(config.PAYMENT_MYPVIT_RENEW_CODE, 'renew-secret'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ operationAccountCode: account, password: config.PAYMENT_MYPVIT_PASSWORD ?? '' }),
        },
        timeoutMs,
      ).catch(() => {
        // No secret, so no request of ours was sent: not an unknown outcome.
        throw new SecretRefused(0);
      });
      const body = res.ok ? await jsonBody(res) : null;
      const value = text(body?.secret);
      if (!value) throw new SecretRefused(res.status);
      const lifetimeMs = (amountOf(body?.expires_in) ?? 3600) * 1000;
      // Renewed before it lapses: a tenth of its life ahead, at most five minutes.
      secret = { value, renewAt: now() + lifetimeMs - Math.min(lifetimeMs / 10, 300_000) };
      return value;
    })().finally(() => {
      renewing = null;
    });
    return renewing;
  }

  const currentSecret = () => (secret && secret.renewAt > now() ? Promise.resolve(secret.value) : renew());

  /** A call with the secret; a 401 renews it (unless another call already did) and tries once more. */
  async function call(url: string, init: RequestInit): Promise<Response> {
    const request = (value: string) =>
      send(
        fetcher,
        url,
        { ...init, headers: { ...(init.headers as Record<string, string>), 'x-secret': value } },
        timeoutMs,
      );
    const used = await currentSecret();
    const res = await request(used);
    if (res.status !== 401) return res;
    await res.arrayBuffer().catch(() => undefined);
    const fresh = secret && secret.value !== used && secret.renewAt > now() ? secret.value : await renew();
    return request(fresh);
  }

  const rest = (body: Record<string, unknown>) =>
    call(api(config.PAYMENT_MYPVIT_REST_CODE, 'rest'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });

  return {
    name: 'mypvit',
    label: 'MyPVit (Airtel Money, Moov Money)',
    manual: false,
    statusReadIntervalMs: 15_000,
    async initiate(payment) {
      const msisdn = payerPhoneOf(payment);
      const reference = mypvitReference(payment.reference);
      let res: Response;
      try {
        res = await rest({
          amount: payment.amount,
          reference,
          service: 'RESTFUL',
          product: 'Cartable',
          callback_url_code: config.PAYMENT_MYPVIT_CALLBACK_CODE,
          customer_account_number: msisdn,
          merchant_operation_account_code: account,
          transaction_type: 'PAYMENT',
          // The member pays the amount shown; the fees are ours.
          owner_charge: 'MERCHANT',
          operator_code: payment.operator === 'airtel_money' ? 'AIRTEL_MONEY' : 'MOOV_MONEY',
          free_info: payment.description.slice(0, 15),
        });
      } catch (err) {
        // No secret: the payment request itself was never sent.
        if (err instanceof SecretRefused) throw invalid(UNAVAILABLE);
        throw err;
      }
      if (res.status >= 500) throw new OutcomeUnknown(UNREACHABLE);
      if (!res.ok) throw invalid(res.status === 401 || res.status === 403 ? UNAVAILABLE : REFUSED);
      const body = await jsonBody(res);
      if (String(body?.status ?? '').toUpperCase() === 'FAILED') throw invalid(REFUSED);
      const id = text(body?.reference_id);
      if (!id) throw new OutcomeUnknown(UNREACHABLE);
      return {
        providerReference: id,
        instructions: {
          provider: 'mypvit',
          operator: payment.operator,
          amount: payment.amount,
          reference: payment.reference,
          merchant_number: null,
          merchant_name: config.PAYMENT_MERCHANT_NAME,
          steps: pushSteps(payment.amount, msisdn),
        },
      };
    },

    async status(payment) {
      const ours = mypvitReference(payment.reference);
      // Their id when we have it, else (a create that timed out) ours.
      const ids = [payment.providerReference, ours].filter((id): id is string => !!id);
      for (const id of ids) {
        const query = new URLSearchParams({
          transactionId: id,
          accountOperationCode: account,
          transactionOperation: 'PAYMENT',
        });
        let res: Response;
        try {
          res = await call(`${api(config.PAYMENT_MYPVIT_STATUS_CODE, 'status')}?${query}`, {
            headers: { accept: 'application/json' },
          });
        } catch (err) {
          if (err instanceof SecretRefused) throw new OutcomeUnknown(UNREACHABLE);
          throw err;
        }
        if (res.status === 404) continue;
        const body = res.ok ? await jsonBody(res) : null;
        if (!body) throw new OutcomeUnknown(UNREACHABLE);
        return statusReport(payment.reference, payment.providerReference, body);
      }
      const never = !payment.providerReference;
      return {
        reference: payment.reference,
        providerReference: payment.providerReference,
        // MyPVit pushes on create: no trace of it means the payer was never asked.
        state: never ? 'failed' : 'ambiguous',
        amount: null,
        currency: null,
        failureReason: never ? 'Demande jamais reçue par MyPVit' : 'Transaction introuvable chez MyPVit',
        raw: { status: 404 },
      };
    },

    parseCallback(rawBody) {
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw invalid(subscriptionMessages.webhookMismatch);
      }
      if (!fields || typeof fields !== 'object' || Array.isArray(fields))
        throw invalid(subscriptionMessages.webhookMismatch);
      const merchantReference = text(fields.merchantReferenceId) ?? text(fields.merchant_reference_id);
      const providerReference = text(fields.transactionId) ?? text(fields.reference_id);
      if (!merchantReference && !providerReference) throw invalid(subscriptionMessages.webhookMismatch);
      return {
        trusted: false,
        reference: merchantReference ? ourReference(merchantReference) : null,
        providerReference,
        raw: fields,
      };
    },

    acknowledge(callback) {
      const transactionId = callback.trusted ? callback.report.providerReference : callback.providerReference;
      return { status: 200, body: { transactionId: transactionId ?? '', responseCode: 200 } };
    },

    async refund(payment, amount) {
      const msisdn = payerPhoneOf(payment);
      // A new reference per refund (13 characters): G, the payment's ten, two random.
      const reference = `G${mypvitReference(payment.reference).slice(-10)}${randomBytes(1).toString('hex').toUpperCase()}`;
      let res: Response;
      try {
        res = await rest({
          amount,
          reference,
          service: 'RESTFUL',
          product: 'Cartable',
          customer_account_number: msisdn,
          merchant_operation_account_code: account,
          transaction_type: 'GIVE_CHANGE',
          owner_charge: 'MERCHANT',
          operator_code: payment.operator === 'airtel_money' ? 'AIRTEL_MONEY' : 'MOOV_MONEY',
          free_info: 'Remboursement',
        });
      } catch (err) {
        if (err instanceof SecretRefused) throw invalid(UNAVAILABLE);
        throw err;
      }
      if (res.status >= 500) throw new OutcomeUnknown(UNREACHABLE);
      if (!res.ok) throw invalid(REFUND_REFUSED);
      const body = await jsonBody(res);
      if (!body) throw new OutcomeUnknown(UNREACHABLE);
      // Synchronous: the answer is final.
      if (String(body.status ?? '').toUpperCase() === 'FAILED') throw invalid(REFUND_REFUSED);
      return { providerReference: text(body.reference_id) };
    },
  };
}

/** The secret could not be renewed (wrong account or password, or MyPVit down). */
class SecretRefused extends Error {
  constructor(readonly httpStatus: number) {
    super(`MyPVit renew-secret: ${httpStatus}`);
  }
}

/** Our reference in MyPVit's 13 characters: CRT-ABCDEFGHJK → CRTABCDEFGHJK. */
export function mypvitReference(reference: string) {
  const short = reference.replace(/-/g, '');
  if (short.length > 13 || !/^[A-Za-z0-9]+$/.test(short)) throw invalid(REFUSED);
  return short;
}

/** Back from MyPVit's form: CRTABCDEFGHJK → CRT-ABCDEFGHJK (other references as they are). */
export function ourReference(short: string) {
  return /^CRT[A-Z0-9]{10}$/.test(short) ? `CRT-${short.slice(3)}` : short;
}

function statusReport(
  reference: string,
  providerReference: string | null,
  body: Record<string, unknown>,
): ProviderReport {
  const state = mypvitState(body.status);
  const echoed = text(body.merchant_reference_id);
  return {
    reference: echoed ? ourReference(echoed) : reference,
    providerReference: text(body.reference_id) ?? providerReference,
    state,
    amount: amountOf(body.amount),
    currency: null,
    failureReason: state === 'failed' ? (text(body.message) ?? 'Paiement refusé par l’opérateur') : null,
    raw: body,
  };
}

function mypvitState(value: unknown): ProviderPaymentState {
  switch (String(value ?? '').toUpperCase()) {
    case 'PENDING':
      return 'pending';
    case 'SUCCESS':
      return 'paid';
    case 'FAILED':
      return 'failed';
    default:
      return 'ambiguous';
  }
}
