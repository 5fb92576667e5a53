import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookContactsProjection } from '../src/modules/trust/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
const ISBN = '978-2-7531-0662-4';
const OTHER_ISBN = '9782218999999';

async function listBook(owner: Member, book: { title: string; price: number; isbn?: string; condition?: string }) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title: book.title,
      author: 'IPN',
      condition: book.condition ?? 'bon',
      price: String(book.price),
      ...(book.isbn ? { isbn: book.isbn } : {}),
      city_id: String(await h.cityId('Libreville')),
      category_ids: [String(await h.categoryId('6e'))],
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

/** A sale from `seller` to `buyer`, confirmed by the buyer, as the product records one. */
async function sell(
  seller: Member,
  buyer: Member,
  book: { title: string; price: number; isbn?: string; condition?: string },
) {
  const bookId = await listBook(seller, book);
  await h.deliver(bookContactsProjection, 'messaging.message.sent', {
    message_id: randomUUID(),
    conversation_id: randomUUID(),
    book_id: bookId,
    book_title: book.title,
    sender_id: buyer.sub,
    sender_name: 'Membre',
    receiver_id: seller.sub,
    content: 'Bonjour, toujours disponible ?',
    send_email_copy: false,
    created_at: new Date().toISOString(),
  });
  const proposed = await h.call(
    'POST',
    '/transactions',
    { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: book.price },
    seller.token,
  );
  expect(proposed.status).toBe(201);
  const confirmed = await h.call('POST', `/transactions/${proposed.body.transaction.id}/confirm`, {}, buyer.token);
  expect(confirmed.status).toBe(200);
  return bookId;
}

const guide = (who: Member, query: Record<string, string>) =>
  h.call('GET', `/books/price-guide?${new URLSearchParams(query)}`, undefined, who.token);

let members: Member[];
beforeAll(async () => {
  h = await startCatalog();
  members = await Promise.all(Array.from({ length: 8 }, () => h.token()));
});
afterAll(() => h?.teardown());

describe('the price guide', () => {
  it('suggests nothing from fewer than three sales, and says how many it found', async () => {
    const [s1, s2, b1, b2] = members as [Member, Member, Member, Member];
    await sell(s1, b1, { title: 'Mathématiques 6e – IPN', price: 2000, isbn: ISBN });
    await sell(s2, b2, { title: 'Maths 6e (IPN)', price: 3000, isbn: ISBN });
    const res = await guide(s1, { isbn: ISBN, condition: 'bon' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ usual: null, deals: 2, min_deals: 3 });
  });

  it('gives the median and quartiles of the sales of the same book and condition, one per pair of members', async () => {
    const [s1, , b1, , s3, b3, x, y] = members as [Member, Member, Member, Member, Member, Member, Member, Member];
    // The same pair again, later and dearer: it counts once, at its latest price.
    await sell(s1, b1, { title: 'Mathématiques 6e – IPN', price: 9000, isbn: ISBN });
    expect((await guide(s1, { isbn: ISBN, condition: 'bon' })).body).toMatchObject({ usual: null, deals: 2 });
    await sell(s3, b3, { title: 'Mathématiques 6e', price: 5000, isbn: ISBN });
    // Another condition and another book do not count.
    await sell(x, y, { title: 'Mathématiques 6e', price: 500, isbn: ISBN, condition: 'mauvais' });
    await sell(y, x, { title: 'Français 6e', price: 100, isbn: OTHER_ISBN });

    const byIsbn = await guide(s1, { isbn: ISBN, title: 'Livre sans rapport', condition: 'bon' });
    expect(byIsbn.body.usual).toEqual({ median: 5000, low: 3000, high: 9000, deals: 3 });
    // By title alone: only the sales whose title is the same once case, accents and punctuation are out.
    const byTitle = await guide(s1, { title: 'MATHEMATIQUES 6e', condition: 'bon' });
    expect(byTitle.body).toMatchObject({ usual: null, deals: 1 });
  });

  it('shows the offers of the moment beside it, gifts and the listing being edited left out', async () => {
    const [seller, other] = members as [Member, Member];
    const mine = await listBook(seller, { title: 'Mathématiques 6e', price: 4500, isbn: ISBN });
    await listBook(other, { title: 'Mathématiques 6e', price: 3500, isbn: ISBN });
    await listBook(other, { title: 'Mathématiques 6e', price: 0, isbn: ISBN });
    const res = await guide(seller, { isbn: ISBN, condition: 'bon', exclude_id: String(mine) });
    expect(res.body.listings).toEqual({ count: 1, low: 3500, high: 3500 });
    const all = await guide(seller, { isbn: ISBN, condition: 'bon' });
    expect(all.body.listings).toEqual({ count: 2, low: 3500, high: 4500 });
  });

  it('puts « prix habituel » on the page of a listing of the same book, for visitors too', async () => {
    const bookId = await listBook(members[4]!, { title: 'Mathématiques 6e', price: 6000, isbn: ISBN });
    const page = await h.call('GET', `/books/${bookId}`);
    expect(page.body.book.usual_price).toEqual({ median: 5000, low: 3000, high: 9000, deals: 3 });
    const otherBook = await listBook(members[4]!, { title: 'Anglais 6e', price: 6000 });
    expect((await h.call('GET', `/books/${otherBook}`)).body.book.usual_price).toBeNull();
  });

  it('asks for a member, a title or an ISBN, and a known condition, in French', async () => {
    expect((await h.call('GET', '/books/price-guide?title=Maths&condition=bon')).status).toBe(401);
    const none = await guide(members[0]!, { condition: 'bon' });
    expect(none.status).toBe(422);
    expect(none.body.errors.title).toEqual(['Indiquez le titre ou l’ISBN du manuel']);
    const badCondition = await guide(members[0]!, { title: 'Maths', condition: 'abîmé' });
    expect(badCondition.status).toBe(422);
    expect(badCondition.body.errors.condition).toEqual(["Choisissez l'état du manuel"]);
  });
});
