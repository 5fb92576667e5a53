import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sellers, transactions } from '../src/db/schema.ts';
import { bookContactsProjection } from '../src/modules/trust/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * Ratings cannot be farmed: a listing a confirmed deal sold stays sold (no selling the same book
 * again and again to a friend), and repeated deals between the same two members count once per
 * 180 days in the public average and in « transactions conclues ».
 */
type Member = { sub: string; token: string };
let h: CatalogHarness;
let seller: Member;
let friend: Member;
let stranger: Member;

const message = (from: Member, to: Member, bookId: number) =>
  h.deliver(bookContactsProjection, 'messaging.message.sent', {
    message_id: randomUUID(),
    conversation_id: randomUUID(),
    book_id: bookId,
    book_title: 'Manuel',
    sender_id: from.sub,
    sender_name: 'Membre',
    receiver_id: to.sub,
    content: 'Bonjour, le manuel est-il toujours disponible ?',
    send_email_copy: false,
    created_at: new Date().toISOString(),
  });

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

/** A sale of `bookId` from the seller to `buyer`, confirmed; returns the deal's id. */
async function sell(bookId: number, buyer: Member) {
  await message(buyer, seller, bookId);
  const proposed = await h.call(
    'POST',
    '/transactions',
    { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: 1000 },
    seller.token,
  );
  expect(proposed.status).toBe(201);
  const id = proposed.body.transaction.id as string;
  expect((await h.call('POST', `/transactions/${id}/confirm`, {}, buyer.token)).status).toBe(200);
  return id;
}

const rate = (who: Member, dealId: string, rating: number) =>
  h.call('POST', '/ratings', { transaction_id: dealId, rating, comment: 'Parfait, merci beaucoup' }, who.token);

const publicRating = async (member: Member) => (await h.call('GET', `/users/${member.sub}/ratings`)).body.summary;
const dealsCompleted = async (member: Member) =>
  (await h.call('GET', `/users/${member.sub}/deals`)).body.deals_completed as number;

beforeAll(async () => {
  h = await startCatalog();
  seller = await h.token();
  friend = await h.token();
  stranger = await h.token();
  await h.registerSeller(seller.sub, 'Awa Vendeuse');
  await h.registerSeller(friend.sub, 'Brice Ami');
  await h.registerSeller(stranger.sub, 'Chantal Inconnue');
});
afterAll(() => h?.teardown());

describe('a listing sold in a confirmed deal', () => {
  it('stays sold: its owner cannot put it back on sale nor reserve it, nor can a moderator', async () => {
    const bookId = await listBook(seller, 'Philosophie Terminale');
    await sell(bookId, friend);

    for (const status of ['disponible', 'réservé']) {
      const res = await h.call('PUT', `/books/${bookId}/status`, { status }, seller.token);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        'Ce manuel a été vendu par une transaction confirmée : son statut ne peut plus changer.',
      );
    }
    const moderator = (await h.token({ permissions: ['books.update.any'] })).token;
    const byModerator = await h.call('PUT', `/admin/books/${bookId}/status`, { status: 'disponible' }, moderator);
    expect(byModerator.status).toBe(409);
    expect((await h.call('GET', `/books/${bookId}`)).body.book.status).toBe('vendu');

    // A second deal on it is refused, so no second rating for the same book.
    await message(friend, seller, bookId);
    const again = await h.call(
      'POST',
      '/transactions',
      { book_id: bookId, buyer_id: friend.sub, kind: 'sale', price: 1000 },
      seller.token,
    );
    expect(again.status).toBe(409);
  });

  it('a listing its owner marked vendu by hand (no deal) can still go back on sale', async () => {
    const bookId = await listBook(seller, 'Anglais Terminale');
    expect((await h.call('PUT', `/books/${bookId}/status`, { status: 'vendu' }, seller.token)).status).toBe(200);
    expect((await h.call('PUT', `/books/${bookId}/status`, { status: 'disponible' }, seller.token)).status).toBe(200);
  });
});

describe('a deal and its rating are between two members', () => {
  it('the database itself refuses a deal with oneself', async () => {
    await expect(
      h.db.insert(transactions).values({
        bookId: 1,
        bookTitle: 'Manuel',
        sellerId: seller.sub,
        buyerId: seller.sub,
        kind: 'gift',
        status: 'confirmed',
      }),
    ).rejects.toThrow();
  });
});

describe('repeated deals between the same two members', () => {
  it('count once in the public average and in « transactions conclues » within 180 days', async () => {
    // The first test's deal with the friend, then three more with the friend, each rated 5.
    const [first] = await h.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.sellerId, seller.sub), eq(transactions.buyerId, friend.sub)));
    expect((await rate(friend, first!.id, 5)).status).toBe(201);
    for (const title of ['Maths Terminale D', 'SVT Terminale D', 'Physique Terminale D']) {
      const deal = await sell(await listBook(seller, title), friend);
      expect((await rate(friend, deal, 5)).status).toBe(201);
    }
    expect(await publicRating(seller)).toEqual({ average: 5, count: 1 });
    expect(await dealsCompleted(seller)).toBe(1);
    expect(await dealsCompleted(friend)).toBe(1);

    // A deal with someone else counts on its own.
    const other = await sell(await listBook(seller, 'Histoire Terminale'), stranger);
    expect((await rate(stranger, other, 2)).status).toBe(201);
    expect(await publicRating(seller)).toEqual({ average: 3.5, count: 2 });
    const [row] = await h.db.select().from(sellers).where(eq(sellers.userId, seller.sub));
    expect(row).toMatchObject({ ratingAverage: 3.5, ratingCount: 2 });
    expect((await h.call('GET', '/ratings/mine?direction=received', undefined, seller.token)).body.summary).toEqual({
      average: 3.5,
      count: 2,
    });
    expect(await dealsCompleted(seller)).toBe(2);
  });

  it('count again once the window has passed', async () => {
    // The friend's deals so far were confirmed more than 180 days ago.
    const longAgo = new Date(Date.now() - 200 * 24 * 3600_000);
    await h.db
      .update(transactions)
      .set({ confirmedAt: longAgo })
      .where(and(eq(transactions.sellerId, seller.sub), eq(transactions.buyerId, friend.sub)));
    const deal = await sell(await listBook(seller, 'Géographie Terminale'), friend);
    expect((await rate(friend, deal, 2)).status).toBe(201);
    // 5 (long ago), 2 (now) from the friend, 2 from the stranger.
    expect(await publicRating(seller)).toEqual({ average: 3, count: 3 });
    expect(await dealsCompleted(seller)).toBe(3);
  });
});
