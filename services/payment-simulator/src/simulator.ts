import { randomUUID, timingSafeEqual } from 'node:crypto';
import { signWebhook } from '@cartable/service-kit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { z } from 'zod';
import { type EbillingOptions, mountEbilling } from './ebilling.ts';
import { type MypvitOptions, mountMypvit } from './mypvit.ts';
import { mountSms, type SmsSimulatorOptions } from './sms.ts';

/**
 * A mobile-money aggregator for development and tests, behaving like the real ones (CinetPay,
 * eBilling, PayDunya…): the merchant asks for a payment, the payer approves the push on their
 * phone, and the aggregator tells the merchant later by a signed webhook, retrying until the
 * merchant answers 2xx. Nothing here is part of the product: it stands where the real aggregator
 * would, at PAYMENT_AGGREGATOR_URL.
 *
 * Outcomes are chosen by the payer's number, like a sandbox: one ending in 0000 fails (« Solde
 * insuffisant »), one ending in 9999 never confirms (the payment expires on our side), any other
 * is paid after `confirmDelayMs`.
 *
 * The same server also speaks two real Gabonese aggregators' protocols, each under its own path:
 * eBilling under /ebilling (ebilling.ts) and MyPVit under /mypvit (mypvit.ts), with their quirks
 * and more outcomes by number (outcomes.ts), and an SMS aggregator under /sms (sms.ts).
 */
export interface SimulatorOptions {
  /** The merchant's API key (Authorization: Bearer …). */
  apiKey: string;
  /** Shared with the merchant to sign webhooks. */
  webhookSecret: string;
  /** Time the payer takes to approve on their phone. */
  confirmDelayMs: number;
  /** Deliver each notification this many times (a retried delivery, as real aggregators do). */
  deliveries?: number;
  /** First retry after this; doubles each time. */
  retryBaseMs?: number;
  maxAttempts?: number;
  /** A pino logger (the JSON logs the launcher collects), or none. */
  logger?: Logger;
  /** eBilling and MyPVit: a create call answered this late for a number ending in 1111. */
  slowMs?: number;
  ebilling?: Partial<EbillingOptions>;
  mypvit?: Partial<MypvitOptions>;
  /** The SMS aggregator (Infobip's protocol) under /sms. */
  sms?: Partial<SmsSimulatorOptions>;
}

const createPaymentSchema = z.object({
  reference: z.string().min(1).max(100),
  amount: z.number().int().positive(),
  currency: z.string().min(3).max(3),
  operator: z.enum(['airtel_money', 'moov_money']),
  msisdn: z.string().min(8).max(20),
  callback_url: z.string().url(),
  description: z.string().max(200).optional(),
});
type CreatePayment = z.infer<typeof createPaymentSchema>;

export interface SimulatedPayment extends CreatePayment {
  id: string;
  status: 'pending' | 'paid' | 'failed';
  failure_reason: string | null;
  /** The notification as first sent: a redelivery repeats it byte for byte (same event_id). */
  notification: { body: string; event_id: string } | null;
  deliveries: Array<{ at: string; status: number | null; error: string | null }>;
}

export function buildPaymentSimulator(options: SimulatorOptions): FastifyInstance {
  const app = Fastify({ loggerInstance: (options.logger ?? pino({ level: 'silent' })) as FastifyBaseLogger });
  const payments = new Map<string, SimulatedPayment>();
  const byReference = new Map<string, string>();
  const timers = new Set<NodeJS.Timeout>();
  const retryBaseMs = options.retryBaseMs ?? 1000;
  const maxAttempts = options.maxAttempts ?? 8;
  let closing = false;
  // MyPVit's renew-secret takes a form; everything else here is JSON.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closing) run();
    }, ms);
    timers.add(timer);
  };

  const authorised = (header: string | undefined) => {
    const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
    const expected = Buffer.from(options.apiKey);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  /** One delivery of the notification, signed now; retried with backoff until a 2xx. */
  async function deliver(payment: SimulatedPayment, attempt = 1): Promise<void> {
    if (!payment.notification) return;
    const { body } = payment.notification;
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(payment.callback_url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-cartable-signature': signWebhook(options.webhookSecret, body),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      error = (err as Error).message;
    }
    payment.deliveries.push({ at: new Date().toISOString(), status, error });
    const settled = status !== null && status >= 200 && status < 300;
    // A merchant that says the request itself is wrong (4xx other than timeouts and limits)
    // will not change its mind: stop, as aggregators do.
    const refused = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
    if (!settled && !refused && attempt < maxAttempts) {
      later(retryBaseMs * 2 ** (attempt - 1), () => void deliver(payment, attempt + 1));
    }
  }

  function settle(payment: SimulatedPayment) {
    const failed = payment.msisdn.endsWith('0000');
    payment.status = failed ? 'failed' : 'paid';
    payment.failure_reason = failed ? 'Solde insuffisant' : null;
    const event_id = `evt_${randomUUID()}`;
    payment.notification = {
      event_id,
      body: JSON.stringify({
        event_id,
        reference: payment.reference,
        provider_reference: payment.id,
        status: payment.status,
        amount: payment.amount,
        currency: payment.currency,
        failure_reason: payment.failure_reason,
      }),
    };
    const copies = options.deliveries ?? 1;
    for (let i = 0; i < copies; i++) void deliver(payment);
  }

  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async () => ({ status: 'ok' }));

  app.post('/v1/payments', async (request, reply) => {
    if (!authorised(request.headers.authorization)) return reply.code(401).send({ message: 'Clé d’API invalide.' });
    const parsed = createPaymentSchema.safeParse(request.body);
    if (!parsed.success) {
      return reply
        .code(422)
        .send({ message: 'Demande de paiement invalide.', errors: z.flattenError(parsed.error).fieldErrors });
    }
    // The same reference twice is the same payment (the merchant retried after a timeout).
    const known = byReference.get(parsed.data.reference);
    if (known) {
      const payment = payments.get(known)!;
      return reply.code(200).send({ id: payment.id, status: payment.status });
    }
    const payment: SimulatedPayment = {
      ...parsed.data,
      id: `SIM-${randomUUID().slice(0, 8).toUpperCase()}`,
      status: 'pending',
      failure_reason: null,
      notification: null,
      deliveries: [],
    };
    payments.set(payment.id, payment);
    byReference.set(payment.reference, payment.id);
    if (!payment.msisdn.endsWith('9999')) later(options.confirmDelayMs, () => settle(payment));
    return reply.code(201).send({ id: payment.id, status: payment.status });
  });

  /** The status query by the merchant's reference: what a merchant asks when a callback is late or lost. */
  app.get<{ Querystring: { reference?: string } }>('/v1/payments', async (request, reply) => {
    if (!authorised(request.headers.authorization)) return reply.code(401).send({ message: 'Clé d’API invalide.' });
    const id = byReference.get(request.query.reference ?? '');
    const payment = id ? payments.get(id) : undefined;
    if (!payment) return reply.code(404).send({ message: 'Paiement inconnu.' });
    const { notification: _, ...visible } = payment;
    return visible;
  });

  app.get<{ Params: { id: string } }>('/v1/payments/:id', async (request, reply) => {
    if (!authorised(request.headers.authorization)) return reply.code(401).send({ message: 'Clé d’API invalide.' });
    const payment = payments.get(request.params.id);
    if (!payment) return reply.code(404).send({ message: 'Paiement inconnu.' });
    const { notification: _, ...visible } = payment;
    return visible;
  });

  /** A test control: deliver the notification again now (same event, signed at the new time). */
  app.post<{ Params: { id: string } }>('/v1/payments/:id/redeliver', async (request, reply) => {
    if (!authorised(request.headers.authorization)) return reply.code(401).send({ message: 'Clé d’API invalide.' });
    const payment = payments.get(request.params.id);
    if (!payment?.notification) return reply.code(404).send({ message: 'Aucune notification à renvoyer.' });
    await deliver(payment, maxAttempts);
    return { deliveries: payment.deliveries };
  });

  const ctx = {
    later,
    confirmDelayMs: options.confirmDelayMs,
    slowMs: options.slowMs ?? 15_000,
    retryBaseMs,
    maxAttempts,
  };
  mountEbilling(app, ctx, {
    username: options.ebilling?.username ?? 'dev-ebilling',
    sharedKey: options.ebilling?.sharedKey ?? 'dev-ebilling-key',
    callbackUrl: options.ebilling?.callbackUrl,
  });
  mountMypvit(app, ctx, {
    accountCode: options.mypvit?.accountCode ?? 'ACC_DEV',
    password: options.mypvit?.password ?? 'dev-mypvit-password',
    callbackUrl: options.mypvit?.callbackUrl,
    secretTtlMs: options.mypvit?.secretTtlMs ?? 3600_000,
  });

  mountSms(app, ctx, {
    apiKey: options.sms?.apiKey ?? 'dev-sms-key',
    webhookSecret: options.sms?.webhookSecret ?? 'dev-sms-webhook-secret',
    inboundUrl: options.sms?.inboundUrl,
    deliveryDelayMs: options.sms?.deliveryDelayMs ?? 1000,
    slowMs: options.sms?.slowMs ?? 15_000,
  });

  app.addHook('onClose', async () => {
    closing = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });
  return app;
}
