import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import type { EventHandlers } from '@cartable/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberBlocksProjection, sellersProjection } from '../src/modules/members/index.ts';
import { bookContactsProjection } from '../src/modules/trust/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * A block (messaging's « Bloquer », projected) stands both ways: neither member sees the other's
 * phone and e-mail on the book page, proposes or confirms a deal with the other, nor is alerted
 * by a saved search about the other's listings.
 */
let h: CatalogHarness;
let seller: { sub: string; token: string };
let blocked: { sub: string; token: string };
let other: { sub: string; token: string };
let bookId: number;

async function deliver<T extends EventType>(handlers: EventHandlers, type: T, data: Envelope<T>['data']) {
  const envelope = { id: randomUUID(), type, occurred_at: new Date().toISOString(), data } as Envelope<T>;
  // biome-ignore lint/suspicious/noExplicitAny: the handler of this type takes this envelope
  await h.db.transaction((tx) => (handlers[type] as any)(tx, envelope));
}

beforeAll(async () => {
  h = await startCatalog();
  [seller, blocked, other] = await Promise.all([h.token(), h.token(), h.token()]);
  await deliver(sellersProjection, 'auth.user.updated', {
    user_id: seller.sub,
    name: 'Awa Vendeuse',
    username: 'awa_vend',
    profile_image: null,
    country_id: 266,
    city_id: null,
    email: 'awa@example.ga',
    phone: '+241 77 00 00 00',
    updated_at: new Date().toISOString(),
    version: 2,
  });
  const res = await h.form(
    'POST',
    '/books',
    {
      title: 'Anglais 5e Go for English',
      author: 'IPN',
      condition: 'bon',
      price: '2500',
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('5e'))],
    },
    {},
    seller.token,
  );
  expect(res.status).toBe(201);
  bookId = res.body.book.id;
});
afterAll(() => h?.teardown());

const sellerAs = async (who?: { token: string }) =>
  (await h.call('GET', `/books/${bookId}`, undefined, who?.token)).body.book.seller;

describe('blocked members', () => {
  it('hides the seller’s contact details from the member they blocked only, until unblocked', async () => {
    expect(await sellerAs(blocked)).toMatchObject({
      show_email: true,
      email: 'awa@example.ga',
      phone: '+241 77 00 00 00',
    });
    const at = new Date();
    await deliver(memberBlocksProjection, 'messaging.member.blocked', {
      blocker_id: seller.sub,
      blocked_id: blocked.sub,
      at: at.toISOString(),
    });
    expect(await sellerAs(blocked)).toMatchObject({ show_email: false, email: null, show_phone: false, phone: null });
    expect(await sellerAs(other)).toMatchObject({ email: 'awa@example.ga' });
    expect(await sellerAs()).toMatchObject({ email: 'awa@example.ga' });

    // An older unblock arriving late changes nothing; a newer one lifts it.
    await deliver(memberBlocksProjection, 'messaging.member.unblocked', {
      blocker_id: seller.sub,
      blocked_id: blocked.sub,
      at: new Date(at.getTime() - 60_000).toISOString(),
    });
    expect(await sellerAs(blocked)).toMatchObject({ email: null });
    await deliver(memberBlocksProjection, 'messaging.member.unblocked', {
      blocker_id: seller.sub,
      blocked_id: blocked.sub,
      at: new Date(at.getTime() + 1000).toISOString(),
    });
    expect(await sellerAs(blocked)).toMatchObject({ email: 'awa@example.ga', phone: '+241 77 00 00 00' });
  });
});

const block = (blocker: { sub: string }, blockedMember: { sub: string }, at = new Date()) =>
  deliver(memberBlocksProjection, 'messaging.member.blocked', {
    blocker_id: blocker.sub,
    blocked_id: blockedMember.sub,
    at: at.toISOString(),
  });
const unblock = (blocker: { sub: string }, blockedMember: { sub: string }, at = new Date()) =>
  deliver(memberBlocksProjection, 'messaging.member.unblocked', {
    blocker_id: blocker.sub,
    blocked_id: blockedMember.sub,
    at: at.toISOString(),
  });

async function listBook(owner: { token: string }, title: string) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title,
      author: 'IPN',
      condition: 'bon',
      price: '2500',
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('5e'))],
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

describe('a block, whoever made it', () => {
  it('hides the seller’s contact details from a member who blocked the seller too', async () => {
    const viewer = await h.token();
    expect(await sellerAs(viewer)).toMatchObject({ email: 'awa@example.ga' });
    await block(viewer, seller);
    expect(await sellerAs(viewer)).toMatchObject({ show_email: false, email: null, show_phone: false, phone: null });
    await unblock(viewer, seller);
    expect(await sellerAs(viewer)).toMatchObject({ email: 'awa@example.ga' });
  });

  it('refuses a deal (403, in French) between the two, proposed or confirmed', async () => {
    const buyer = await h.token();
    const book = await listBook(seller, 'Histoire 5e Hatier');
    await h.deliver(bookContactsProjection, 'messaging.message.sent', {
      message_id: randomUUID(),
      conversation_id: randomUUID(),
      book_id: book,
      book_title: 'Histoire 5e Hatier',
      sender_id: buyer.sub,
      sender_name: 'Membre',
      receiver_id: seller.sub,
      content: 'Bonjour, toujours disponible ?',
      send_email_copy: false,
      created_at: new Date().toISOString(),
    });
    const propose = () =>
      h.call('POST', '/transactions', { book_id: book, buyer_id: buyer.sub, kind: 'gift' }, seller.token);
    const message = 'Vous ne pouvez pas conclure de transaction avec ce membre : l’un de vous a bloqué l’autre.';

    const candidates = async () =>
      (await h.call('GET', `/transactions/candidates?book_id=${book}`, undefined, seller.token)).body;
    const before = await candidates();

    // The buyer blocked the seller: the seller cannot propose, nor sees them among the candidates.
    await block(buyer, seller);
    expect(JSON.stringify(await candidates())).not.toContain(buyer.sub);
    expect(JSON.stringify(before)).toContain(buyer.sub);
    const refused = await propose();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(message);
    await unblock(buyer, seller);

    // Proposed, then the seller blocks the buyer: the buyer cannot confirm.
    const proposed = await propose();
    expect(proposed.status).toBe(201);
    await block(seller, buyer);
    const confirm = await h.call('POST', `/transactions/${proposed.body.transaction.id}/confirm`, {}, buyer.token);
    expect(confirm.status).toBe(403);
    expect(confirm.body.message).toBe(message);
    expect((await h.call('GET', `/books/${book}`)).body.book.status).toBe('disponible');
  });

  it('sends no saved-search alert about the other member’s listings', async () => {
    const searcher = await h.token();
    await h.registerSeller(searcher.sub, 'Sandra Parent');
    const saved = await h.call(
      'POST',
      '/saved-searches',
      { name: 'Tout le 5e', frequency: 'daily', filters: { category_ids: String(await h.categoryId('5e')) } },
      searcher.token,
    );
    expect(saved.status).toBe(201);
    const id = saved.body.saved_search.id as number;
    const alerts = async () =>
      (await h.events('catalog.saved_search.matched')).filter((e) => e.saved_search_id === id).length;

    await block(searcher, seller);
    await listBook(seller, 'Géographie 5e Hatier');
    expect(await alerts()).toBe(0);
    await unblock(searcher, seller);

    const stranger = await h.token();
    await h.registerSeller(stranger.sub, 'Sylvie Inconnue');
    await block(stranger, searcher);
    await listBook(stranger, 'Géographie 5e Nathan');
    expect(await alerts()).toBe(0);

    // Without a block, the alert goes as usual.
    await unblock(stranger, searcher);
    await listBook(stranger, 'Géographie 5e Belin');
    await listBook(seller, 'Géographie 5e Magnard');
    expect(await alerts()).toBe(2);
  });
});
