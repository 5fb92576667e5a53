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
  type PaymentToQuery,
  type ProviderPaymentState,
  type ProviderReport,
} from './provider.ts';

/**
 * eBilling (Digitech Africa, billing-easy): Airtel Money and Moov Money.
 *
 * 1. POST {url}/api/v1/merchant/e_bills (Basic auth: username and shared key) creates an e-bill
 *    for our reference (`external_reference`), valid `expiry_period` minutes → its `bill_id`;
 * 2. POST …/e_bills/{bill_id}/ussd_push asks the operator (`payment_system_name` airtelmoney or
 *    moovmoney) to push it to the payer's phone;
 * 3. eBilling posts a form (billingid, reference, paymentsystem, amount, state…) to the callback
 *    URL set on our merchant account: it is NOT signed, so it is only a doorbell, and the bill is
 *    read (GET …/e_bills/{bill_id}) for the truth.
 *
 * A create that timed out left us without the bill's id: the bill is then looked up by our
 * reference (GET …/e_bills?external_reference=…). That filter is an assumption (the specification
 * lists « Get eBills » without its parameters): against an API without it, the list holds other
 * bills, none matches, and the payment reads as never received.
 */
export function ebillingProvider(
  config: PaymentSettings,
  fetcher: typeof fetch = fetch,
  options: AdapterOptions = {},
): PaymentProvider {
  const bills = `${config.PAYMENT_EBILLING_URL!.replace(/\/+$/, '')}/api/v1/merchant/e_bills`;
  const authorization = `Basic ${Buffer.from(`${config.PAYMENT_EBILLING_USERNAME}:${config.PAYMENT_EBILLING_KEY}`).toString('base64')}`;
  const expiryMinutes = config.PAYMENT_EBILLING_EXPIRY_MINUTES ?? 30;
  const timeoutMs = options.timeoutMs ?? config.PAYMENT_REQUEST_TIMEOUT_MS ?? 10_000;
  const now = options.now ?? Date.now;
  const json = { authorization, 'content-type': 'application/json', accept: 'application/json' };

  /** A refusal (4xx) or a failure whose outcome is unknown (5xx). */
  const refusal = (res: Response) => {
    if (res.status >= 500) return new OutcomeUnknown(UNREACHABLE);
    return invalid(res.status === 401 || res.status === 403 ? UNAVAILABLE : REFUSED);
  };

  /** The USSD prompt on the payer's phone, for a bill created first. */
  async function push(billId: string, msisdn: string, operator: PaymentToQuery['operator']) {
    const pushed = await send(
      fetcher,
      `${bills}/${encodeURIComponent(billId)}/ussd_push`,
      {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          payer_msisdn: msisdn,
          payment_system_name: operator === 'airtel_money' ? 'airtelmoney' : 'moovmoney',
        }),
      },
      timeoutMs,
    );
    // A refused push leaves an unpaid bill that expires on its own.
    if (!pushed.ok) throw refusal(pushed);
    await pushed.arrayBuffer().catch(() => undefined);
  }

  return {
    name: 'ebilling',
    label: 'eBilling (Airtel Money, Moov Money)',
    manual: false,
    statusReadIntervalMs: 10_000,
    async initiate(payment) {
      const msisdn = payerPhoneOf(payment);
      const expiresAt = new Date(now() + expiryMinutes * 60_000);
      const created = await send(
        fetcher,
        bills,
        {
          method: 'POST',
          headers: json,
          body: JSON.stringify({
            payer_msisdn: msisdn,
            ...(payment.payerEmail ? { payer_email: payment.payerEmail } : {}),
            amount: payment.amount,
            short_description: payment.description.slice(0, 100),
            external_reference: payment.reference,
            expiry_period: expiryMinutes,
          }),
        },
        timeoutMs,
      );
      if (!created.ok) throw refusal(created);
      const body = await jsonBody(created);
      const bill = (body?.e_bill ?? body) as Record<string, unknown> | null;
      const billId = text(bill?.bill_id) ?? (typeof bill?.bill_id === 'number' ? String(bill.bill_id) : null);
      // Created perhaps, its id unread: the status query finds it by our reference.
      if (!billId) throw new OutcomeUnknown(UNREACHABLE);

      await push(billId, msisdn, payment.operator);
      return {
        providerReference: billId,
        expiresAt,
        instructions: {
          provider: 'ebilling',
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
      const read = payment.providerReference
        ? `${bills}/${encodeURIComponent(payment.providerReference)}`
        : `${bills}?external_reference=${encodeURIComponent(payment.reference)}`;
      const res = await send(fetcher, read, { headers: { authorization, accept: 'application/json' } }, timeoutMs);
      if (res.status === 404 && payment.providerReference) {
        // We were given this id, and it is not found: nothing can be concluded.
        return report(payment.reference, { bill_id: payment.providerReference }, 'ambiguous', 'Facture introuvable');
      }
      const body = res.ok ? await jsonBody(res) : null;
      if (!body) throw new OutcomeUnknown(UNREACHABLE);
      let bill: Record<string, unknown> | undefined;
      if (payment.providerReference) bill = (body.e_bill ?? body) as Record<string, unknown>;
      else {
        const list = (Array.isArray(body.e_bills) ? body.e_bills : []) as Array<Record<string, unknown>>;
        const ours = list.filter((b) => b.external_reference === payment.reference);
        bill = ours.find((b) => billState(b.state) === 'paid') ?? ours.at(-1);
        // No bill for our reference: it was never created, so no push reached the payer.
        if (!bill) return report(payment.reference, {}, 'failed', 'Demande jamais reçue par eBilling');
        // Created while our create call timed out: we never had its id, so never sent its push.
        // Sent now, once: the next read goes by the id this report carries.
        const billId = text(bill.bill_id) ?? (typeof bill.bill_id === 'number' ? String(bill.bill_id) : null);
        if (billId && billState(bill.state) === 'pending' && payment.payerPhone)
          await push(billId, payerPhoneOf(payment), payment.operator);
      }
      const state = billState(bill.state);
      const reason =
        text(bill.reason) ??
        (state === 'failed' ? 'Paiement refusé par l’opérateur' : state === 'expired' ? 'Facture expirée' : null);
      return report(text(bill.external_reference) ?? payment.reference, bill, state, reason);
    },

    parseCallback(rawBody, headers) {
      const fields = callbackFields(rawBody, headers['content-type']);
      const reference = text(fields.reference);
      const providerReference = text(fields.billingid);
      if (!reference && !providerReference) throw invalid(subscriptionMessages.webhookMismatch);
      return { trusted: false, reference, providerReference, raw: fields };
    },
  };
}

/** eBilling's bill states in the providers' words; anything else is not understood, so ambiguous. */
function billState(value: unknown): ProviderPaymentState {
  switch (String(value ?? '').toLowerCase()) {
    case 'ready':
    case 'pending':
      return 'pending';
    case 'paid':
    case 'processed':
      return 'paid';
    case 'expired':
      return 'expired';
    case 'failed':
    case 'cancelled':
    case 'canceled':
      return 'failed';
    default:
      return 'ambiguous';
  }
}

function report(
  reference: string,
  bill: Record<string, unknown>,
  state: ProviderPaymentState,
  failureReason: string | null,
): ProviderReport {
  const id = bill.bill_id;
  return {
    reference,
    providerReference: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
    state,
    amount: amountOf(bill.amount),
    // eBilling states no currency: its amounts are in FCFA.
    currency: null,
    failureReason,
    raw: bill,
  };
}

/** The callback's fields: a form, as eBilling sends it (JSON accepted too). */
function callbackFields(rawBody: Buffer, contentType: string | string[] | undefined): Record<string, string> {
  const body = rawBody.toString('utf8');
  if (String(contentType ?? '').includes('json')) {
    try {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, v == null ? '' : String(v)]));
      }
    } catch {
      // fall through: not JSON after all
    }
    throw invalid(subscriptionMessages.webhookMismatch);
  }
  return Object.fromEntries(new URLSearchParams(body));
}
