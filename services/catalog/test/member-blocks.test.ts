import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import type { EventHandlers } from '@cartable/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberBlocksProjection, sellersProjection } from '../src/modules/members/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/** A member a seller blocked no longer sees the seller's phone and e-mail on the book page. */
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
