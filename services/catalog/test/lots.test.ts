import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookLotItems } from '../src/db/schema.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/** Lots: one listing holding several books of a class list, found by each. */
type Member = { sub: string; token: string };
let h: CatalogHarness;
let manager: Member;
let parent: Member;
let seller: Member;
let listId: number;
let otherListItem: number;
const item: Record<string, number> = {};
const cat: Record<string, number> = {};

async function createList(schoolYear: string, status: 'published' | 'draft', items: object[]) {
  const res = await h.call(
    'POST',
    '/admin/class-lists',
    { school_year: schoolYear, level_id: cat['3e'], status, items },
    manager.token,
  );
  expect(res.status).toBe(201);
  return res.body.list as { id: number; items: Array<{ id: number; title: string }> };
}

const listLot = (who: Member, lotItems: number[], extra: Record<string, string> = {}) =>
  h.form(
    'POST',
    '/books',
    {
      title: 'Lot de manuels de 3e',
      author: 'Collectif',
      condition: 'bon',
      price: '6000',
      city_id: String(cat.Libreville),
      category_ids: [String(cat['3e'])],
      lot_items: lotItems.join(','),
      ...extra,
    },
    {},
    who.token,
  );

beforeAll(async () => {
  h = await startCatalog();
  manager = await h.token({ permissions: ['lists.manage'] });
  parent = await h.token();
  seller = await h.token();
  await h.registerSeller(seller.sub, 'Vanessa Vendeuse');
  await h.registerSeller(parent.sub, 'Paul Parent');
  for (const name of ['3e', 'Mathématiques', 'Français', 'Sciences de la vie et de la Terre', 'Anglais'])
    cat[name] = await h.categoryId(name);
  cat.Libreville = await h.cityId('Libreville');
  const list = await createList('2032-2033', 'published', [
    { title: 'Mathématiques 3e Horizon Lotissime', isbn: '9782011234567', subject_id: cat.Mathématiques },
    { title: 'Français 3e Parcours Lotissime', author: 'Nadine Obiang', subject_id: cat.Français },
    { title: 'SVT 3e Découverte Lotissime', subject_id: cat['Sciences de la vie et de la Terre'] },
    { title: 'Anglais 3e Go Lotissime', subject_id: cat.Anglais },
  ]);
  listId = list.id;
  for (const i of list.items) item[i.title.split(' ')[0]!] = i.id;
  otherListItem = (await createList('2033-2034', 'published', [{ title: 'Histoire 3e Autre' }])).items[0]!.id;
  // The parent looks for the list's books in Libreville.
  const saved = await h.call('PUT', `/my-class-lists/${listId}`, { city_id: cat.Libreville }, parent.token);
  expect(saved.status).toBeLessThan(300);
});
afterAll(async () => {
  await h?.teardown();
});

describe('a lot', () => {
  let lotId: number;
  let alertsBefore: number;

  it('is one listing holding the picked books in their list order, filed under their level and subjects', async () => {
    alertsBefore = (await h.events('catalog.class_list.match_found')).length;
    const res = await listLot(seller, [item.SVT!, item.Mathématiques!, item.Français!]);
    expect(res.status).toBe(201);
    lotId = res.body.book.id;
    expect(res.body.book.lot.items.map((i: { title: string }) => i.title)).toEqual([
      'Mathématiques 3e Horizon Lotissime',
      'Français 3e Parcours Lotissime',
      'SVT 3e Découverte Lotissime',
    ]);
    expect(res.body.book.lot.items[0]).toMatchObject({
      isbn: '9782011234567',
      subject: { id: cat.Mathématiques, name: 'Mathématiques' },
    });
    expect(res.body.book.category_ids).toEqual(
      expect.arrayContaining([cat['3e'], cat.Mathématiques, cat.Français, cat['Sciences de la vie et de la Terre']]),
    );
    expect(res.body.book.category_ids).not.toContain(cat.Anglais);
    const detail = await h.call('GET', `/books/${lotId}`);
    expect(detail.body.book.lot.items).toHaveLength(3);
  });

  it('is found by each of its books: a title word, an author, the ISBN, « maths 3e »', async () => {
    const found = async (query: string) => {
      const res = await h.call('GET', `/books?query=${encodeURIComponent(query)}`);
      expect(res.status).toBe(200);
      return res.body.data.map((b: { id: number }) => b.id) as number[];
    };
    expect(await found('Parcours Lotissime')).toContain(lotId);
    expect(await found('Découverte')).toContain(lotId);
    // A dash between words, as class lists write titles, is punctuation, not « exclude the next word ».
    expect(await found('SVT 3e – Découverte Lotissime')).toContain(lotId);
    expect(await found('Lotissime -Découverte')).not.toContain(lotId);
    expect(await found('Obiang')).toContain(lotId);
    expect(await found('9782011234567')).toContain(lotId);
    expect(await found('maths 3e')).toContain(lotId);
    // A book of the list that is not in the lot does not find it.
    expect(await found('Go Lotissime')).not.toContain(lotId);
    // Single-book listings keep their pages: the lot is marked on every card.
    const page = await h.call('GET', '/books?per_page=50');
    expect(page.body.data.find((b: { id: number }) => b.id === lotId).lot.items).toHaveLength(3);
  });

  it('answers « Ma liste » for each of its books, its price never taken for one book’s', async () => {
    const res = await h.call('GET', `/class-lists/${listId}/availability?city_id=${cat.Libreville}`);
    expect(res.status).toBe(200);
    const byTitle = Object.fromEntries(
      res.body.items.map((l: { item: { title: string } }) => [l.item.title.split(' ')[0], l]),
    );
    for (const name of ['Mathématiques', 'Français', 'SVT']) {
      expect(byTitle[name], name).toMatchObject({ match: 'exact', count: 1, lot_count: 1, cheapest_price: null });
      expect(byTitle[name].books[0]).toMatchObject({ id: lotId, lot_size: 3, proximity: 'city' });
    }
    expect(byTitle.Mathématiques.books[0].match).toBe('isbn');
    expect(byTitle.Anglais.match).toBe('none');
    expect(res.body.totals).toMatchObject({ found: 3, not_found: 1 });
  });

  it('alerts a parent who saved the list, once per missing book it holds', async () => {
    const events = (await h.events('catalog.class_list.match_found')).slice(alertsBefore);
    expect(events).toHaveLength(3);
    expect(events.every((e) => e.user_id === parent.sub && e.book.id === lotId)).toBe(true);
    expect(new Set(events.map((e) => e.item.id))).toEqual(new Set([item.Mathématiques, item.Français, item.SVT]));
  });

  it('keeps its books and subjects when its owner edits it, and refuses to change its books', async () => {
    const fields = {
      title: 'Lot de 3 manuels de 3e',
      author: 'Collectif',
      condition: 'bon',
      price: '5500',
      city_id: String(cat.Libreville),
      category_ids: [String(cat['3e'])],
    };
    const edited = await h.form('POST', `/books/${lotId}`, fields, {}, seller.token);
    expect(edited.status).toBe(200);
    expect(edited.body.book.lot.items).toHaveLength(3);
    expect(edited.body.book.category_ids).toEqual(expect.arrayContaining([cat['3e'], cat.Mathématiques]));
    const changed = await h.form(
      'POST',
      `/books/${lotId}`,
      { ...fields, lot_items: `${item.Anglais},${item.SVT}` },
      {},
      seller.token,
    );
    expect(changed.status).toBe(422);
    expect(changed.body.errors.lot_items[0]).toMatch(/ne se changent pas/);
  });

  it('goes with its books when deleted', async () => {
    expect((await h.call('DELETE', `/books/${lotId}`, undefined, seller.token)).status).toBe(200);
    expect(await h.db.select().from(bookLotItems).where(eq(bookLotItems.bookId, lotId))).toEqual([]);
  });
});

describe('a lot refused', () => {
  it.each([
    ['one book', () => [item.Mathématiques!], /au moins 2/],
    ['the same book twice', () => [item.Mathématiques!, item.Mathématiques!], /au moins 2/],
    ['an unknown book', () => [item.Mathématiques!, 999_999], /aucune liste de classe publiée/],
    ['books of two lists', () => [item.Mathématiques!, otherListItem], /même liste/],
  ])('with %s, in French, and nothing listed', async (_, ids, message) => {
    const before = (await h.call('GET', '/books?per_page=1')).body.total;
    const res = await listLot(seller, ids());
    expect(res.status).toBe(422);
    expect(res.body.errors.lot_items[0]).toMatch(message);
    expect((await h.call('GET', '/books?per_page=1')).body.total).toBe(before);
  });

  it('from a list not published', async () => {
    const draft = await createList('2034-2035', 'draft', [{ title: 'Brouillon A' }, { title: 'Brouillon B' }]);
    const res = await listLot(
      seller,
      draft.items.map((i) => i.id),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.lot_items[0]).toMatch(/aucune liste de classe publiée/);
  });

  it('with more books than a lot holds', async () => {
    const res = await listLot(
      seller,
      Array.from({ length: 31 }, (_, i) => i + 1),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.lot_items[0]).toMatch(/au plus 30/);
  });
});

describe('a lot open to exchange', () => {
  it('offers each of its books to the exchange matcher', async () => {
    const oyem = String(await h.cityId('Oyem'));
    const lotOwner = await h.token();
    const other = await h.token();
    await h.registerSeller(lotOwner.sub, 'Lot Échange', Number(oyem));
    await h.registerSeller(other.sub, 'Autre Échange', Number(oyem));
    const lot = await listLot(lotOwner, [item.Français!, item.SVT!], { city_id: oyem, is_exchange_possible: 'true' });
    expect(lot.status).toBe(201);
    const single = await h.form(
      'POST',
      '/books',
      {
        title: 'Anglais 3e Go Lotissime',
        author: 'Collectif',
        condition: 'bon',
        price: '2000',
        city_id: oyem,
        category_ids: [String(cat['3e'])],
        is_exchange_possible: 'true',
      },
      {},
      other.token,
    );
    expect(single.status).toBe(201);
    for (const [who, wanted] of [
      [lotOwner, item.Anglais],
      [other, item.SVT],
    ] as const) {
      const res = await h.call('POST', '/exchanges/wishes', { class_list_item_id: wanted }, who.token);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    while ((await h.catalog.exchanges.runMatcher()) === null) await new Promise((r) => setTimeout(r, 20));
    const mine = (await h.call('GET', '/exchanges', undefined, other.token)).body.suggestions;
    expect(mine).toHaveLength(1);
    expect(mine[0].legs.map((l: { book: { id: number } }) => l.book.id).sort()).toEqual(
      [lot.body.book.id, single.body.book.id].sort(),
    );
  });
});
