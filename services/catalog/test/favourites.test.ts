import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

let h: CatalogHarness;
let seller: { sub: string; token: string };
let member: { sub: string; token: string };
let other: { sub: string; token: string };
let moderator: { sub: string; token: string };
const ids: number[] = [];

async function publish(title: string, price = 5000) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title,
      author: 'Collection Excellence',
      condition: 'bon',
      price: String(price),
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('Terminale D'))],
    },
    {},
    seller.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

beforeAll(async () => {
  h = await startCatalog();
  seller = await h.token();
  member = await h.token();
  other = await h.token();
  moderator = await h.token({ permissions: ['books.update.any'] });
  for (const title of ['Mathématiques 3e', 'Français 4e', 'Physique 2nde', 'Anglais 6e'])
    ids.push(await publish(title));
});
afterAll(() => h?.teardown());

describe('favourites tied to the account', () => {
  it('needs a token and answers 404 in French for an unknown book', async () => {
    expect((await h.call('GET', '/favourites')).status).toBe(401);
    expect((await h.call('PUT', `/favourites/${ids[0]}`)).status).toBe(401);
    const unknown = await h.call('PUT', '/favourites/999999', undefined, member.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Ce manuel est introuvable.');
    const malformed = await h.call('PUT', '/favourites/abc', undefined, member.token);
    expect(malformed.status).toBe(422);
    expect(malformed.body.message).toMatch(/[a-zé]/);
  });

  it('adds, lists newest first and removes, each change once as an event', async () => {
    const added = await h.call('PUT', `/favourites/${ids[0]}`, undefined, member.token);
    expect(added.status).toBe(200);
    expect(added.body.ids).toEqual([ids[0]]);
    // Twice is the same: no second row, no second event.
    await h.call('PUT', `/favourites/${ids[0]}`, undefined, member.token);
    await h.call('PUT', `/favourites/${ids[1]}`, undefined, member.token);
    const list = await h.call('GET', '/favourites', undefined, member.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: { id: number }) => b.id)).toEqual([ids[1], ids[0]]);
    expect(list.body.total).toBe(2);
    expect((await h.events('catalog.favourite.added')).filter((e) => e.user_id === member.sub)).toHaveLength(2);

    const removed = await h.call('DELETE', `/favourites/${ids[1]}`, undefined, member.token);
    expect(removed.body.ids).toEqual([ids[0]]);
    await h.call('DELETE', `/favourites/${ids[1]}`, undefined, member.token);
    expect(await h.events('catalog.favourite.removed')).toHaveLength(1);
  });

  it('nobody reads or changes another member’s favourites', async () => {
    const theirs = await h.call('GET', '/favourites', undefined, other.token);
    expect(theirs.body.data).toEqual([]);
    expect(theirs.body.ids).toEqual([]);
    // There is no member id to pass: a stray one is ignored, the token decides.
    const sneaky = await h.call('GET', `/favourites?user_id=${member.sub}`, undefined, other.token);
    expect(sneaky.body.ids).toEqual([]);
    await h.call('DELETE', `/favourites/${ids[0]}`, undefined, other.token);
    expect((await h.call('GET', '/favourites', undefined, member.token)).body.ids).toEqual([ids[0]]);
  });

  it('merges the browser copy idempotently, skipping unknown ids', async () => {
    const body = { book_ids: [ids[2], ids[3], ids[0], 999999, ids[2]] };
    const first = await h.call('POST', '/favourites/merge', body, member.token);
    expect(first.status).toBe(200);
    expect(new Set(first.body.ids)).toEqual(new Set([ids[0], ids[2], ids[3]]));
    const eventsAfterFirst = (await h.events('catalog.favourite.added')).length;
    const second = await h.call('POST', '/favourites/merge', body, member.token);
    expect(new Set(second.body.ids)).toEqual(new Set(first.body.ids));
    expect((await h.events('catalog.favourite.added')).length).toBe(eventsAfterFirst);
    const bad = await h.call('POST', '/favourites/merge', { book_ids: ['x'] }, member.token);
    expect(bad.status).toBe(422);
    const tooMany = await h.call('POST', '/favourites/merge', { book_ids: Array(201).fill(1) }, member.token);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.book_ids).toEqual(['Au plus 200 manuels à la fois']);
  });

  it('pages the list', async () => {
    const page = await h.call('GET', '/favourites?per_page=2&page=2', undefined, member.token);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.last_page).toBe(2);
    expect(page.body.ids).toHaveLength(3);
  });

  it('a hidden book leaves the list, a deleted one drops out for good', async () => {
    const hide = await h.call('POST', `/admin/books/${ids[2]}/hide`, { reason: 'Annonce en double' }, moderator.token);
    expect(hide.status).toBe(200);
    const deleted = await h.call('DELETE', `/books/${ids[3]}`, undefined, seller.token);
    expect(deleted.status).toBe(200);
    const list = await h.call('GET', '/favourites', undefined, member.token);
    expect(list.body.ids).toEqual([ids[0]]);
    expect(list.body.data.map((b: { id: number }) => b.id)).toEqual([ids[0]]);
    expect((await h.call('PUT', `/favourites/${ids[2]}`, undefined, member.token)).status).toBe(404);
  });
});

describe("a member's public listings and deals", () => {
  it('lists available and reserved books, without hidden or sold ones, paginated, to visitors', async () => {
    await h.call('PUT', `/books/${ids[1]}/status`, { status: 'vendu' }, seller.token);
    const res = await h.call('GET', `/users/${seller.sub}/books`);
    expect(res.status).toBe(200);
    // ids[1] sold, ids[2] hidden, ids[3] deleted.
    expect(res.body.data.map((b: { id: number }) => b.id)).toEqual([ids[0]]);
    expect(res.body.total).toBe(1);
    const extra = await publish('Histoire Géographie 5e');
    await h.call('PUT', `/books/${extra}/status`, { status: 'réservé' }, seller.token);
    const paged = await h.call('GET', `/users/${seller.sub}/books?per_page=1&page=1`);
    expect(paged.body.data.map((b: { id: number }) => b.id)).toEqual([extra]);
    expect(paged.body.last_page).toBe(2);
    expect((await h.call('GET', '/users/pas-un-membre/books')).status).toBe(422);
  });

  it('counts deals completed', async () => {
    const res = await h.call('GET', `/users/${seller.sub}/deals`);
    expect(res.status).toBe(200);
    expect(res.body.deals_completed).toBe(0);
  });
});
