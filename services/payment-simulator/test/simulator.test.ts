import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@cartable/service-kit';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPaymentSimulator } from '../src/simulator.ts';

const KEY = 'test-aggregator-key';
const SECRET = 'test-webhook-secret-0123456789';

interface Received {
  body: string;
  signature: string | undefined;
}

/** A merchant endpoint that records what it receives and answers the codes it is given in turn. */
async function merchant(codes: number[] = []) {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-cartable-signature'] as string | undefined });
      res.statusCode = codes.shift() ?? 200;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return { received, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

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
    const shop = await merchant();
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
    const shop = await merchant();
    simulator = buildPaymentSimulator({ apiKey: KEY, webhookSecret: SECRET, confirmDelayMs: 0, deliveries: 2 });
    await ask(simulator, shop.url, '066000000');
    await until(() => shop.received.length === 2);
    const [a, b] = shop.received.map((r) => JSON.parse(r.body));
    expect(a).toEqual(b);
    expect(a).toMatchObject({ status: 'failed', failure_reason: 'Solde insuffisant' });
    await shop.close();
  });

  it('retries while the merchant fails, stops at its first 2xx or at a refusal', async () => {
    const shop = await merchant([503, 500, 200]);
    simulator = buildPaymentSimulator({ apiKey: KEY, webhookSecret: SECRET, confirmDelayMs: 0, retryBaseMs: 10 });
    const { id } = (await ask(simulator, shop.url)).json();
    await until(() => shop.received.length === 3);
    await new Promise((r) => setTimeout(r, 100));
    expect(shop.received).toHaveLength(3);
    const state = await simulator.inject({ url: `/v1/payments/${id}`, headers: { authorization: `Bearer ${KEY}` } });
    expect(state.json().deliveries.map((d: { status: number }) => d.status)).toEqual([503, 500, 200]);

    const refusing = await merchant([401]);
    await ask(simulator, refusing.url);
    await until(() => refusing.received.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(refusing.received).toHaveLength(1);
    await shop.close();
    await refusing.close();
  });

  it('never confirms a number ending in 9999 (the payment expires on the merchant side)', async () => {
    const shop = await merchant();
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
