import { randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { answerDelayMs, payerOutcome, type SimulatorContext, sleep } from './outcomes.ts';

/**
 * eBilling (Digitech Africa, billing-easy) as its merchants see it, under /ebilling:
 *
 *   POST /ebilling/api/v1/merchant/e_bills                   create an e-bill → { e_bill: { bill_id, … } }
 *   POST /ebilling/api/v1/merchant/e_bills/{id}/ussd_push    push it to the payer's phone
 *   GET  /ebilling/api/v1/merchant/e_bills/{id}              read it (its `state`)
 *   GET  /ebilling/api/v1/merchant/e_bills?external_reference=…  the bills of a merchant reference
 *
 * Basic auth with the merchant's username and shared key. The payment is notified by a form POST
 * to the merchant's callback URL (set on the merchant's account, not per bill), sent ONCE and
 * unsigned, whatever the merchant answers. The list by external reference is an assumption (the
 * specification lists « Get eBills » without saying how it filters).
 */
export interface EbillingOptions {
  username: string;
  sharedKey: string;
  /** Where the payment notification goes; none: nothing is sent. */
  callbackUrl?: string | undefined;
}

type BillState = 'ready' | 'pending' | 'paid' | 'failed' | 'expired' | 'unknown';

interface Bill {
  bill_id: string;
  payer_msisdn: string;
  payer_email: string | null;
  payer_name: string | null;
  amount: number;
  short_description: string;
  external_reference: string;
  expiry_period: number;
  created_at: string;
  expires_at: string;
  state: BillState;
  payment_system_name: string | null;
  transaction_id: string | null;
  reason: string | null;
  /** Read once as `unknown`, then paid. */
  settlesOnRead: boolean;
  /** When the payer's money was taken (a test measures the time to the merchant's activation). */
  paid_at?: string;
  callbacks: Array<{ at: string; status: number | null; error: string | null }>;
}

const createSchema = z.object({
  payer_msisdn: z.string().min(8).max(20),
  payer_email: z.string().max(200).optional(),
  payer_name: z.string().max(200).optional(),
  amount: z.coerce.number().int().positive(),
  short_description: z.string().min(1).max(200),
  external_reference: z.string().min(1).max(100),
  expiry_period: z.coerce.number().int().positive().default(60),
});

const pushSchema = z.object({
  payer_msisdn: z.string().min(8).max(20),
  payment_system_name: z.enum(['airtelmoney', 'moovmoney']),
});

export function mountEbilling(app: FastifyInstance, ctx: SimulatorContext, options: EbillingOptions) {
  const bills = new Map<string, Bill>();

  const authorised = (header: string | undefined) => {
    const given = Buffer.from(header?.replace(/^Basic\s+/i, '') ?? '');
    const expected = Buffer.from(Buffer.from(`${options.username}:${options.sharedKey}`).toString('base64'));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  /** The bill as the API shows it; a bill left unpaid past its expiry reads expired. */
  const view = (bill: Bill) => {
    if ((bill.state === 'ready' || bill.state === 'pending') && Date.parse(bill.expires_at) <= Date.now()) {
      bill.state = 'expired';
    }
    const { settlesOnRead: _, callbacks: __, ...visible } = bill;
    return visible;
  };

  /** The notification, once: no retry, whatever the merchant answers. */
  async function notify(bill: Bill) {
    if (!options.callbackUrl) return;
    const form = new URLSearchParams({
      billingid: bill.bill_id,
      reference: bill.external_reference,
      paymentsystem: bill.payment_system_name ?? '',
      transactionid: bill.transaction_id ?? '',
      amount: String(bill.amount),
      state: bill.state,
      payer_id: bill.payer_msisdn,
      payername: bill.payer_name ?? '',
      payeremail: bill.payer_email ?? '',
      shortdescription: bill.short_description,
      createdat: bill.created_at,
    });
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(options.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      error = (err as Error).message;
    }
    bill.callbacks.push({ at: new Date().toISOString(), status, error });
  }

  function pay(bill: Bill) {
    bill.state = 'paid';
    bill.paid_at = new Date().toISOString();
    bill.transaction_id = `MP${Date.now()}${randomInt(1000, 9999)}`;
    void notify(bill);
  }

  /** What the payer does with the push, after the time they take. */
  function answer(bill: Bill) {
    if (bill.state !== 'pending') return;
    switch (payerOutcome(bill.payer_msisdn)) {
      case 'never':
        return;
      case 'failed':
        bill.state = 'failed';
        bill.reason = 'Solde insuffisant';
        return;
      case 'expires':
        bill.state = 'expired';
        return;
      case 'ambiguous':
        bill.state = 'unknown';
        bill.settlesOnRead = true;
        return;
      default:
        pay(bill);
    }
  }

  const refuse = { message: 'Authentification refusée.' };

  app.post('/ebilling/api/v1/merchant/e_bills', async (request, reply) => {
    if (!authorised(request.headers.authorization)) return reply.code(401).send(refuse);
    const parsed = createSchema.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({ message: 'Facture invalide.', errors: z.flattenError(parsed.error).fieldErrors });
    }
    const now = Date.now();
    const bill: Bill = {
      ...parsed.data,
      payer_email: parsed.data.payer_email ?? null,
      payer_name: parsed.data.payer_name ?? null,
      bill_id: String(randomInt(1_000_000_000, 9_999_999_999)),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + parsed.data.expiry_period * 60_000).toISOString(),
      state: 'ready',
      payment_system_name: null,
      transaction_id: null,
      reason: null,
      settlesOnRead: false,
      callbacks: [],
    };
    bills.set(bill.bill_id, bill);
    // Created at once, answered late: the merchant gives up without the bill's id.
    if (payerOutcome(bill.payer_msisdn) === 'slow') await sleep(ctx.slowMs);
    return reply.code(201).send({ e_bill: view(bill) });
  });

  app.post<{ Params: { id: string } }>('/ebilling/api/v1/merchant/e_bills/:id/ussd_push', async (request, reply) => {
    if (!authorised(request.headers.authorization)) return reply.code(401).send(refuse);
    const bill = bills.get(request.params.id);
    if (!bill) return reply.code(404).send({ message: 'Facture introuvable.' });
    const parsed = pushSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ message: 'Push USSD invalide.' });
    if (view(bill).state !== 'ready') return reply.code(400).send({ message: 'Facture déjà traitée ou expirée.' });
    bill.state = 'pending';
    bill.payment_system_name = parsed.data.payment_system_name;
    bill.payer_msisdn = parsed.data.payer_msisdn;
    ctx.later(answerDelayMs(bill.payer_msisdn, ctx), () => answer(bill));
    return { message: 'Accepted' };
  });

  app.get<{ Params: { id: string } }>('/ebilling/api/v1/merchant/e_bills/:id', async (request, reply) => {
    if (!authorised(request.headers.authorization)) return reply.code(401).send(refuse);
    const bill = bills.get(request.params.id);
    if (!bill) return reply.code(404).send({ message: 'Facture introuvable.' });
    const shown = view(bill);
    if (bill.settlesOnRead) {
      bill.settlesOnRead = false;
      pay(bill);
    }
    return { e_bill: shown };
  });

  app.get<{ Querystring: { external_reference?: string } }>(
    '/ebilling/api/v1/merchant/e_bills',
    async (request, reply) => {
      if (!authorised(request.headers.authorization)) return reply.code(401).send(refuse);
      const wanted = request.query.external_reference;
      const found = [...bills.values()].filter((b) => !wanted || b.external_reference === wanted);
      return { e_bills: found.map(view) };
    },
  );

  /** A test control: the notification again, now or after `delay_ms` (no auth: never deployed). */
  app.post<{ Params: { id: string }; Querystring: { delay_ms?: string } }>(
    '/ebilling/control/e_bills/:id/notify',
    async (request, reply) => {
      const bill = bills.get(request.params.id);
      if (!bill) return reply.code(404).send({ message: 'Facture introuvable.' });
      const delay = Number(request.query.delay_ms ?? 0);
      if (delay > 0) {
        ctx.later(delay, () => void notify(bill));
        return reply.code(202).send({ callbacks: bill.callbacks });
      }
      await notify(bill);
      return { callbacks: bill.callbacks };
    },
  );

  /** A test control: the callbacks sent for a bill. */
  app.get<{ Params: { id: string } }>('/ebilling/control/e_bills/:id', async (request, reply) => {
    const bill = bills.get(request.params.id);
    if (!bill) return reply.code(404).send({ message: 'Facture introuvable.' });
    return { ...bill };
  });
}
