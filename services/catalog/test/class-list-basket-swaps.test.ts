import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let parent: Member;
let manager: Member;
const sellers: Record<string, Member> = {};
let listId: number;
const item: Record<string, number> = {};

const listBook = (owner: Member, title: string, price: number, exchange: boolean) =>
  h.publish(owner.token, { title, price, city: 'Libreville', level: '6e', exchange });

async function wish(member: Member, itemId: number) {
  const res = await h.call('POST', '/exchanges/wishes', { class_list_item_id: itemId }, member.token);
  expect(res.status).toBe(201);
}

type Listing = { id: number; title: string; price: number; exchange_for?: { id: number; name: string } | null };
type Basket = {
  goal: string;
  total: number;
  meetings: number;
  saving: number;
  optimal: boolean;
  towns: Array<{ sellers: Array<{ seller: { name: string }; total: number; listings: Listing[] }> }>;
};
const baskets = async () => {
  const res = await h.call('GET', `/my-class-lists/${listId}/baskets`, undefined, parent.token);
  expect(res.status).toBe(200);
  return res.body.baskets as Basket[];
};
/** Each listing as « seller: title price » or « seller: title ⇄ owned book ». */
const lines = (b: Basket) =>
  b.towns
    .flatMap((t) =>
      t.sellers.flatMap((s) =>
        s.listings.map(
          (l) => `${s.seller.name}: ${l.title} ${l.exchange_for ? `⇄ ${l.exchange_for.name}` : String(l.price)}`,
        ),
      ),
    )
    .sort();

beforeAll(async () => {
  h = await startCatalog();
  manager = await h.token({ permissions: ['lists.manage'] });
  parent = await h.token();
  for (const name of ['Awa', 'Brice', 'Chantal']) {
    sellers[name] = await h.token();
    await h.registerSeller(sellers[name]!.sub, `${name} Vendeur`);
  }
  const res = await h.call(
    'POST',
    '/admin/class-lists',
    {
      school_year: '2034-2035',
      level_id: await h.categoryId('6e'),
      status: 'published',
      items: [{ title: 'Maths Échange 6e' }, { title: 'Français Échange 6e' }, { title: 'Musique Échange 6e' }],
    },
    manager.token,
  );
  expect(res.status).toBe(201);
  listId = res.body.list.id;
  for (const i of res.body.list.items as Array<{ id: number; title: string }>) item[i.title.split(' ')[0]!] = i.id;

  // Awa swaps her maths and looks for the music book the family owns; Brice looks for it too, but
  // his French is for sale only; Chantal would swap her maths but looks for nothing.
  await listBook(sellers.Awa!, 'Maths Échange 6e', 2000, true);
  await wish(sellers.Awa!, item.Musique!);
  await listBook(sellers.Brice!, 'Français Échange 6e', 1000, false);
  await wish(sellers.Brice!, item.Musique!);
  await listBook(sellers.Chantal!, 'Maths Échange 6e', 1500, true);
  const saved = await h.call(
    'PUT',
    `/my-class-lists/${listId}`,
    { city_id: await h.cityId('Libreville'), owned_item_ids: [item.Musique] },
    parent.token,
  );
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await h?.teardown();
});

describe('swaps in « Compléter ma liste »', () => {
  it('offers a listing open to exchange whose seller looks for a book the family owns, at 0 FCFA', async () => {
    const [cheapest] = await baskets();
    expect(lines(cheapest!)).toEqual([
      'Awa Vendeur: Maths Échange 6e ⇄ Musique Échange 6e',
      'Brice Vendeur: Français Échange 6e 1000',
    ]);
    // Medians: maths 1,500 (1,500, 2,000), French 1,000; paid 1,000.
    expect(cheapest).toMatchObject({ goal: 'cheapest', total: 1000, meetings: 2, saving: 1500, optimal: true });
    const awa = cheapest!.towns[0]!.sellers.find((s) => s.seller.name === 'Awa Vendeur')!;
    expect(awa.listings[0]).toMatchObject({ price: 0, exchange_for: { id: item.Musique, name: 'Musique Échange 6e' } });
    expect(awa.total).toBe(0);
  });

  it('gives each owned book once: two swaps asking the same book are never in one basket', async () => {
    // Awa now also swaps a French book: a basket swapping both would give the music book twice.
    await listBook(sellers.Awa!, 'Français Échange 6e', 1200, true);
    const [cheapest, fewest] = await baskets();
    expect(lines(cheapest!)).toEqual([
      'Awa Vendeur: Maths Échange 6e ⇄ Musique Échange 6e',
      'Brice Vendeur: Français Échange 6e 1000',
    ]);
    expect(cheapest).toMatchObject({ total: 1000, meetings: 2, optimal: true });
    // One meeting: Awa swaps one book and sells the other; swapping the dearer maths is cheaper.
    expect(lines(fewest!)).toEqual([
      'Awa Vendeur: Français Échange 6e 1200',
      'Awa Vendeur: Maths Échange 6e ⇄ Musique Échange 6e',
    ]);
    expect(fewest).toMatchObject({ goal: 'fewest_meetings', total: 1200, meetings: 1, optimal: true });
    // The back office's median saving counts the swap as the family's basket does (without it, the
    // cheapest would be Chantal's maths and Brice's French: 2,500, no saving).
    const coverage = await h.call('GET', '/admin/class-lists/coverage?school_year=2034-2035', undefined, manager.token);
    expect(coverage.body.rows).toMatchObject([{ families: 1, coverable: 1, median_saving: 1500 }]);
  });

  it('proposes no swap once the family no longer owns the book asked', async () => {
    await h.call(
      'PUT',
      `/my-class-lists/${listId}`,
      { city_id: await h.cityId('Libreville'), owned_item_ids: [] },
      parent.token,
    );
    const all = await baskets();
    expect(all.flatMap((b) => lines(b)).some((l) => l.includes('⇄'))).toBe(false);
  });
});
