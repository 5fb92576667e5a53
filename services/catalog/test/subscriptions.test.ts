import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookTransfers,
  boostedBooks,
  paymentEvents,
  payments,
  subscriptionPlans,
  subscriptions,
} from '../src/db/schema.ts';
import { runSubscriptionSweep, signWebhook } from '../src/modules/monetisation/index.ts';
import { bookContactsProjection } from '../src/modules/trust/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let seller: Member;
let other: Member;
let buyer: Member;
let unverified: Member;
let cashier: Member; // payments.manage
let manager: Member; // user_subscriptions.manage
let reporter: Member; // reports.view
let admin: Member;
let aggregator: Server;
const received: Array<{ url: string; auth: string | undefined; body: Record<string, unknown> }> = [];
const SECRET = 'test-webhook-secret-0123456789';
const DAY = 24 * 3600_000;

const plans: Record<string, number> = {};

const register = (m: Member, name: string) => h.registerSeller(m.sub, name);

async function listBook(owner: Member, title: string) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title,
      author: 'Collection Excellence',
      condition: 'bon',
      price: '5000',
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('Terminale D'))],
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

const smsRef = () => `MP${randomBytes(5).toString('hex').toUpperCase()}`;

/** Buys a plan with the manual provider; returns the checkout answer. */
async function buy(who: Member, planId: number, bookId?: number) {
  const res = await h.call(
    'POST',
    '/subscriptions',
    { plan_id: planId, ...(bookId ? { book_id: bookId } : {}), provider: 'manual', operator: 'airtel_money' },
    who.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const declare = (who: Member, paymentId: string, reference = smsRef()) =>
  h.call(
    'POST',
    `/payments/${paymentId}/declaration`,
    { operator: 'airtel_money', transaction_reference: reference, payer_phone: '077 12 34 56' },
    who.token,
  );
const validate = (paymentId: string, who = cashier) =>
  h.call('POST', `/admin/payments/${paymentId}/validate`, {}, who.token);

/** Buys, declares and validates: an active subscription. */
async function activeSubscription(who: Member, planId: number, bookId?: number) {
  const checkout = await buy(who, planId, bookId);
  expect((await declare(who, checkout.payment.id)).status).toBe(200);
  const res = await validate(checkout.payment.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { subscriptionId: checkout.subscription.id as string, paymentId: checkout.payment.id as string };
}

const detail = async (id: string, who = seller) =>
  (await h.call('GET', `/subscriptions/${id}`, undefined, who.token)).body.subscription;

/** A signed webhook, as the aggregator sends it. */
async function webhook(body: Record<string, unknown>, options: { secret?: string; t?: number; raw?: string } = {}) {
  const raw = options.raw ?? JSON.stringify(body);
  const res = await h.app.inject({
    method: 'POST',
    url: '/payments/webhooks/simulated',
    headers: {
      'content-type': 'application/json',
      'x-cartable-signature': signWebhook(options.secret ?? SECRET, raw, options.t),
    },
    payload: raw,
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  // The aggregator: answers 201 with its id, as services/payment-simulator does.
  aggregator = createServer((req: IncomingMessage, res) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => {
      received.push({ url: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(data || '{}') });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `AGG-${randomBytes(4).toString('hex')}`, status: 'pending' }));
    });
  });
  await new Promise<void>((resolve) => aggregator.listen(0, '127.0.0.1', resolve));
  const port = (aggregator.address() as AddressInfo).port;
  h = await startCatalog({
    PAYMENT_AGGREGATOR_URL: `http://127.0.0.1:${port}`,
    PAYMENT_AGGREGATOR_KEY: 'agg-key',
    PAYMENT_WEBHOOK_SECRET: SECRET,
    PAYMENT_WEBHOOK_BASE_URL: 'http://gateway.test/api/payments/webhooks',
  });
  seller = await h.token();
  other = await h.token();
  buyer = await h.token();
  unverified = await h.token({ email_verified: false });
  cashier = await h.token({ permissions: ['payments.manage'] });
  manager = await h.token({ permissions: ['user_subscriptions.manage'] });
  reporter = await h.token({ permissions: ['reports.view'] });
  admin = await h.token({ is_admin: true });
  await register(seller, 'Awa Vendeuse');
  await register(other, 'Olivier Autre');
  await register(buyer, 'Brice Acheteur');
  for (const p of await h.db.select().from(subscriptionPlans)) plans[p.seedKey!] = p.id;
});
afterAll(async () => {
  await h?.teardown();
  await new Promise((resolve) => aggregator?.close(resolve));
});

describe('plans', () => {
  it('are seeded once and listed to everyone with the providers accepted', async () => {
    const { seedPlans } = await import('../src/modules/monetisation/index.ts');
    await seedPlans(h.db);
    const res = await h.call('GET', '/subscription-plans');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual([
      'Mise en avant 7 jours',
      'Mise en avant 30 jours',
      'Vendeur',
      'Librairie',
    ]);
    expect(res.body.data[2]).toMatchObject({ kind: 'member', price: 5000, boost_slots: 3, seller_badge: true });
    expect(res.body.providers.map((p: { name: string }) => p.name)).toEqual(['manual', 'simulated']);
  });

  it('are written by administrators only; a plan with subscriptions is deactivated, not deleted', async () => {
    const body = { kind: 'boost', name: 'Essai 1 jour', price: 200, duration_days: 1 };
    expect((await h.call('POST', '/admin/subscription-plans', body, cashier.token)).status).toBe(403);
    const created = await h.call('POST', '/admin/subscription-plans', body, admin.token);
    expect(created.status).toBe(201);
    const id = created.body.plan.id;
    const bad = await h.call('POST', '/admin/subscription-plans', { ...body, price: -1 }, admin.token);
    expect(bad.status).toBe(422);
    const bookId = await listBook(seller, 'Plan en usage');
    await buy(seller, id, bookId);
    const del = await h.call('DELETE', `/admin/subscription-plans/${id}`, undefined, admin.token);
    expect(del.status).toBe(409);
    expect(del.body.message).toMatch(/désactivez-le/);
    const off = await h.call('PUT', `/admin/subscription-plans/${id}`, { ...body, active: false }, admin.token);
    expect(off.status).toBe(200);
    const refused = await h.call(
      'POST',
      '/subscriptions',
      { plan_id: id, book_id: await listBook(seller, 'Plan inactif'), operator: 'airtel_money' },
      seller.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Ce plan n’est plus proposé.');
  });
});

describe('buying a boost and paying it by hand', () => {
  let bookId: number;
  let checkout: {
    subscription: { id: string; book: { id: number } | null };
    payment: { id: string; reference: string };
  };

  beforeAll(async () => {
    bookId = await listBook(seller, 'Physique Terminale D – à booster');
  });

  it('is refused with an unverified e-mail, on someone else’s listing, or without a listing', async () => {
    const body = { plan_id: plans['boost-7'], book_id: bookId, provider: 'manual', operator: 'airtel_money' };
    expect((await h.call('POST', '/subscriptions', body, unverified.token)).status).toBe(403);
    const notOwner = await h.call('POST', '/subscriptions', body, other.token);
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.message).toBe('Seul le propriétaire de l’annonce peut la mettre en avant.');
    const noBook = await h.call('POST', '/subscriptions', { ...body, book_id: undefined }, seller.token);
    expect(noBook.status).toBe(422);
    const memberWithBook = await h.call(
      'POST',
      '/subscriptions',
      { ...body, plan_id: plans['member-seller'] },
      seller.token,
    );
    expect(memberWithBook.status).toBe(422);
    const unknown = await h.call('POST', '/subscriptions', { ...body, plan_id: 999_999 }, seller.token);
    expect(unknown.status).toBe(404);
  });

  it('creates a pending subscription, its payment and the merchant number; a retried key creates nothing more', async () => {
    const body = { plan_id: plans['boost-7'], book_id: bookId, provider: 'manual', operator: 'moov_money' };
    const send = () =>
      h.app.inject({
        method: 'POST',
        url: '/subscriptions',
        headers: { authorization: `Bearer ${seller.token}`, 'idempotency-key': 'boost-key-1' },
        payload: body,
      });
    const first = await send();
    expect(first.statusCode).toBe(201);
    checkout = first.json();
    expect(checkout.subscription).toMatchObject({ status: 'pending_payment', days_left: 0, books: [] });
    expect(checkout.subscription.book).toMatchObject({ id: bookId });
    expect(checkout.payment).toMatchObject({ status: 'pending', amount: 1000, provider: 'manual' });
    expect(checkout.payment.reference).toMatch(/^CRT-[A-Z0-9]{10}$/);
    expect(first.json().instructions).toMatchObject({ merchant_number: '062 00 00 00', merchant_name: 'Cartable' });
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.json().subscription.id).toBe(checkout.subscription.id);
    const [{ n } = { n: 0 }] = await h.db
      .select({ n: sql<number>`count(*)::int` })
      .from(subscriptions)
      .where(eq(subscriptions.bookId, bookId));
    expect(n).toBe(1);
  });

  it('is not active without payment: no boost, no listings to choose, nothing to validate yet', async () => {
    expect((await detail(checkout.subscription.id)).status).toBe('pending_payment');
    const books = await h.call(
      'PUT',
      `/subscriptions/${checkout.subscription.id}/books`,
      { book_ids: [bookId] },
      seller.token,
    );
    expect(books.status).toBe(409);
    const early = await validate(checkout.payment.id);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Ce paiement n’attend pas de validation.');
    const featured = await h.call('GET', '/books/featured');
    expect(featured.body.featured_books.find((b: { id: number }) => b.id === bookId)?.sponsored).toBeUndefined();
  });

  it('is another member’s business: 404 everywhere', async () => {
    const id = checkout.subscription.id;
    expect((await h.call('GET', `/subscriptions/${id}`, undefined, other.token)).status).toBe(404);
    expect((await h.call('POST', `/subscriptions/${id}/renew`, { operator: 'airtel_money' }, other.token)).status).toBe(
      404,
    );
    expect((await h.call('PUT', `/subscriptions/${id}/books`, { book_ids: [] }, other.token)).status).toBe(404);
    expect((await declare(other, checkout.payment.id)).status).toBe(404);
    expect((await h.call('GET', `/payments/${checkout.payment.id}/receipt`, undefined, other.token)).status).toBe(404);
    const mine = await h.call('GET', '/subscriptions', undefined, other.token);
    expect(mine.body.data).toHaveLength(0);
  });

  it('is declared, validated once, and boosts the listing', async () => {
    const declared = await declare(seller, checkout.payment.id);
    expect(declared.status).toBe(200);
    expect(declared.body.payment.status).toBe('submitted');
    expect((await declare(seller, checkout.payment.id)).status).toBe(409);
    expect((await validate(checkout.payment.id, manager)).status).toBe(403);
    const ok = await validate(checkout.payment.id);
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Paiement validé : l’abonnement est actif.');
    const twice = await validate(checkout.payment.id);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Ce paiement a déjà été validé.');
    const sub = await detail(checkout.subscription.id);
    expect(sub.status).toBe('active');
    expect(sub.days_left).toBe(7);
    expect(sub.books.map((b: { book_id: number }) => b.book_id)).toEqual([bookId]);
    expect(sub.audit.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['created', 'payment_submitted', 'payment_paid', 'activated']),
    );
    const activated = await h.events('catalog.subscription.activated');
    expect(activated.filter((e) => e.subscription_id === sub.id)).toHaveLength(1);
    expect((await h.events('catalog.payment.submitted')).some((e) => e.payment_id === checkout.payment.id)).toBe(true);
    const featured = await h.call('GET', '/books/featured');
    expect(featured.body.featured_books[0]).toMatchObject({ id: bookId, sponsored: true });
  });

  it('refuses a second boost of the same listing and a reused SMS reference', async () => {
    const again = await h.call(
      'POST',
      '/subscriptions',
      { plan_id: plans['boost-30'], book_id: bookId, operator: 'airtel_money' },
      seller.token,
    );
    expect(again.status).toBe(409);
    const otherBook = await listBook(seller, 'Référence réutilisée');
    const second = await buy(seller, plans['boost-7']!, otherBook);
    const [first] = await h.db.select().from(payments).where(eq(payments.id, checkout.payment.id));
    const reused = await declare(seller, second.payment.id, first!.providerReference!);
    expect(reused.status).toBe(409);
    expect(reused.body.message).toBe('Cette référence de transaction a déjà été utilisée.');
  });

  it('gives a PDF receipt of a paid payment to its member and payments.manage', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: `/payments/${checkout.payment.id}/receipt`,
      headers: { authorization: `Bearer ${seller.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const asCashier = await h.app.inject({
      method: 'GET',
      url: `/payments/${checkout.payment.id}/receipt`,
      headers: { authorization: `Bearer ${cashier.token}` },
    });
    expect(asCashier.statusCode).toBe(200);
  });

  it('ends when the listing is sold', async () => {
    const res = await h.call('PUT', `/books/${bookId}/status`, { status: 'vendu' }, seller.token);
    expect(res.status).toBe(200);
    const sub = await detail(checkout.subscription.id);
    expect(sub.books).toHaveLength(0);
    expect(sub.book_history[0]).toMatchObject({ book_id: bookId, end_reason: 'sold', transferable: false });
    const featured = await h.call('GET', '/books/featured');
    expect(featured.body.featured_books.some((b: { id: number }) => b.id === bookId)).toBe(false);
  });
});

describe('a free plan', () => {
  it('is active at once, with nothing to pay', async () => {
    const plan = await h.call(
      'POST',
      '/admin/subscription-plans',
      { kind: 'boost', name: 'Offre de lancement', price: 0, duration_days: 3 },
      admin.token,
    );
    const bookId = await listBook(seller, 'Offert');
    const checkout = await buy(seller, plan.body.plan.id, bookId);
    expect(checkout.subscription).toMatchObject({ status: 'active', days_left: 3 });
    expect(checkout.payment).toMatchObject({ status: 'paid', amount: 0 });
    expect(checkout.subscription.books.map((b: { book_id: number }) => b.book_id)).toEqual([bookId]);
  });
});

describe('rejecting a declared payment', () => {
  it('fails the payment, leaves the subscription pending, and lets the member pay again', async () => {
    const bookId = await listBook(seller, 'Rejeté');
    const checkout = await buy(seller, plans['boost-7']!, bookId);
    expect(
      (await h.call('POST', `/admin/payments/${checkout.payment.id}/reject`, { reason: 'Non' }, cashier.token)).status,
    ).toBe(422);
    expect(
      (
        await h.call(
          'POST',
          `/admin/payments/${checkout.payment.id}/reject`,
          { reason: 'Aucun versement reçu' },
          cashier.token,
        )
      ).status,
    ).toBe(409);
    await declare(seller, checkout.payment.id);
    const rejected = await h.call(
      'POST',
      `/admin/payments/${checkout.payment.id}/reject`,
      { reason: 'Aucun versement reçu' },
      cashier.token,
    );
    expect(rejected.status).toBe(200);
    expect(rejected.body.payment).toMatchObject({ status: 'failed', failure_reason: 'Aucun versement reçu' });
    expect((await validate(checkout.payment.id)).status).toBe(409);
    expect((await detail(checkout.subscription.id)).status).toBe('pending_payment');
    // The member's list says why, on the subscription itself.
    const mine = await h.call('GET', '/subscriptions', undefined, seller.token);
    expect(mine.body.data.find((s: { id: string }) => s.id === checkout.subscription.id)).toMatchObject({
      status: 'pending_payment',
      book: { id: bookId },
      last_payment: { status: 'failed', failure_reason: 'Aucun versement reçu' },
    });
    // Buying the same again pays the waiting subscription instead of making a second one.
    const again = await buy(seller, plans['boost-7']!, bookId);
    expect(again.subscription.id).toBe(checkout.subscription.id);
    await h.call(
      'POST',
      `/admin/payments/${again.payment.id}/reject`,
      { reason: 'Aucun versement reçu' },
      cashier.token,
    );
    await declare(seller, again.payment.id);
    expect(
      (
        await h.call(
          'POST',
          `/admin/payments/${again.payment.id}/reject`,
          { reason: 'Aucun versement reçu' },
          cashier.token,
        )
      ).status,
    ).toBe(200);
    const retry = await h.call(
      'POST',
      `/subscriptions/${checkout.subscription.id}/renew`,
      { operator: 'airtel_money' },
      seller.token,
    );
    expect(retry.status).toBe(201);
    expect(retry.body.payment.purpose).toBe('subscription');
    const second = await h.call(
      'POST',
      `/subscriptions/${checkout.subscription.id}/renew`,
      { operator: 'airtel_money' },
      seller.token,
    );
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('Un paiement est déjà en cours pour cet abonnement.');
  });
});

describe('a member plan', () => {
  let subscriptionId: string;
  let books: number[];

  beforeAll(async () => {
    books = [];
    for (let i = 1; i <= 4; i++) books.push(await listBook(other, `Annales de Terminale D n°${i}`));
    ({ subscriptionId } = await activeSubscription(other, plans['member-seller']!));
  });

  it('boosts up to its slots, the member’s own available listings only', async () => {
    const tooMany = await h.call('PUT', `/subscriptions/${subscriptionId}/books`, { book_ids: books }, other.token);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toBe('Ce plan met en avant au plus 3 annonce(s) à la fois.');
    const sellersBook = await listBook(seller, 'Pas à lui');
    const notMine = await h.call(
      'PUT',
      `/subscriptions/${subscriptionId}/books`,
      { book_ids: [sellersBook] },
      other.token,
    );
    expect(notMine.status).toBe(403);
    const ok = await h.call(
      'PUT',
      `/subscriptions/${subscriptionId}/books`,
      { book_ids: books.slice(0, 3) },
      other.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.subscription.books).toHaveLength(3);
    const swap = await h.call(
      'PUT',
      `/subscriptions/${subscriptionId}/books`,
      { book_ids: [books[0], books[1], books[3]] },
      other.token,
    );
    expect(swap.status).toBe(200);
    expect(swap.body.subscription.books.map((b: { book_id: number }) => b.book_id).sort()).toEqual(
      [books[0], books[1], books[3]].sort(),
    );
    expect(
      swap.body.subscription.book_history.find((b: { book_id: number }) => b.book_id === books[2]).end_reason,
    ).toBe('replaced');
  });

  it('shows its seller badge on the book page and the public profile, others none', async () => {
    const page = await h.call('GET', `/books/${books[0]}`);
    expect(page.body.book.seller).toMatchObject({ badge: 'Vendeur' });
    expect((await h.call('GET', `/users/${other.sub}/deals`)).body).toMatchObject({ badge: 'Vendeur' });
    expect((await h.call('GET', `/users/${buyer.sub}/deals`)).body).toMatchObject({ badge: null });
  });

  it('puts boosted listings first in « À la une » and at most two sponsored on the first page', async () => {
    const featured = await h.call('GET', '/books/featured');
    const list = featured.body.featured_books as Array<{ id: number; sponsored?: boolean }>;
    expect(list.length).toBeLessThanOrEqual(8);
    const firstUnsponsored = list.findIndex((b) => !b.sponsored);
    const sponsored = list.filter((b) => b.sponsored).map((b) => b.id);
    expect(sponsored).toEqual(expect.arrayContaining([books[0], books[1], books[3]]));
    expect(list.slice(firstUnsponsored).every((b) => !b.sponsored)).toBe(true);
    const page = await h.call('GET', '/books?query=annales');
    expect(page.status).toBe(200);
    expect(page.body.sponsored).toHaveLength(2);
    for (const b of page.body.sponsored) {
      expect(b.sponsored).toBe(true);
      expect([books[0], books[1], books[3]]).toContain(b.id);
    }
    const unrelated = await h.call('GET', '/books/search?query=physique');
    expect(unrelated.body.sponsored ?? []).toHaveLength(0);
    const second = await h.call('GET', '/books?query=annales&page=2&per_page=2');
    expect(second.body.sponsored).toBeUndefined();
  });

  it('moves a boost whose listing was sold through a deal to another listing', async () => {
    const sold = books[0]!;
    // buyer wrote to the seller about it; the seller records the deal, the buyer confirms.
    await h.deliver(bookContactsProjection, 'messaging.message.sent', {
      message_id: randomUUID(),
      conversation_id: randomUUID(),
      book_id: sold,
      book_title: 'Manuel',
      sender_id: buyer.sub,
      sender_name: 'Brice',
      receiver_id: other.sub,
      content: 'Bonjour, toujours disponible ?',
      send_email_copy: false,
      created_at: new Date().toISOString(),
    });
    const deal = await h.call(
      'POST',
      '/transactions',
      { book_id: sold, buyer_id: buyer.sub, kind: 'sale', price: 4000 },
      other.token,
    );
    expect(deal.status, JSON.stringify(deal.body)).toBe(201);
    expect((await h.call('POST', `/transactions/${deal.body.transaction.id}/confirm`, {}, buyer.token)).status).toBe(
      200,
    );
    const sub = await detail(subscriptionId, other);
    const boost = sub.book_history.find((b: { book_id: number }) => b.book_id === sold);
    expect(boost).toMatchObject({ end_reason: 'sold', transferable: true });
    expect(sub.books.some((b: { book_id: number }) => b.book_id === sold)).toBe(false);
    expect(
      (await h.call('POST', `/boosted-books/${boost.id}/transfer`, { book_id: books[2] }, seller.token)).status,
    ).toBe(404);
    const toSold = await h.call('POST', `/boosted-books/${boost.id}/transfer`, { book_id: sold }, other.token);
    expect(toSold.status).toBe(422);
    // The freed slot taken by choosing listings again: the transfer would make four boosts of three slots.
    const refill = [books[1], books[3], books[2]];
    const chosen = await h.call('PUT', `/subscriptions/${subscriptionId}/books`, { book_ids: refill }, other.token);
    expect(chosen.status).toBe(200);
    const full = await h.call('POST', `/boosted-books/${boost.id}/transfer`, { book_id: books[2] }, other.token);
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Tous les emplacements de votre formule sont déjà utilisés.');
    const back = [books[1], books[3]];
    expect(
      (await h.call('PUT', `/subscriptions/${subscriptionId}/books`, { book_ids: back }, other.token)).status,
    ).toBe(200);
    const moved = await h.call('POST', `/boosted-books/${boost.id}/transfer`, { book_id: books[2] }, other.token);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.message).toBe('Mise en avant transférée sur votre annonce');
    expect(moved.body.subscription.books.map((b: { book_id: number }) => b.book_id)).toContain(books[2]);
    const [transfer] = await h.db.select().from(bookTransfers).where(eq(bookTransfers.boostedBookId, boost.id));
    expect(transfer).toMatchObject({ fromBookId: sold, toBookId: books[2] });
    const again = await h.call('POST', `/boosted-books/${boost.id}/transfer`, { book_id: books[2] }, other.token);
    expect(again.status).toBe(409);
  });

  it('is cancelled by user_subscriptions.manage with a reason, its boosts end', async () => {
    expect(
      (
        await h.call(
          'POST',
          `/admin/subscriptions/${subscriptionId}/cancel`,
          { reason: 'Fraude avérée' },
          cashier.token,
        )
      ).status,
    ).toBe(403);
    const list = await h.call(
      'GET',
      '/admin/subscriptions?kind=member&status=active&q=olivier',
      undefined,
      manager.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(subscriptionId);
    const res = await h.call(
      'POST',
      `/admin/subscriptions/${subscriptionId}/cancel`,
      { reason: 'Fraude avérée' },
      manager.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ status: 'cancelled', cancel_reason: 'Fraude avérée', books: [] });
    expect((await h.call('GET', `/users/${other.sub}/deals`)).body.badge).toBeNull();
    const twice = await h.call(
      'POST',
      `/admin/subscriptions/${subscriptionId}/cancel`,
      { reason: 'Fraude avérée' },
      manager.token,
    );
    expect(twice.status).toBe(409);
    const featured = await h.call('GET', '/books/featured');
    expect(
      featured.body.featured_books.some(
        (b: { sponsored?: boolean; id: number }) => b.sponsored && books.includes(b.id),
      ),
    ).toBe(false);
  });
});

describe('refunds', () => {
  it('are payments.manage, up to the amount, once; the subscription ends as refunded', async () => {
    const bookId = await listBook(seller, 'Remboursé');
    const { subscriptionId, paymentId } = await activeSubscription(seller, plans['boost-30']!, bookId);
    const url = `/admin/payments/${paymentId}/refunds`;
    expect((await h.call('POST', url, { reason: 'Erreur de plan' }, manager.token)).status).toBe(403);
    const tooMuch = await h.call('POST', url, { amount: 3001, reason: 'Erreur de plan' }, cashier.token);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message).toBe('Le remboursement ne peut pas dépasser le montant payé (3000 FCFA).');
    const ok = await h.call('POST', url, { amount: 2000, reason: 'Erreur de plan' }, cashier.token);
    expect(ok.status).toBe(201);
    expect(ok.body.payment).toMatchObject({ refunded_amount: 2000, status: 'paid' });
    expect(ok.body.payment.refunds).toHaveLength(1);
    const twice = await h.call('POST', url, { amount: 500, reason: 'Erreur de plan' }, cashier.token);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Ce paiement a déjà été remboursé.');
    const sub = await detail(subscriptionId);
    expect(sub.status).toBe('refunded');
    expect(sub.books).toHaveLength(0);
    expect((await h.events('catalog.payment.refunded')).find((e) => e.payment_id === paymentId)).toMatchObject({
      refund_amount: 2000,
      reason: 'Erreur de plan',
    });
    expect((await h.events('catalog.subscription.refunded')).some((e) => e.subscription_id === subscriptionId)).toBe(
      true,
    );
    const unpaid = await buy(seller, plans['boost-7']!, await listBook(seller, 'Pas payé'));
    const notPaid = await h.call(
      'POST',
      `/admin/payments/${unpaid.payment.id}/refunds`,
      { reason: 'Erreur de plan' },
      cashier.token,
    );
    expect(notPaid.status).toBe(409);
  });
});

describe('the aggregator and its signed webhooks', () => {
  let checkout: {
    subscription: { id: string };
    payment: { id: string; reference: string; provider_reference: string };
  };
  const notice = () => ({
    event_id: `evt-${randomBytes(4).toString('hex')}`,
    reference: checkout.payment.reference,
    provider_reference: checkout.payment.provider_reference,
    status: 'paid',
    amount: 1000,
    currency: 'XOF',
  });

  beforeAll(async () => {
    const bookId = await listBook(seller, 'Payé par l’agrégateur');
    const res = await h.call(
      'POST',
      '/subscriptions',
      {
        plan_id: plans['boost-7'],
        book_id: bookId,
        provider: 'simulated',
        operator: 'airtel_money',
        payer_phone: '074 11 22 33',
      },
      seller.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    checkout = res.body;
  });

  it('initiates with the aggregator’s protocol', async () => {
    const call = received.at(-1)!;
    expect(call.url).toBe('/v1/payments');
    expect(call.auth).toBe('Bearer agg-key');
    expect(call.body).toMatchObject({
      reference: checkout.payment.reference,
      amount: 1000,
      currency: 'XOF',
      operator: 'airtel_money',
      msisdn: '074112233',
      callback_url: 'http://gateway.test/api/payments/webhooks/simulated',
    });
    expect(checkout.payment.provider_reference).toMatch(/^AGG-/);
    const noPhone = await h.call(
      'POST',
      '/subscriptions',
      { plan_id: plans['member-seller'], provider: 'simulated', operator: 'airtel_money' },
      seller.token,
    );
    expect(noPhone.status).toBe(422);
  });

  it('refuses a bad signature, a stale one, an unknown reference and a different amount', async () => {
    expect((await webhook(notice(), { secret: 'not-the-secret-at-all' })).status).toBe(401);
    const stale = await webhook(notice(), { t: Math.floor(Date.now() / 1000) - 301 });
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe('Notification expirée.');
    const tampered = await h.app.inject({
      method: 'POST',
      url: '/payments/webhooks/simulated',
      headers: {
        'x-cartable-signature': signWebhook(SECRET, JSON.stringify(notice())),
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ ...notice(), amount: 1 }),
    });
    expect(tampered.statusCode).toBe(401);
    expect((await webhook({ ...notice(), reference: 'CRT-INCONNUE00' })).status).toBe(404);
    const mismatch = { ...notice(), amount: 900 };
    const wrong = await webhook(mismatch);
    expect(wrong.status).toBe(422);
    expect((await webhook(mismatch)).status).toBe(422);
    const [payment] = await h.db.select().from(payments).where(eq(payments.id, checkout.payment.id));
    expect(payment!.status).toBe('pending');
    const kept = await h.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.paymentId, payment!.id), eq(paymentEvents.type, 'webhook_mismatch')));
    expect(kept).toHaveLength(1);
  });

  it('pays once when the same delivery arrives twice, and ignores a later one', async () => {
    const paid = notice();
    const first = await webhook(paid);
    expect(first.status).toBe(200);
    const replay = await webhook(paid);
    expect(replay.status).toBe(200);
    const late = await webhook({ ...notice(), status: 'failed' });
    expect(late.status).toBe(200);
    const sub = await detail(checkout.subscription.id);
    expect(sub.status).toBe('active');
    expect(sub.payments[0].status).toBe('paid');
    expect((await h.events('catalog.subscription.activated')).filter((e) => e.subscription_id === sub.id)).toHaveLength(
      1,
    );
    expect((await h.events('catalog.payment.paid')).filter((e) => e.payment_id === checkout.payment.id)).toHaveLength(
      1,
    );
    const events = await h.db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, checkout.payment.id));
    expect(events.filter((e) => e.eventId === paid.event_id)).toHaveLength(1);
    expect(events.some((e) => e.type === 'duplicate_ignored')).toBe(true);
    const admin = await h.call('GET', `/admin/payments/${checkout.payment.id}`, undefined, cashier.token);
    expect(admin.status).toBe(200);
    expect(admin.body.payment.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['initiated', 'webhook_mismatch', 'paid', 'duplicate_ignored']),
    );
  });
});

describe('time: renewal, reminder, expiry', () => {
  let subscriptionId: string;
  let bookId: number;

  beforeAll(async () => {
    bookId = await listBook(seller, 'Le temps passe');
    ({ subscriptionId } = await activeSubscription(seller, plans['boost-7']!, bookId));
  });

  it('renewing extends from the end date', async () => {
    const before = new Date((await detail(subscriptionId)).ends_at).getTime();
    const renew = await h.call(
      'POST',
      `/subscriptions/${subscriptionId}/renew`,
      { operator: 'airtel_money' },
      seller.token,
    );
    expect(renew.status).toBe(201);
    expect(renew.body.payment).toMatchObject({ purpose: 'renewal', amount: 1000 });
    await declare(seller, renew.body.payment.id);
    expect((await validate(renew.body.payment.id)).status).toBe(200);
    const after = await detail(subscriptionId);
    expect(new Date(after.ends_at).getTime()).toBe(before + 7 * DAY);
    expect(after.books[0].ends_at).toBe(after.ends_at);
    expect((await h.events('catalog.subscription.renewed')).some((e) => e.subscription_id === subscriptionId)).toBe(
      true,
    );
  });

  it('sends the reminder once, three days before the end', async () => {
    await h.db
      .update(subscriptions)
      .set({ endsAt: new Date(Date.now() + 2 * DAY) })
      .where(eq(subscriptions.id, subscriptionId));
    await runSubscriptionSweep(h.uow);
    await runSubscriptionSweep(h.uow);
    const reminders = (await h.events('catalog.subscription.expiring')).filter(
      (e) => e.subscription_id === subscriptionId,
    );
    expect(reminders).toHaveLength(1);
  });

  it('expires by the sweep, once, and the listing leaves « À la une »', async () => {
    await h.db
      .update(subscriptions)
      .set({ endsAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.id, subscriptionId));
    const first = await runSubscriptionSweep(h.uow);
    expect(first.expired).toBeGreaterThanOrEqual(1);
    await runSubscriptionSweep(h.uow);
    const sub = await detail(subscriptionId);
    expect(sub).toMatchObject({ status: 'expired', days_left: 0, books: [] });
    expect(sub.book_history[0]).toMatchObject({ end_reason: 'subscription_ended' });
    expect(
      (await h.events('catalog.subscription.expired')).filter((e) => e.subscription_id === subscriptionId),
    ).toHaveLength(1);
    const featured = await h.call('GET', '/books/featured');
    expect(featured.body.featured_books.find((b: { id: number }) => b.id === bookId)?.sponsored).toBeUndefined();
  });

  it('an expired subscription renewed starts again from now, its listing boosted again', async () => {
    const renew = await h.call(
      'POST',
      `/subscriptions/${subscriptionId}/renew`,
      { operator: 'airtel_money' },
      seller.token,
    );
    await declare(seller, renew.body.payment.id);
    expect((await validate(renew.body.payment.id)).status).toBe(200);
    const sub = await detail(subscriptionId);
    expect(sub.status).toBe('active');
    expect(Math.abs(new Date(sub.ends_at).getTime() - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
    expect(sub.books.map((b: { book_id: number }) => b.book_id)).toEqual([bookId]);
  });

  it('extends by an operator with a reason', async () => {
    const before = new Date((await detail(subscriptionId)).ends_at).getTime();
    const res = await h.call(
      'POST',
      `/admin/subscriptions/${subscriptionId}/extend`,
      { days: 3, reason: 'Geste commercial' },
      manager.token,
    );
    expect(res.status).toBe(200);
    expect(new Date(res.body.subscription.ends_at).getTime()).toBe(before + 3 * DAY);
  });

  it('expires a pending payment past its time', async () => {
    const checkout = await buy(seller, plans['boost-7']!, await listBook(seller, 'Jamais payé'));
    await h.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.id, checkout.payment.id));
    await runSubscriptionSweep(h.uow);
    const [row] = await h.db.select().from(payments).where(eq(payments.id, checkout.payment.id));
    expect(row!.status).toBe('expired');
    expect((await declare(seller, checkout.payment.id)).status).toBe(409);
  });

  it('ends the boost of a deleted listing', async () => {
    expect((await h.call('DELETE', `/books/${bookId}`, undefined, seller.token)).status).toBe(200);
    const [boost] = await h.db
      .select()
      .from(boostedBooks)
      .where(and(eq(boostedBooks.bookId, bookId), eq(boostedBooks.endReason, 'deleted')));
    expect(boost).toBeDefined();
  });
});

describe('the back office figures', () => {
  it('lists payments with monthly totals and gives the dashboard its revenue (12 months)', async () => {
    expect((await h.call('GET', '/admin/payments', undefined, manager.token)).status).toBe(403);
    const list = await h.call('GET', '/admin/payments?status=paid&provider=manual', undefined, cashier.token);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.every((p: { status: string }) => p.status === 'paid')).toBe(true);
    expect(list.body.totals[0].paid).toBeGreaterThan(0);
    const refunded = await h.call('GET', '/admin/payments?refunded=true', undefined, cashier.token);
    expect(refunded.body.data).toHaveLength(1);
    const boosted = await h.call('GET', '/admin/boosted-books', undefined, manager.token);
    expect(boosted.status).toBe(200);
    expect((await h.call('GET', '/admin/stats/subscriptions', undefined, cashier.token)).status).toBe(403);
    const stats = await h.call('GET', '/admin/stats/subscriptions', undefined, reporter.token);
    expect(stats.status).toBe(200);
    expect(stats.body.revenue).toHaveLength(12);
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Libreville', year: 'numeric', month: '2-digit' })
      .format(new Date())
      .slice(0, 7);
    expect(stats.body.revenue.at(-1)).toMatchObject({ month });
    expect(stats.body.revenue.at(-1).paid).toBeGreaterThan(0);
    expect(stats.body.active.boost).toBeGreaterThan(0);
  });
});
