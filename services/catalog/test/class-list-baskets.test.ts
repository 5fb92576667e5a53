import { randomUUID } from 'node:crypto';
import { BASKET_HOLD_HOURS } from '@cartable/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookContactsProjection } from '../src/modules/trust/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let manager: Member;
let parent: Member;
let stranger: Member;
const sellers: Record<string, Member> = {};
let listId: number;
const item: Record<string, number> = {};
let briceHistory: number;
let awaFrench: number;

/** The family wrote to the seller about the listing, as « Contacter les vendeurs » does: the contact a deal needs. */
const writeAbout = (bookId: number, seller: Member) =>
  h.deliver(bookContactsProjection, 'messaging.message.sent', {
    message_id: randomUUID(),
    conversation_id: randomUUID(),
    book_id: bookId,
    book_title: 'Manuel',
    sender_id: parent.sub,
    sender_name: 'Paule Parent',
    receiver_id: seller.sub,
    content: 'Bonjour, je suis intéressée par ce manuel pour la liste de 6e.',
    send_email_copy: false,
    created_at: new Date().toISOString(),
  });

const listBook = (owner: Member, title: string, price: number, city: string) =>
  h.publish(owner.token, { title, price, city, level: '6e' });

beforeAll(async () => {
  h = await startCatalog();
  manager = await h.token({ permissions: ['lists.manage'] });
  parent = await h.token();
  stranger = await h.token();
  await h.registerSeller(parent.sub, 'Paule Parent');
  for (const name of ['Awa', 'Brice', 'Chantal', 'Didier']) {
    sellers[name] = await h.token();
    await h.registerSeller(sellers[name]!.sub, `${name} Vendeur`);
  }
  const res = await h.call(
    'POST',
    '/admin/class-lists',
    {
      school_year: '2032-2033',
      level_id: await h.categoryId('6e'),
      status: 'published',
      items: [
        { title: 'Maths Panier 6e' },
        { title: 'Français Panier 6e' },
        { title: 'Histoire Panier 6e' },
        { title: 'Anglais Panier 6e' },
        { title: 'Musique Panier 6e' },
      ],
    },
    manager.token,
  );
  expect(res.status).toBe(201);
  listId = res.body.list.id;
  for (const i of res.body.list.items as Array<{ id: number; title: string }>) item[i.title.split(' ')[0]!] = i.id;

  // Libreville: Awa and Brice; Owendo (same province): Chantal; Franceville (another): Didier.
  await listBook(sellers.Awa!, 'Maths Panier 6e', 2000, 'Libreville');
  awaFrench = await listBook(sellers.Awa!, 'Français Panier 6e', 1000, 'Libreville');
  await listBook(sellers.Brice!, 'Maths Panier 6e', 1500, 'Libreville');
  briceHistory = await listBook(sellers.Brice!, 'Histoire Panier 6e', 0, 'Libreville');
  await listBook(sellers.Chantal!, 'Français Panier 6e', 500, 'Owendo');
  await listBook(sellers.Didier!, 'Anglais Panier 6e', 500, 'Franceville');
  await listBook(sellers.Didier!, 'Maths Panier 6e', 4000, 'Franceville');
  await listBook(sellers.Didier!, 'Français Panier 6e', 3000, 'Franceville');
  // The parent's own listing is never proposed to them.
  await listBook(parent, 'Histoire Panier 6e', 100, 'Libreville');
});
afterAll(async () => {
  await h?.teardown();
});

describe('« Compléter ma liste »', () => {
  it('asks for the saved list and its town, in French', async () => {
    const url = `/my-class-lists/${listId}/baskets`;
    expect((await h.call('GET', url)).status).toBe(401);
    const unsaved = await h.call('GET', url, undefined, stranger.token);
    expect(unsaved.status).toBe(404);
    expect(unsaved.body.message).toBe('Vous n’avez pas enregistré cette liste.');
    expect(
      (await h.call('PUT', `/my-class-lists/${listId}`, { owned_item_ids: [item.Musique] }, parent.token)).status,
    ).toBe(200);
    const noTown = await h.call('GET', url, undefined, parent.token);
    expect(noTown.status).toBe(409);
    expect(noTown.body.message).toMatch(/Choisissez d’abord la ville/);
  });

  it('proposes the cheapest, the fewest meetings and the balanced basket, with their saving', async () => {
    const libreville = await h.cityId('Libreville');
    await h.call(
      'PUT',
      `/my-class-lists/${listId}`,
      { city_id: libreville, owned_item_ids: [item.Musique] },
      parent.token,
    );
    const res = await h.call('GET', `/my-class-lists/${listId}/baskets`, undefined, parent.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      list_id: listId,
      city: { name: 'Libreville', province: 'Estuaire' },
      missing: 4,
      fares: { town: 1000, province: 3000 },
    });
    const [cheapest, fewest, balanced] = res.body.baskets;
    const sellersOf = (b: { towns: Array<{ city: { name: string }; sellers: Array<{ seller: { name: string } }> }> }) =>
      b.towns.map((t) => [t.city.name, t.sellers.map((s) => s.seller.name).sort()]);

    // Brice's maths (1,500) and gift, Chantal's French in Owendo (500); Anglais only far away.
    expect(cheapest).toMatchObject({ goal: 'cheapest', label: 'Le moins cher', total: 2000, meetings: 2 });
    expect(sellersOf(cheapest)).toEqual([
      ['Libreville', ['Brice Vendeur']],
      ['Owendo', ['Chantal Vendeur']],
    ]);
    // Medians on the whole site: maths 2,000 (1,500, 2,000, 4,000), French 1,000, history 0.
    expect(cheapest).toMatchObject({ reference_total: 3000, saving: 1000, optimal: true });
    expect(cheapest.uncovered).toEqual([{ id: item.Anglais, name: 'Anglais Panier 6e' }]);
    expect(fewest).toMatchObject({ goal: 'fewest_meetings', meetings: 2, total: 2000 });
    // Owendo's trip (3,000) costs more than Awa's dearer French in Libreville (+500).
    expect(balanced).toMatchObject({ goal: 'balanced', total: 2500, meetings: 2, fares: 2000, saving: 500 });
    expect(sellersOf(balanced)).toEqual([['Libreville', ['Awa Vendeur', 'Brice Vendeur']]]);
    const brice = balanced.towns[0].sellers.find(
      (s: { seller: { name: string } }) => s.seller.name === 'Brice Vendeur',
    );
    expect(brice.total).toBe(1500);
    expect(brice.listings.map((l: { title: string; price: number }) => [l.title, l.price]).sort()).toEqual([
      ['Histoire Panier 6e', 0],
      ['Maths Panier 6e', 1500],
    ]);
  });

  it('holds a listing « Réservé » for the family once its seller accepts them, until the deal ends or two days pass', async () => {
    const awa = sellers.Awa!;
    await writeAbout(awaFrench, awa);
    const status = async () => (await h.call('GET', `/books/${awaFrench}`)).body.book.status;
    const offered = async (member: Member) => {
      const res = await h.call('GET', `/my-class-lists/${listId}/baskets`, undefined, member.token);
      return res.body.baskets.some((b: { towns: Array<{ sellers: Array<{ listings: Array<{ id: number }> }> }> }) =>
        b.towns.some((t) => t.sellers.some((s) => s.listings.some((l) => l.id === awaFrench))),
      );
    };
    const propose = async () => {
      const res = await h.call(
        'POST',
        '/transactions',
        { book_id: awaFrench, buyer_id: parent.sub, kind: 'sale', price: 1000 },
        awa.token,
      );
      expect(res.status).toBe(201);
      return res.body.transaction.id as string;
    };

    const first = await propose();
    expect(await status()).toBe('réservé');
    // Still in the family's baskets: it is held for them.
    expect(await offered(parent)).toBe(true);
    // Cancelled: on offer again.
    expect((await h.call('POST', `/transactions/${first}/cancel`, {}, awa.token)).status).toBe(200);
    expect(await status()).toBe('disponible');

    await propose();
    expect(await status()).toBe('réservé');
    // Not yet past its two days: kept.
    expect(await h.catalog.classLists.releaseExpiredHolds()).toBe(0);
    const later = new Date(Date.now() + (BASKET_HOLD_HOURS + 1) * 3600_000);
    expect(await h.catalog.classLists.releaseExpiredHolds(later)).toBe(1);
    expect(await status()).toBe('disponible');
  });

  it('follows the deals to their end: a book received in a confirmed deal is owned, and no basket asks for it', async () => {
    const brice = sellers.Brice!;
    // The family wrote to Brice about his history book (the contact a deal needs), he offers it.
    await writeAbout(briceHistory, brice);
    const deal = await h.call(
      'POST',
      '/transactions',
      { book_id: briceHistory, buyer_id: parent.sub, kind: 'gift' },
      brice.token,
    );
    expect(deal.status).toBe(201);
    const owned = async () =>
      (await h.call('GET', '/my-class-lists', undefined, parent.token)).body.data.find(
        (l: { list: { id: number } }) => l.list.id === listId,
      ).owned_item_ids;
    // Proposed only: still missing.
    expect(await owned()).toEqual([item.Musique]);
    expect((await h.call('POST', `/transactions/${deal.body.transaction.id}/confirm`, {}, parent.token)).status).toBe(
      200,
    );
    expect((await owned()).sort()).toEqual([item.Musique, item.Histoire].sort());
    const baskets = await h.call('GET', `/my-class-lists/${listId}/baskets`, undefined, parent.token);
    expect(baskets.body.missing).toBe(3);
    // Brice no longer has anything the list misses but his maths.
    for (const basket of baskets.body.baskets)
      for (const town of basket.towns)
        for (const seller of town.sellers)
          expect(seller.listings.map((l: { title: string }) => l.title)).not.toContain('Histoire Panier 6e');
  });

  it('proposes nothing when every book is owned', async () => {
    const all = Object.values(item);
    await h.call(
      'PUT',
      `/my-class-lists/${listId}`,
      { city_id: await h.cityId('Libreville'), owned_item_ids: all },
      parent.token,
    );
    const res = await h.call('GET', `/my-class-lists/${listId}/baskets`, undefined, parent.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ missing: 0, baskets: [] });
  });
});
