import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MobileMoneyOperator } from '@cartable/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPaymentSimulator } from '../../payment-simulator/src/simulator.ts';
import { ebillingProvider } from '../src/modules/monetisation/providers/ebilling.ts';
import { mypvitProvider, mypvitReference, ourReference } from '../src/modules/monetisation/providers/mypvit.ts';
import {
  newPaymentReference,
  OutcomeUnknown,
  type PaymentProvider,
  type PaymentSettings,
} from '../src/modules/monetisation/providers/provider.ts';
import { createPaymentProviders } from '../src/modules/monetisation/providers/registry.ts';

/**
 * Each real aggregator's adapter against the simulator speaking its protocol (started here, on a
 * free port), end to end: the request, the payer's answer (chosen by the number's last digits),
 * the unsigned callback taken as a doorbell, the status read that tells the truth.
 */

const CONFIRM_MS = 40;
// Generous timeouts, but a create answered far beyond the short one: the machine may be busy.
const TIMEOUT_MS = 3000;
const SHORT_TIMEOUT_MS = 250;
const SLOW_MS = 1500;
const SECRET_TTL_MS = 1500;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let simulator: FastifyInstance;
let merchant: Server;
let simUrl: string;
const received: Received[] = [];
/** How the merchant answers MyPVit's callback: the adapter's own acknowledgement. */
let mypvitAck: PaymentProvider | undefined;

const settings = (): PaymentSettings => ({
  PAYMENT_MERCHANT_AIRTEL: '077 00 00 00',
  PAYMENT_MERCHANT_MOOV: '062 00 00 00',
  PAYMENT_MERCHANT_NAME: 'Cartable',
  PAYMENT_AGGREGATOR_KEY: 'unused',
  PAYMENT_WEBHOOK_SECRET: 'unused-webhook-secret',
  PAYMENT_WEBHOOK_BASE_URL: 'http://127.0.0.1:1/unused',
  PAYMENT_EBILLING_URL: `${simUrl}/ebilling`,
  PAYMENT_EBILLING_USERNAME: 'cartable',
  PAYMENT_EBILLING_KEY: 'cartable-shared-key',
  PAYMENT_EBILLING_EXPIRY_MINUTES: 30,
  PAYMENT_MYPVIT_URL: `${simUrl}/mypvit`,
  PAYMENT_MYPVIT_ACCOUNT: 'ACC_CARTABLE',
  PAYMENT_MYPVIT_PASSWORD: 'cartable-password',
  PAYMENT_MYPVIT_RENEW_CODE: 'RENEW1',
  PAYMENT_MYPVIT_REST_CODE: 'REST1',
  PAYMENT_MYPVIT_STATUS_CODE: 'STATUS1',
  PAYMENT_MYPVIT_CALLBACK_CODE: 'CB1',
});

const payment = (payerPhone: string | null, operator: MobileMoneyOperator = 'airtel_money') => ({
  id: randomUUID(),
  reference: newPaymentReference(),
  amount: 3000,
  currency: 'XOF',
  operator,
  payerPhone,
  description: 'Abonnement Vendeur (1 mois)',
});

const until = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const callbacksTo = (path: string) => received.filter((r) => r.path === path);
/** Waits until the payer has answered, read through the simulator's control (which changes nothing). */
const answered = async (control: string) =>
  until(async () => {
    const seen = (await (await fetch(`${simUrl}${control}`)).json()) as { state?: string; status?: string };
    // eBilling's bill has a `state`, MyPVit's transaction a `status`.
    return !['ready', 'pending', 'PENDING'].includes(seen.state ?? seen.status ?? 'pending');
  });

beforeAll(async () => {
  merchant = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(entry);
      let answer: { status: number; body: unknown } = { status: 200, body: { message: 'Reçu.' } };
      if (entry.path === '/mypvit' && mypvitAck?.acknowledge && mypvitAck.parseCallback) {
        answer = mypvitAck.acknowledge(mypvitAck.parseCallback(entry.body, entry.headers));
      }
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => merchant.listen(0, '127.0.0.1', r));
  const merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
  simulator = buildPaymentSimulator({
    apiKey: 'unused-aggregator-key',
    webhookSecret: 'unused-webhook-secret',
    confirmDelayMs: CONFIRM_MS,
    slowMs: SLOW_MS,
    retryBaseMs: 20,
    maxAttempts: 4,
    ebilling: { username: 'cartable', sharedKey: 'cartable-shared-key', callbackUrl: `${merchantUrl}/ebilling` },
    mypvit: {
      accountCode: 'ACC_CARTABLE',
      password: 'cartable-password',
      callbackUrl: `${merchantUrl}/mypvit`,
      secretTtlMs: SECRET_TTL_MS,
    },
  });
  await simulator.listen({ port: 0, host: '127.0.0.1' });
  simUrl = `http://127.0.0.1:${(simulator.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await simulator?.close();
  await new Promise<void>((r) => merchant?.close(() => r()));
});

describe('registry', () => {
  it('offers eBilling and MyPVit only when their URLs are set', () => {
    const names = (s: PaymentSettings) =>
      createPaymentProviders(s)
        .list()
        .map((p) => p.name);
    expect(names(settings())).toEqual(['manual', 'ebilling', 'mypvit']);
    expect(names({ ...settings(), PAYMENT_EBILLING_URL: undefined, PAYMENT_MYPVIT_URL: undefined })).toEqual([
      'manual',
    ]);
  });
});

describe('eBilling', () => {
  const provider = () => ebillingProvider(settings(), fetch, { timeoutMs: TIMEOUT_MS });
  const asQuery = (p: ReturnType<typeof payment>, providerReference: string | null) => ({ ...p, providerReference });

  it('creates the bill, pushes it, and the unsigned form callback is a doorbell; the bill read says paid', async () => {
    const ebilling = provider();
    const p = payment('+241 77 12 34 56');
    const before = Date.now();
    const started = await ebilling.initiate(p);
    expect(started.providerReference).toMatch(/^\d+$/);
    const expires = started.expiresAt!.getTime() - before;
    expect(expires).toBeGreaterThanOrEqual(30 * 60_000 - 50);
    expect(expires).toBeLessThan(30 * 60_000 + 5000);
    expect(started.instructions.steps[0]).toBe(
      'Une demande de paiement de 3\u00a0000\u00a0FCFA a été envoyée au 077 12 34 56.',
    );

    await until(() => callbacksTo('/ebilling').some((r) => r.body.toString().includes(p.reference)));
    const delivery = callbacksTo('/ebilling').find((r) => r.body.toString().includes(p.reference))!;
    const callback = ebilling.parseCallback!(delivery.body, delivery.headers);
    expect(callback).toMatchObject({
      trusted: false,
      reference: p.reference,
      providerReference: started.providerReference,
    });
    expect(callback.trusted ? null : callback.raw).toMatchObject({ paymentsystem: 'airtelmoney', state: 'paid' });

    const report = await ebilling.status!(asQuery(p, started.providerReference));
    expect(report).toMatchObject({ reference: p.reference, state: 'paid', amount: 3000, failureReason: null });
    // Sent once: no retry follows, whatever was answered.
    await pause(150);
    expect(callbacksTo('/ebilling').filter((r) => r.body.toString().includes(p.reference))).toHaveLength(1);
  });

  it('reads a refused number as failed, an unanswered push as expired, a lost answer as ambiguous then paid', async () => {
    const ebilling = provider();
    const refused = payment('066000000', 'moov_money');
    const expiring = payment('066333333');
    const lost = payment('066222222');
    const started = await Promise.all([refused, expiring, lost].map((p) => ebilling.initiate(p)));
    for (const s of started) await answered(`/ebilling/control/e_bills/${s.providerReference}`);
    const [r, e, l] = started.map((s, i) => asQuery([refused, expiring, lost][i]!, s.providerReference));
    expect(await ebilling.status!(r!)).toMatchObject({ state: 'failed', failureReason: 'Solde insuffisant' });
    expect(await ebilling.status!(e!)).toMatchObject({ state: 'expired' });
    expect((await ebilling.status!(l!)).state).toBe('ambiguous');
    expect((await ebilling.status!(l!)).state).toBe('paid');
  });

  it('a create answered too late is an unknown outcome; the status finds the bill by our reference', async () => {
    const ebilling = ebillingProvider(settings(), fetch, { timeoutMs: SHORT_TIMEOUT_MS });
    const p = payment('074111111');
    await expect(ebilling.initiate(p)).rejects.toBeInstanceOf(OutcomeUnknown);
    const report = await ebilling.status!(asQuery(p, null));
    expect(report.reference).toBe(p.reference);
    expect(report.providerReference).toMatch(/^\d+$/);
    // Never pushed (its id came too late): it waits, then expires on its own.
    expect(report.state).toBe('pending');
    // A reference eBilling never received: no bill, no push, nothing can be paid.
    expect(await ebilling.status!(asQuery(payment('074123456'), null))).toMatchObject({ state: 'failed' });
  });

  it('refuses with a French 422 on wrong credentials or no number, and an unreachable server is an unknown outcome', async () => {
    const wrong = ebillingProvider({ ...settings(), PAYMENT_EBILLING_KEY: 'nope' }, fetch, { timeoutMs: TIMEOUT_MS });
    await expect(wrong.initiate(payment('077123456'))).rejects.toMatchObject({ kind: 'invalid' });
    await expect(provider().initiate(payment(null))).rejects.toMatchObject({
      kind: 'invalid',
      errors: { payer_phone: expect.any(Array) },
    });
    const down = ebillingProvider({ ...settings(), PAYMENT_EBILLING_URL: 'http://127.0.0.1:9' }, fetch, {
      timeoutMs: TIMEOUT_MS,
    });
    await expect(down.initiate(payment('077123456'))).rejects.toBeInstanceOf(OutcomeUnknown);
    await expect(down.status!({ ...payment('077123456'), providerReference: '1' })).rejects.toBeInstanceOf(
      OutcomeUnknown,
    );
    expect(() => provider().parseCallback!(Buffer.from('state=paid'), {})).toThrow();
  });
});

describe('MyPVit', () => {
  const stats = async () =>
    (await fetch(`${simUrl}/mypvit/control/stats`)).json() as Promise<{ renewals: number; rejectedSecrets: number }>;
  const asQuery = (p: ReturnType<typeof payment>, providerReference: string | null) => ({ ...p, providerReference });

  it('sends our reference in 13 characters and maps it back', () => {
    expect(mypvitReference('CRT-ABCDEFGHJK')).toBe('CRTABCDEFGHJK');
    expect(ourReference('CRTABCDEFGHJK')).toBe('CRT-ABCDEFGHJK');
    expect(() => mypvitReference('CRT-ABCDEFGHJKLM')).toThrow();
  });

  it('pays; the webhook is a doorbell acknowledged in MyPVit’s shape, the status read says paid', async () => {
    const mypvit = mypvitProvider(settings(), fetch, { timeoutMs: TIMEOUT_MS });
    mypvitAck = mypvit;
    const p = payment('077123456');
    const started = await mypvit.initiate(p);
    expect(started.providerReference).toMatch(/^PAY/);

    const short = mypvitReference(p.reference);
    await until(() => callbacksTo('/mypvit').some((r) => r.body.toString().includes(short)));
    await pause(100);
    const deliveries = callbacksTo('/mypvit').filter((r) => r.body.toString().includes(short));
    // Acknowledged at the first delivery: MyPVit does not post it again.
    expect(deliveries).toHaveLength(1);
    const callback = mypvit.parseCallback!(deliveries[0]!.body, deliveries[0]!.headers);
    expect(callback).toMatchObject({
      trusted: false,
      reference: p.reference,
      providerReference: started.providerReference,
    });
    expect(mypvit.acknowledge!(callback)).toEqual({
      status: 200,
      body: { transactionId: started.providerReference, responseCode: 200 },
    });

    expect(await mypvit.status!(asQuery(p, started.providerReference))).toMatchObject({
      reference: p.reference,
      providerReference: started.providerReference,
      state: 'paid',
      amount: 3000,
    });
  });

  it('a merchant answering the webhook without the acknowledgement gets it again', async () => {
    const mypvit = mypvitProvider(settings(), fetch, { timeoutMs: TIMEOUT_MS });
    mypvitAck = undefined;
    const p = payment('077654321');
    await mypvit.initiate(p);
    const short = mypvitReference(p.reference);
    await until(() => callbacksTo('/mypvit').filter((r) => r.body.toString().includes(short)).length >= 2);
    mypvitAck = mypvit;
  });

  it('reads a refused number as failed, a timed-out push as failed, a lost answer as ambiguous then paid', async () => {
    const mypvit = mypvitProvider(settings(), fetch, { timeoutMs: TIMEOUT_MS });
    const refused = payment('066000000', 'moov_money');
    const timedOut = payment('066333333');
    const lost = payment('066222222');
    const started = await Promise.all([refused, timedOut, lost].map((p) => mypvit.initiate(p)));
    for (const s of started) await answered(`/mypvit/control/transactions/${s.providerReference}`);
    const [r, t, l] = started.map((s, i) => asQuery([refused, timedOut, lost][i]!, s.providerReference));
    expect(await mypvit.status!(r!)).toMatchObject({ state: 'failed', failureReason: 'Solde insuffisant' });
    // MyPVit has no expired state: a push left unanswered ends FAILED.
    expect(await mypvit.status!(t!)).toMatchObject({ state: 'failed', failureReason: 'Délai de confirmation dépassé' });
    expect((await mypvit.status!(l!)).state).toBe('ambiguous');
    expect((await mypvit.status!(l!)).state).toBe('paid');
  });

  it('a create answered too late is an unknown outcome; the status finds it by our reference', async () => {
    const mypvit = mypvitProvider(settings(), fetch, { timeoutMs: SHORT_TIMEOUT_MS });
    const p = payment('074111111');
    await expect(mypvit.initiate(p)).rejects.toBeInstanceOf(OutcomeUnknown);
    const first = await mypvit.status!(asQuery(p, null));
    expect(first.reference).toBe(p.reference);
    expect(first.providerReference).toMatch(/^PAY/);
    expect(['pending', 'paid']).toContain(first.state);
    await until(async () => (await mypvit.status!(asQuery(p, null))).state === 'paid');
    expect(await mypvit.status!(asQuery(payment('074123456'), null))).toMatchObject({ state: 'failed' });
  });

  it('renews its secret before it expires, and again when a stale one answers 401', async () => {
    let offset = 0;
    const mypvit = mypvitProvider(settings(), fetch, { timeoutMs: TIMEOUT_MS, now: () => Date.now() + offset });
    const p = payment('077223344');
    const before = await stats();
    const started = await mypvit.initiate(p);
    const afterFirst = await stats();
    expect(afterFirst.renewals).toBe(before.renewals + 1);

    // Its own clock says the secret is near its end: renewed first, no call refused.
    offset = 5000;
    await mypvit.status!(asQuery(p, started.providerReference));
    const proactive = await stats();
    expect(proactive.renewals).toBe(afterFirst.renewals + 1);
    expect(proactive.rejectedSecrets).toBe(afterFirst.rejectedSecrets);

    // The server's secret lapses before the adapter expects: a 401, a renewal, the same answer.
    offset = 0;
    await pause(SECRET_TTL_MS + 100);
    const report = await mypvit.status!(asQuery(p, started.providerReference));
    expect(['pending', 'paid']).toContain(report.state);
    const reactive = await stats();
    expect(reactive.rejectedSecrets).toBe(proactive.rejectedSecrets + 1);
    expect(reactive.renewals).toBe(proactive.renewals + 1);
  });

  it('gives change synchronously, and a refused give change is a French 422', async () => {
    const mypvit = mypvitProvider(settings(), fetch, { timeoutMs: TIMEOUT_MS });
    const p = payment('077123456');
    const started = await mypvit.initiate(p);
    const refund = await mypvit.refund!(asQuery(p, started.providerReference), 1500);
    expect(refund.providerReference).toMatch(/^GC/);
    const control = (await (
      await fetch(`${simUrl}/mypvit/control/transactions/${refund.providerReference}`)
    ).json()) as Record<string, unknown>;
    expect(control).toMatchObject({ transaction_type: 'GIVE_CHANGE', amount: 1500, status: 'SUCCESS' });
    expect(String(control.merchant_reference_id)).toHaveLength(13);
    const refused = payment('066000000');
    await expect(mypvit.refund!(asQuery(refused, 'PAY1'), 1500)).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('a wrong password or an unreachable MyPVit is a French 422 at initiate and an unknown outcome at the status read', async () => {
    const wrong = mypvitProvider({ ...settings(), PAYMENT_MYPVIT_PASSWORD: 'nope' }, fetch, { timeoutMs: TIMEOUT_MS });
    const p = payment('077123456');
    await expect(wrong.initiate(p)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(wrong.status!(asQuery(p, 'PAY1'))).rejects.toBeInstanceOf(OutcomeUnknown);
    expect(() => wrong.parseCallback!(Buffer.from('not json'), {})).toThrow();
    // Unreachable before any secret: the payment request itself was never sent.
    const down = mypvitProvider({ ...settings(), PAYMENT_MYPVIT_URL: 'http://127.0.0.1:9' }, fetch, {
      timeoutMs: TIMEOUT_MS,
    });
    await expect(down.initiate(p)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(down.status!(asQuery(p, 'PAY1'))).rejects.toBeInstanceOf(OutcomeUnknown);
  });
});
