import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@cartable/service-kit';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { answerDelayMs, payerOutcome } from '../src/outcomes.ts';
import { buildPaymentSimulator } from '../src/simulator.ts';
import { recordingEndpoint, until } from './support.ts';

const KEY = 'test-aggregator-key';
const SECRET = 'test-webhook-secret-0123456789';

let simulator: FastifyInstance | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

const ask = (app: FastifyInstance, callback_url: string, msisdn = '077123456', reference = `CRT-${Date.now()}`) =>
  app.inject({
    method: 'POST',
    url: '/v1/payments',
    headers: { authorization: `Bearer ${KEY}` },
    payload: { reference, amount: 3000, currency: 'XOF', operator: 'airtel_money', msisdn, callback_url },
  });

describe('payment simulator', () => {
  it('refuses a wrong key and a malformed request', async () => {
    simulator = buildPaymentSimulator({ apiKey: KEY, webhookSecret: SECRET, confirmDelayMs: 0 });
    const wrongKey = await simulator.inject({
      method: 'POST',
      url: '/v1/payments',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrongKey.statusCode).toBe(401);
    const malformed = await simulator.inject({
      method: 'POST',
      url: '/v1/payments',
      headers: { authorization: `Bearer ${KEY}` },
      payload: { reference: 'x', amount: -1 },
    });
    expect(malformed.statusCode).toBe(422);
  });

  it('confirms later by a signed webhook, the same payment for the same reference', async () => {
    const shop = await recordingEndpoint();
    simulator = buildPaymentSimulator({ apiKey: KEY, webhookSecret: SECRET, confirmDelayMs: 50 });
    const first = await ask(simulator, shop.url, '077123456', 'CRT-SAME');
    expect(first.statusCode).toBe(201);
    const again = await ask(simulator, shop.url, '077123456', 'CRT-SAME');
    expect(again.json().id).toBe(first.json().id);
    await until(() => shop.received.length === 1);
    const [delivery] = shop.received;
    expect(verifyWebhookSignature(SECRET, delivery!.body, delivery!.signature, { toleranceSeconds: 300 }).ok).toBe(
      true,
    );
    expect(
      verifyWebhookSignature('another-secret-000000', delivery!.body, delivery!.signature, { toleranceSeconds: 300 }),
    ).toEqual({ ok: false, reason: 'signature' });
    expect(JSON.parse(delivery!.body)).toMatchObject({ reference: 'CRT-SAME', status: 'paid', amount: 3000 });
    await shop.close();
  });

  it('fails a number ending in 0000 and delivers each notification as often as asked', async () => {
    const shop = await recordingEndpoint();
    simulator = buildPaymentSimulator({ apiKey: KEY, webhookSecret: SECRET, confirmDelayMs: 0, deliveries: 2 });
    await ask(simulator, shop.url, '066000000');
    await until(() => shop.received.length === 2);
    const [a, b] = shop.received.map((r) => JSON.parse(r.body));
    expect(a).toEqual(b);
    expect(a).toMatchObject({ status: 'failed', failure_reason: 'Solde insuffisant' });
    await shop.close();
  });

  it('retries while the merchant fails, stops at its first 2xx or at a refusal', async () => {
    const shop = await recordingEndpoint([503, 500, 200]);
    simulator = buildPaymentSimulator({ apiKey: KEY, webhookSecret: SECRET, confirmDelayMs: 0, retryBaseMs: 10 });
    const { id } = (await ask(simulator, shop.url)).json();
    await until(() => shop.received.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(shop.received).toHaveLength(3);
    const state = await simulator.inject({ url: `/v1/payments/${id}`, headers: { authorization: `Bearer ${KEY}` } });
    expect(state.json().deliveries.map((d: { status: number }) => d.status)).toEqual([503, 500, 200]);

    const refusing = await recordingEndpoint([401]);
    await ask(simulator, refusing.url);
    await until(() => refusing.received.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(refusing.received).toHaveLength(1);
    await shop.close();
    await refusing.close();
  });

  it('never confirms a number ending in 9999 (the payment expires on the merchant side)', async () => {
    const shop = await recordingEndpoint();
    simulator = buildPaymentSimulator({ apiKey: KEY, webhookSecret: SECRET, confirmDelayMs: 0 });
    const { id } = (await ask(simulator, shop.url, '074999999')).json();
    await new Promise((r) => setTimeout(r, 100));
    expect(shop.received).toHaveLength(0);
    const state = await simulator.inject({ url: `/v1/payments/${id}`, headers: { authorization: `Bearer ${KEY}` } });
    expect(state.json().status).toBe('pending');
    await shop.close();
  });
});

describe('webhook signatures', () => {
  it('refuses a missing, malformed, altered or stale signature', async () => {
    const { signWebhook } = await import('@cartable/service-kit');
    const body = '{"a":1}';
    const now = Date.now();
    const header = signWebhook(SECRET, body, Math.floor(now / 1000));
    expect(verifyWebhookSignature(SECRET, body, header, { toleranceSeconds: 300, now }).ok).toBe(true);
    expect(verifyWebhookSignature(SECRET, body, undefined, { toleranceSeconds: 300 })).toEqual({
      ok: false,
      reason: 'missing',
    });
    expect(verifyWebhookSignature(SECRET, body, 't=abc,v1=zz', { toleranceSeconds: 300 })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(verifyWebhookSignature(SECRET, '{"a":2}', header, { toleranceSeconds: 300, now })).toEqual({
      ok: false,
      reason: 'signature',
    });
    expect(verifyWebhookSignature(SECRET, body, header, { toleranceSeconds: 300, now: now + 301_000 })).toEqual({
      ok: false,
      reason: 'stale',
    });
  });
});

/** A merchant endpoint that answers each delivery with what `respond` returns. */
async function endpoint(
  respond: (body: string) => { status: number; body: unknown } = () => ({ status: 200, body: {} }),
) {
  const received: Array<{ body: string; type: string | undefined }> = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ body, type: req.headers['content-type'] });
      const answer = respond(body);
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { received, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('eBilling protocol', () => {
  const basic = `Basic ${Buffer.from('shop:shop-key').toString('base64')}`;
  const bill = (app: FastifyInstance, msisdn: string, reference = `CRT-${Date.now()}`) =>
    app.inject({
      method: 'POST',
      url: '/ebilling/api/v1/merchant/e_bills',
      headers: { authorization: basic },
      payload: {
        payer_msisdn: msisdn,
        payer_email: 'membre@example.ga',
        amount: 3000,
        short_description: 'Abonnement',
        external_reference: reference,
        expiry_period: 30,
      },
    });
  const push = (app: FastifyInstance, id: string, msisdn: string) =>
    app.inject({
      method: 'POST',
      url: `/ebilling/api/v1/merchant/e_bills/${id}/ussd_push`,
      headers: { authorization: basic },
      payload: { payer_msisdn: msisdn, payment_system_name: 'airtelmoney' },
    });
  const read = (app: FastifyInstance, id: string) =>
    app.inject({ url: `/ebilling/api/v1/merchant/e_bills/${id}`, headers: { authorization: basic } });
  const build = (callbackUrl?: string, extra: Partial<Parameters<typeof buildPaymentSimulator>[0]> = {}) =>
    buildPaymentSimulator({
      apiKey: KEY,
      webhookSecret: SECRET,
      confirmDelayMs: 0,
      ebilling: { username: 'shop', sharedKey: 'shop-key', callbackUrl },
      ...extra,
    });

  it('refuses a wrong shared key and an invalid bill', async () => {
    simulator = build();
    const wrong = await simulator.inject({
      method: 'POST',
      url: '/ebilling/api/v1/merchant/e_bills',
      headers: { authorization: `Basic ${Buffer.from('shop:nope').toString('base64')}` },
      payload: {},
    });
    expect(wrong.statusCode).toBe(401);
    const invalidBill = await simulator.inject({
      method: 'POST',
      url: '/ebilling/api/v1/merchant/e_bills',
      headers: { authorization: basic },
      payload: { amount: 0 },
    });
    expect(invalidBill.statusCode).toBe(400);
  });

  it('pays a pushed bill and posts one unsigned form, never retried', async () => {
    const shop = await endpoint(() => ({ status: 500, body: {} }));
    simulator = build(shop.url, { retryBaseMs: 10 });
    const created = await bill(simulator, '077123456', 'CRT-EBILL1');
    expect(created.statusCode).toBe(201);
    const id = created.json().e_bill.bill_id as string;
    expect(created.json().e_bill).toMatchObject({ state: 'ready', external_reference: 'CRT-EBILL1' });
    expect((await push(simulator, id, '077123456')).statusCode).toBe(200);
    await until(() => shop.received.length === 1);
    await new Promise((r) => setTimeout(r, 150));
    expect(shop.received).toHaveLength(1);
    expect(shop.received[0]!.type).toBe('application/x-www-form-urlencoded');
    const form = Object.fromEntries(new URLSearchParams(shop.received[0]!.body));
    expect(form).toMatchObject({
      billingid: id,
      reference: 'CRT-EBILL1',
      paymentsystem: 'airtelmoney',
      amount: '3000',
      state: 'paid',
    });
    expect(form).not.toHaveProperty('signature');
    expect((await read(simulator, id)).json().e_bill.state).toBe('paid');
    const listed = await simulator.inject({
      url: '/ebilling/api/v1/merchant/e_bills?external_reference=CRT-EBILL1',
      headers: { authorization: basic },
    });
    expect(listed.json().e_bills.map((b: { bill_id: string }) => b.bill_id)).toEqual([id]);
    // A test control sends it again on demand.
    await simulator.inject({ method: 'POST', url: `/ebilling/control/e_bills/${id}/notify` });
    expect(shop.received).toHaveLength(2);
    await shop.close();
  });

  it('fails 0000, expires 3333, reads 2222 ambiguous once then paid, and answers 1111 late', async () => {
    simulator = build(undefined, { slowMs: 200 });
    const states: Record<string, string> = {};
    for (const msisdn of ['066000000', '066333333', '066222222']) {
      const id = (await bill(simulator, msisdn)).json().e_bill.bill_id as string;
      await push(simulator, id, msisdn);
      await new Promise((r) => setTimeout(r, 30));
      states[msisdn] = (await read(simulator, id)).json().e_bill.state;
      if (msisdn === '066222222') expect((await read(simulator, id)).json().e_bill.state).toBe('paid');
    }
    expect(states).toEqual({ '066000000': 'failed', '066333333': 'expired', '066222222': 'unknown' });
    const started = Date.now();
    expect((await bill(simulator, '066111111')).statusCode).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('MyPVit protocol', () => {
  const renew = (app: FastifyInstance, password = 'shop-password') =>
    app.inject({
      method: 'POST',
      url: '/mypvit/v2/RENEW/renew-secret',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ operationAccountCode: 'ACC_SHOP', password }).toString(),
    });
  const rest = (app: FastifyInstance, secret: string, body: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/mypvit/v2/REST/rest',
      headers: { 'x-secret': secret },
      payload: {
        amount: 3000,
        reference: 'CRTABCDEFGHJK',
        callback_url_code: 'CB',
        customer_account_number: '077123456',
        merchant_operation_account_code: 'ACC_SHOP',
        transaction_type: 'PAYMENT',
        operator_code: 'AIRTEL_MONEY',
        ...body,
      },
    });
  const status = (app: FastifyInstance, secret: string, id: string) =>
    app.inject({
      url: `/mypvit/v2/STATUS/status?transactionId=${id}&accountOperationCode=ACC_SHOP&transactionOperation=PAYMENT`,
      headers: { 'x-secret': secret },
    });
  const build = (callbackUrl?: string, secretTtlMs = 60_000) =>
    buildPaymentSimulator({
      apiKey: KEY,
      webhookSecret: SECRET,
      confirmDelayMs: 0,
      retryBaseMs: 10,
      mypvit: { accountCode: 'ACC_SHOP', password: 'shop-password', callbackUrl, secretTtlMs },
    });

  it('renews a secret that expires, and only the last one is valid', async () => {
    simulator = build(undefined, 150);
    expect((await renew(simulator, 'wrong')).statusCode).toBe(401);
    const first = (await renew(simulator)).json();
    expect(first).toMatchObject({ operation_account_code: 'ACC_SHOP', expires_in: 1 });
    expect((await rest(simulator, first.secret, {})).statusCode).toBe(200);
    const second = (await renew(simulator)).json().secret as string;
    const stale = await rest(simulator, first.secret, { reference: 'CRT2' });
    expect(stale.statusCode).toBe(401);
    expect(stale.json().error).toBe('AUTHENTICATION_FAILED');
    await new Promise((r) => setTimeout(r, 200));
    expect((await rest(simulator, second, { reference: 'CRT3' })).statusCode).toBe(401);
  });

  it('refuses a reference longer than 13 characters', async () => {
    simulator = build();
    const secret = (await renew(simulator)).json().secret as string;
    const res = await rest(simulator, secret, { reference: 'CRT-ABCDEFGHJK' });
    expect(res.statusCode).toBe(400);
  });

  it('posts the final status until it is acknowledged as { transactionId, responseCode: 200 }', async () => {
    let answers = 0;
    const shop = await endpoint((body) => {
      answers++;
      const { transactionId } = JSON.parse(body) as { transactionId: string };
      return answers === 1
        ? { status: 200, body: { message: 'ok' } }
        : { status: 200, body: { transactionId, responseCode: 200 } };
    });
    simulator = build(shop.url);
    const secret = (await renew(simulator)).json().secret as string;
    const created = (await rest(simulator, secret, {})).json();
    expect(created).toMatchObject({ status: 'PENDING', merchant_reference_id: 'CRTABCDEFGHJK' });
    await until(() => shop.received.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(shop.received).toHaveLength(2);
    expect(JSON.parse(shop.received[1]!.body)).toMatchObject({
      transactionId: created.reference_id,
      merchantReferenceId: 'CRTABCDEFGHJK',
      status: 'SUCCESS',
      transactionOperation: 'PAYMENT',
    });
    // The status is found by their id and by ours.
    expect((await status(simulator, secret, created.reference_id)).json().status).toBe('SUCCESS');
    expect((await status(simulator, secret, 'CRTABCDEFGHJK')).json().status).toBe('SUCCESS');
    expect((await status(simulator, secret, 'CRTNOTFOUND00')).statusCode).toBe(404);
    await shop.close();
  });

  it('sends a callback again late on demand (a test control)', async () => {
    const shop = await endpoint((body) => ({
      status: 200,
      body: { transactionId: (JSON.parse(body) as { transactionId: string }).transactionId, responseCode: 200 },
    }));
    simulator = build(shop.url);
    const secret = (await renew(simulator)).json().secret as string;
    const { reference_id } = (await rest(simulator, secret, { reference: 'CRTLATE000001' })).json();
    await until(() => shop.received.length === 1);
    const asked = Date.now();
    const late = await simulator.inject({
      method: 'POST',
      url: `/mypvit/control/transactions/${reference_id}/notify?delay_ms=150`,
    });
    expect(late.statusCode).toBe(202);
    expect(shop.received).toHaveLength(1);
    await until(() => shop.received.length === 2);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(140);
    expect(shop.received[1]!.body).toBe(shop.received[0]!.body);
    await shop.close();
  });

  it('reads 2222 AMBIGUOUS once then SUCCESS, and gives change synchronously', async () => {
    simulator = build();
    const secret = (await renew(simulator)).json().secret as string;
    await rest(simulator, secret, { reference: 'CRTAMBIGUOUS2', customer_account_number: '066222222' });
    await new Promise((r) => setTimeout(r, 30));
    expect((await status(simulator, secret, 'CRTAMBIGUOUS2')).json().status).toBe('AMBIGUOUS');
    expect((await status(simulator, secret, 'CRTAMBIGUOUS2')).json().status).toBe('SUCCESS');
    const change = await rest(simulator, secret, { reference: 'GCHANGE000001', transaction_type: 'GIVE_CHANGE' });
    expect(change.json()).toMatchObject({ status: 'SUCCESS', merchant_reference_id: 'GCHANGE000001' });
    const refused = await rest(simulator, secret, {
      reference: 'GCHANGE000002',
      transaction_type: 'GIVE_CHANGE',
      customer_account_number: '066000000',
    });
    expect(refused.json().status).toBe('FAILED');
  });
});

describe('the payer’s answer on their phone', () => {
  it('comes after the confirmation delay, three times it for a number ending in 4444', () => {
    expect(answerDelayMs('077123456', { confirmDelayMs: 5000 })).toBe(5000);
    expect(answerDelayMs('077 12 44 44', { confirmDelayMs: 5000 })).toBe(15_000);
    expect(payerOutcome('077124444')).toBe('late');
  });
});
