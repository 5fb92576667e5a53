import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPaymentSimulator } from '../../payment-simulator/src/simulator.ts';
import { paymentEvents, payments, refunds } from '../src/db/schema.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * The status query is the truth: catalog against the real payment simulator (in this process),
 * behind a proxy that can answer catalog's payment request late and cut the simulator's callbacks,
 * as a slow aggregator and a catalog down longer than every retry would. Each payment ends paid
 * once, its boost active once, whatever the callbacks did; nobody is charged twice.
 */
const KEY = 'sim-key-0123456789';
const SECRET = 'sim-webhook-secret-0123456789';
let h: CatalogHarness;
let simulator: FastifyInstance;
let simulatorUrl: string;
let proxy: Server;
let callbacks: Server;
/** How the proxy in front of the simulator behaves now. */
const faults = { createDelayMs: 0, dropCallbacks: false };
const statusReads: string[] = [];
let plans: { boost: number; member: number };
let phoneSeq = 0;
/** A fresh payer number (the limits count per number); ending in 0000 fails, 9999 never confirms. */
const phone = (ending = '') => {
  const n = String(++phoneSeq).padStart(3, '0');
  return `07${n}${ending || '1234'}`;
};

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

/** Forwards catalog's calls to the simulator, late when asked. */
async function forward(req: IncomingMessage, res: ServerResponse) {
  const body = await readBody(req);
  if (req.method === 'GET') statusReads.push(req.url ?? '');
  const upstream = await fetch(`${simulatorUrl}${req.url}`, {
    method: req.method!,
    headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
    ...(body.length ? { body } : {}),
  });
  const text = await upstream.text();
  if (req.method === 'POST' && faults.createDelayMs) await new Promise((r) => setTimeout(r, faults.createDelayMs));
  res.writeHead(upstream.status, { 'content-type': 'application/json' });
  res.end(text);
}

/** The simulator's callbacks into catalog, or a 503 while catalog is « down ». */
async function deliver(req: IncomingMessage, res: ServerResponse) {
  const body = await readBody(req);
  if (faults.dropCallbacks) {
    res.writeHead(503).end();
    return;
  }
  const answer = await h.app.inject({
    method: 'POST',
    url: `/payments/webhooks/${req.url?.split('/').at(-1)}`,
    headers: {
      'content-type': 'application/json',
      'x-cartable-signature': String(req.headers['x-cartable-signature']),
    },
    payload: body,
  });
  res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(answer.body);
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  simulator = buildPaymentSimulator({
    apiKey: KEY,
    webhookSecret: SECRET,
    confirmDelayMs: 150,
    maxAttempts: 2,
    retryBaseMs: 50,
  });
  simulatorUrl = await simulator.listen({ port: 0, host: '127.0.0.1' });
  proxy = createServer((req, res) => void forward(req, res));
  callbacks = createServer((req, res) => void deliver(req, res));
  const [proxyUrl, callbackUrl] = await Promise.all([listen(proxy), listen(callbacks)]);
  h = await startCatalog({
    PAYMENT_AGGREGATOR_URL: proxyUrl,
    PAYMENT_AGGREGATOR_KEY: KEY,
    PAYMENT_WEBHOOK_SECRET: SECRET,
    PAYMENT_WEBHOOK_BASE_URL: callbackUrl,
    PAYMENT_REQUEST_TIMEOUT_MS: '300',
    PAYMENT_RECONCILE_FIRST_MS: '200',
    PAYMENT_RECONCILE_MAX_INTERVAL_MS: '400',
  });
  const list = await h.call('GET', '/subscription-plans');
  plans = {
    boost: list.body.data.find((p: { kind: string }) => p.kind === 'boost').id,
    member: list.body.data.find((p: { boost_slots: number }) => p.boost_slots === 3).id,
  };
}, 60_000);

afterAll(async () => {
  // The simulator first: its retries must not reach a catalog that is gone.
  await simulator?.close();
  await h?.teardown();
  await Promise.all([proxy, callbacks].map((s) => new Promise((r) => s?.close(r))));
});

type Member = { sub: string; token: string };
async function seller(name: string): Promise<Member> {
  const m = await h.token();
  await h.registerSeller(m.sub, name);
  return m;
}

async function listBook(owner: Member, title: string) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title,
      author: 'IPN',
      condition: 'bon',
      price: '3000',
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('6e'))],
    },
    {},
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.book.id as number;
}

const buyBoost = (who: Member, bookId: number, payer: string) =>
  h.call(
    'POST',
    '/subscriptions',
    { plan_id: plans.boost, book_id: bookId, provider: 'simulated', operator: 'airtel_money', payer_phone: payer },
    who.token,
  );

const paymentRow = async (id: string) => (await h.db.select().from(payments).where(eq(payments.id, id)))[0]!;
const sweep = () => h.catalog.monetisation.reconciliation.sweep();

/** Sweeps until `done` holds (the back-off is in the hundreds of ms here). */
async function sweepUntil(done: () => Promise<boolean>, rounds = 60) {
  for (let i = 0; i < rounds; i++) {
    await sweep();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('le paiement ne s’est pas réglé');
}

/** Until the simulator holds the payment as paid, with every delivery of its callback made. */
async function providerSettled(reference: string, deliveries = 2) {
  for (let i = 0; i < 200; i++) {
    const held = (await fetch(`${simulatorUrl}/v1/payments?reference=${reference}`, {
      headers: { authorization: `Bearer ${KEY}` },
    }).then((r) => r.json())) as { status?: string; deliveries?: unknown[] };
    if (held.status === 'paid' && (held.deliveries?.length ?? 0) >= deliveries) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('le simulateur n’a pas réglé le paiement');
}

async function activeBoosts(subscriptionId: string) {
  const detail = await h.call('GET', `/admin/subscriptions/${subscriptionId}`, undefined, (await admin()).token);
  return detail.body.subscription;
}
let adminMember: Member | undefined;
const admin = async () => {
  adminMember ??= await h.token({ is_admin: true });
  return adminMember;
};

describe('a payment whose answer comes late', () => {
  it('is not failed by a timeout: the status query finds it paid and the boost starts once', async () => {
    const awa = await seller('Awa Lente');
    const bookId = await listBook(awa, 'Mathématiques 6e – IPN');
    faults.createDelayMs = 800; // past catalog's 300 ms
    faults.dropCallbacks = true; // and the callback lost
    const res = await buyBoost(awa, bookId, phone());
    faults.createDelayMs = 0;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.payment.status, JSON.stringify(res.body)).toBe('ambiguous');
    expect(res.body.instructions.steps[0]).toMatch(/confirmez-la/);
    // The member cannot pay the same subscription twice meanwhile.
    const again = await h.call(
      'POST',
      `/subscriptions/${res.body.subscription.id}/renew`,
      { provider: 'simulated', operator: 'airtel_money', payer_phone: phone() },
      awa.token,
    );
    expect(again.status).toBe(409);
    await sweepUntil(async () => (await paymentRow(res.body.payment.id)).status === 'paid');
    faults.dropCallbacks = false;
    const sub = await activeBoosts(res.body.subscription.id);
    expect(sub.status).toBe('active');
    // The simulator's callback, delivered again after the query, changes nothing more.
    const simulated = await fetch(`${simulatorUrl}/v1/payments?reference=${res.body.payment.reference}`, {
      headers: { authorization: `Bearer ${KEY}` },
    }).then((r) => r.json() as Promise<{ id: string }>);
    await fetch(`${simulatorUrl}/v1/payments/${simulated.id}/redeliver`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect((await h.events('catalog.subscription.activated')).filter((e) => e.subscription_id === sub.id)).toHaveLength(
      1,
    );
  });
});

describe('callbacks that never arrive', () => {
  it('a payment paid while catalog refused every delivery is found by the sweep', async () => {
    const brice = await seller('Brice Coupé');
    const bookId = await listBook(brice, 'Français 6e – Cahier');
    faults.dropCallbacks = true;
    const res = await buyBoost(brice, bookId, phone());
    expect(res.status).toBe(201);
    expect(res.body.payment.status).toBe('pending');
    await providerSettled(res.body.payment.reference); // confirmed, both deliveries refused
    const before = statusReads.length;
    await sweepUntil(async () => (await paymentRow(res.body.payment.id)).status === 'paid');
    faults.dropCallbacks = false;
    expect(statusReads.length).toBeGreaterThan(before);
    expect((await activeBoosts(res.body.subscription.id)).status).toBe('active');
    const events = await h.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, res.body.payment.id));
    expect(events.map((e) => e.type)).toContain('status');
  });

  it('a refusal is read the same way; a payment never confirmed is asked until its horizon, then left to operators', async () => {
    const chantal = await seller('Chantal Refus');
    const refused = await buyBoost(chantal, await listBook(chantal, 'SVT 6e'), phone('0000'));
    const silent = await buyBoost(chantal, await listBook(chantal, 'Histoire 6e'), phone('9999'));
    faults.dropCallbacks = true;
    await sweepUntil(async () => (await paymentRow(refused.body.payment.id)).status === 'failed');
    faults.dropCallbacks = false;
    expect((await paymentRow(refused.body.payment.id)).failureReason).toBe('Solde insuffisant');
    // Past its horizon (expiry + margin), the silent one is asked no more and shown as « à vérifier ».
    await h.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 48 * 3600_000), createdAt: new Date(Date.now() - 73 * 3600_000) })
      .where(eq(payments.id, silent.body.payment.id));
    await sweepUntil(async () => (await paymentRow(silent.body.payment.id)).nextCheckAt === null);
    const row = await paymentRow(silent.body.payment.id);
    expect(row.status).toBe('ambiguous');
    const reads = statusReads.length;
    await sweep();
    expect(statusReads.length).toBe(reads);
    const cashier = await h.token({ permissions: ['payments.manage'] });
    const list = await h.call('GET', '/admin/payments?status=ambiguous', undefined, cashier.token);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(row.id);
    // An operator may still ask now.
    const now = await h.call('POST', `/admin/payments/${row.id}/reconcile`, undefined, cashier.token);
    expect(now.status).toBe(200);
    expect(now.body.payment.status).toBe('ambiguous');
    expect(statusReads.length).toBe(reads + 1);
    const member = await h.token();
    expect((await h.call('POST', `/admin/payments/${row.id}/reconcile`, undefined, member.token)).status).toBe(403);
  });
});

describe('money after the end', () => {
  it('a payment the member cancelled, paid later, is refunded at once and said so', async () => {
    const denis = await seller('Denis Annule');
    faults.dropCallbacks = true;
    const res = await buyBoost(denis, await listBook(denis, 'Anglais 6e'), phone());
    const manager = await h.token({ permissions: ['user_subscriptions.manage'] });
    const cancelled = await h.call(
      'POST',
      `/admin/subscriptions/${res.body.subscription.id}/cancel`,
      { reason: 'Demande du membre' },
      manager.token,
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await paymentRow(res.body.payment.id)).status).toBe('failed');
    await providerSettled(res.body.payment.reference); // the payer confirmed anyway
    // Failed on our side is not the provider's word: the sweep still asks, and the money is found.
    await sweepUntil(async () => (await paymentRow(res.body.payment.id)).status === 'paid');
    faults.dropCallbacks = false;
    expect((await paymentRow(res.body.payment.id)).nextCheckAt).toBeNull();
    const [refund] = await h.db.select().from(refunds).where(eq(refunds.paymentId, res.body.payment.id));
    expect(refund).toMatchObject({ amount: res.body.payment.amount, createdBy: null });
    expect(refund!.reason).toMatch(/remboursé automatiquement/);
    const told = (await h.events('catalog.payment.refunded')).filter((e) => e.payment_id === res.body.payment.id);
    expect(told).toHaveLength(1);
    expect((await activeBoosts(res.body.subscription.id)).status).toBe('cancelled');
  });
});

describe('repeated and crossed answers', () => {
  it('two replicas sweeping at once ask about each payment once per round', async () => {
    const eve = await seller('Eve Double');
    faults.dropCallbacks = true;
    const ids = [];
    for (const title of ['Physique 3e', 'Chimie 3e']) {
      const res = await buyBoost(eve, await listBook(eve, title), phone());
      ids.push(res.body.payment.id as string);
      await providerSettled(res.body.payment.reference);
    }
    await h.db
      .update(payments)
      .set({ nextCheckAt: new Date(Date.now() - 1000) })
      .where(eq(payments.userId, eve.sub));
    const before = statusReads.length;
    const [a, b] = await Promise.all([sweep(), sweep()]);
    faults.dropCallbacks = false;
    expect(a.asked + b.asked).toBe(2);
    expect(statusReads.length - before).toBe(2);
    for (const id of ids) expect((await paymentRow(id)).status).toBe('paid');
    const paid = await h.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.type, 'status'), eq(paymentEvents.status, 'paid')));
    for (const id of ids) expect(paid.filter((e) => e.paymentId === id)).toHaveLength(1);
  });
});

describe('payment requests pushed to phones', () => {
  it('are limited per number and per member in an hour, in French', async () => {
    const fred = await seller('Fred Insistant');
    const target = phone();
    const statuses = [];
    const created: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await buyBoost(fred, await listBook(fred, `Livre ${i}`), target);
      statuses.push(res.status);
      if (res.status === 201) created.push(res.body.payment.id);
      if (res.status === 429) expect(res.body.message).toMatch(/vers ce numéro/);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const more = [];
    for (let i = 0; i < 3; i++) {
      const res = await buyBoost(fred, await listBook(fred, `Autre ${i}`), phone());
      more.push(res.status);
      if (res.status === 201) created.push(res.body.payment.id);
    }
    expect(more).toEqual([201, 201, 429]);
    // The requests that went out are paid in the background: the accountant's figures below
    // are read once they all are.
    await sweepUntil(async () => (await Promise.all(created.map(paymentRow))).every((p) => p.status === 'paid'));
  });
});

describe('the accountant’s view', () => {
  it('lists the payments nobody is sure of first, and writes the day’s totals per operator as CSV', async () => {
    const cashier = await h.token({ permissions: ['payments.manage'] });
    const list = await h.call('GET', '/admin/payments', undefined, cashier.token);
    const statuses = list.body.data.map((p: { status: string }) => p.status);
    expect(statuses[0]).toBe('ambiguous');
    expect(statuses.lastIndexOf('ambiguous')).toBeLessThan(statuses.indexOf('paid'));

    const paid = await h.db.select().from(payments).where(eq(payments.status, 'paid'));
    const day = new Date(Date.now() + 3600_000).toISOString().slice(0, 10);
    const csv = await h.app.inject({
      method: 'GET',
      url: `/admin/payments/daily-totals.csv?from=${day}&to=${day}`,
      headers: { authorization: `Bearer ${cashier.token}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain('Opérateur');
    const airtel = lines.find((l) => l.includes('Airtel Money') && l.includes('simulé'))!;
    const cells = airtel.split(/[;,]/);
    const total = paid.filter((p) => p.operator === 'airtel_money').reduce((sum, p) => sum + p.amount, 0);
    expect(cells).toContain(String(total));
    const member = await h.token();
    const refused = await h.app.inject({
      method: 'GET',
      url: '/admin/payments/daily-totals.csv',
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(refused.statusCode).toBe(403);
  });
});
