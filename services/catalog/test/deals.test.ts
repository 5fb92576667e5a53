import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import type { EventHandlers } from '@cartable/service-kit';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookContacts, reviews, sellers } from '../src/db/schema.ts';
import { sellersProjection } from '../src/modules/members/index.ts';
import { bookContactsProjection } from '../src/modules/trust/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let seller: Member;
let buyer: Member;
let buyer2: Member;
let third: Member;

/** An event handled as the consumer does: in a transaction of catalog's database. */
async function deliver<T extends EventType>(handlers: EventHandlers, type: T, data: Envelope<T>['data']) {
  const envelope = { id: randomUUID(), type, occurred_at: new Date().toISOString(), data } as Envelope<T>;
  // biome-ignore lint/suspicious/noExplicitAny: the handler of this type takes this envelope
  await h.db.transaction((tx) => (handlers[type] as any)(tx, envelope));
}

const register = (m: Member, name: string) =>
  deliver(sellersProjection, 'auth.user.registered', {
    user_id: m.sub,
    name,
    username: name.toLowerCase().replace(/\W/g, '_'),
    email: `${m.sub}@example.ga`,
    country_id: 266,
    city_id: null,
    profile_image: null,
    created_at: new Date().toISOString(),
    version: 1,
    verification: { token: 't', expires_at: new Date().toISOString() },
  });

/** messaging.message.sent: `from` wrote to `to` about `bookId`. */
const message = (from: Member, to: Member, bookId: number, createdAt = new Date()) =>
  deliver(bookContactsProjection, 'messaging.message.sent', {
    message_id: randomUUID(),
    conversation_id: randomUUID(),
    book_id: bookId,
    book_title: 'Manuel',
    sender_id: from.sub,
    sender_name: 'Membre',
    receiver_id: to.sub,
    content: 'Bonjour, le manuel est-il toujours disponible ?',
    send_email_copy: false,
    created_at: createdAt.toISOString(),
  });

async function listBook(owner: Member, title: string, price = 5000) {
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
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

const propose = (who: Member, body: Record<string, unknown>) => h.call('POST', '/transactions', body, who.token);
const act = (who: Member, id: string, action: 'confirm' | 'decline' | 'cancel') =>
  h.call('POST', `/transactions/${id}/${action}`, {}, who.token);
const status = async (bookId: number) =>
  (await h.call('GET', `/books/${bookId}`, undefined, seller.token)).body.book.status;

beforeAll(async () => {
  h = await startCatalog();
  seller = await h.token();
  buyer = await h.token();
  buyer2 = await h.token();
  third = await h.token();
  await register(seller, 'Awa Vendeuse');
  await register(buyer, 'Brice Acheteur');
  await register(buyer2, 'Chantal Acheteuse');
  await register(third, 'Denis Tiers');
});
afterAll(() => h?.teardown());

describe('who wrote to whom about which book (messaging.message.sent)', () => {
  it('keeps one pair per direction, idempotent and order-independent', async () => {
    const bookId = 900_001;
    const early = new Date('2025-01-01T10:00:00Z');
    const late = new Date('2025-01-03T10:00:00Z');
    await message(buyer, seller, bookId, late);
    await message(buyer, seller, bookId, late);
    await message(seller, buyer, bookId, early);
    const rows = await h.db
      .select()
      .from(bookContacts)
      .where(and(eq(bookContacts.bookId, bookId), eq(bookContacts.memberId, seller.sub)));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ otherId: buyer.sub, firstMessageAt: early, lastMessageAt: late });
    const back = await h.db.select().from(bookContacts).where(eq(bookContacts.bookId, bookId));
    expect(back).toHaveLength(2);
  });
});

describe('recording a deal', () => {
  let bookId: number;
  beforeAll(async () => {
    bookId = await listBook(seller, 'Mathématiques Terminale D – à conclure');
  });

  it('is refused without a conversation about the book', async () => {
    const res = await propose(seller, { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: 4000 });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/ne vous a pas écrit/);
    expect(res.body.errors.buyer_id).toBeDefined();
  });

  it('is refused to anyone but the owner, and with oneself', async () => {
    await message(buyer, seller, bookId);
    const byBuyer = await propose(buyer, { book_id: bookId, buyer_id: seller.sub, kind: 'sale', price: 4000 });
    expect(byBuyer.status).toBe(403);
    expect(byBuyer.body.message).toBe('Seul le propriétaire de l’annonce peut conclure une transaction.');
    const self = await propose(seller, { book_id: bookId, buyer_id: seller.sub, kind: 'gift' });
    expect(self.status).toBe(422);
  });

  it('needs a price for a sale (an integer, 0 or more)', async () => {
    const none = await propose(seller, { book_id: bookId, buyer_id: buyer.sub, kind: 'sale' });
    expect(none.status).toBe(422);
    expect(none.body.errors.price).toEqual(['Indiquez le prix convenu']);
    const negative = await propose(seller, { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: -5 });
    expect(negative.status).toBe(422);
    const decimal = await propose(seller, { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: 12.5 });
    expect(decimal.status).toBe(422);
  });

  it('keeps one open proposal per book and buyer, records the event, and a retry with its key answers the same', async () => {
    const key = randomUUID();
    const send = () =>
      h.app.inject({
        method: 'POST',
        url: '/transactions',
        headers: { authorization: `Bearer ${seller.token}`, 'idempotency-key': key },
        payload: { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: 4000 },
      });
    const first = await send();
    expect(first.statusCode).toBe(201);
    const deal = first.json().transaction;
    expect(deal).toMatchObject({
      status: 'proposed',
      status_label: 'Proposée',
      kind: 'sale',
      price: 4000,
      role: 'seller',
      seller: { id: seller.sub, name: 'Awa Vendeuse' },
      buyer: { id: buyer.sub, name: 'Brice Acheteur' },
      book: { id: bookId, title: 'Mathématiques Terminale D – à conclure', exists: true },
      conversation_url: `/messages/${bookId}/${buyer.sub}`,
      rating: { can_rate: false, mine: null, theirs: null },
    });
    const replay = await send();
    expect(replay.statusCode).toBe(201);
    expect(replay.json().transaction.id).toBe(deal.id);

    const twice = await propose(seller, { book_id: bookId, buyer_id: buyer.sub, kind: 'gift' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Une proposition est déjà en attente pour ce manuel avec ce membre.');

    const events = (await h.events('catalog.transaction.proposed')).filter((e) => e.transaction_id === deal.id);
    expect(events).toEqual([
      expect.objectContaining({
        book_id: bookId,
        book_title: 'Mathématiques Terminale D – à conclure',
        kind: 'sale',
        price: 4000,
        seller_id: seller.sub,
        buyer_id: buyer.sub,
        status: 'proposed',
      }),
    ]);
  });

  it('is refused on a sold book', async () => {
    const sold = await listBook(seller, 'Histoire Géographie 3e déjà vendu');
    await message(buyer, seller, sold);
    expect((await h.call('PUT', `/books/${sold}/status`, { status: 'vendu' }, seller.token)).status).toBe(200);
    const res = await propose(seller, { book_id: sold, buyer_id: buyer.sub, kind: 'gift' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Ce manuel n’est plus disponible (vendu, masqué ou supprimé).');
  });
});

describe('answering a deal', () => {
  let bookId: number;
  let dealId: string;
  beforeAll(async () => {
    bookId = await listBook(seller, 'Physique Chimie 2nde', 6000);
    await message(buyer, seller, bookId);
    const res = await propose(seller, { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: 5500 });
    dealId = res.body.transaction.id;
  });

  it('is read by its two parties only', async () => {
    expect((await h.call('GET', `/transactions/${dealId}`, undefined, seller.token)).status).toBe(200);
    const mine = await h.call('GET', `/transactions/${dealId}`, undefined, buyer.token);
    expect(mine.status).toBe(200);
    expect(mine.body.transaction.role).toBe('buyer');
    const other = await h.call('GET', `/transactions/${dealId}`, undefined, third.token);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe('Transaction introuvable.');
    expect((await h.call('GET', `/transactions/${dealId}`)).status).toBe(401);
    // Nor can a third person act on it.
    expect((await act(third, dealId, 'cancel')).status).toBe(404);
  });

  it('counts the proposals awaiting the buyer, and lists them by role and state', async () => {
    expect((await h.call('GET', '/transactions/pending-count', undefined, buyer.token)).body.count).toBeGreaterThan(0);
    expect((await h.call('GET', '/transactions/pending-count', undefined, third.token)).body.count).toBe(0);
    const asBuyer = await h.call('GET', '/transactions?role=buyer&status=proposed', undefined, buyer.token);
    expect(asBuyer.body.data.map((t: { id: string }) => t.id)).toContain(dealId);
    const asSeller = await h.call('GET', '/transactions?role=seller', undefined, buyer.token);
    expect(asSeller.body.data).toEqual([]);
    expect(asSeller.body.meta).toMatchObject({ current_page: 1, last_page: 1, total: 0 });
    const bad = await h.call('GET', '/transactions?status=perdu', undefined, buyer.token);
    expect(bad.status).toBe(422);
  });

  it('cannot be confirmed by the seller', async () => {
    const res = await act(seller, dealId, 'confirm');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Seul le membre à qui la transaction est proposée peut la confirmer ou la refuser.');
    expect(await status(bookId)).toBe('disponible');
  });

  it('is confirmed once: the book is sold, with its status_changed event, and the deal is final', async () => {
    const [a, b] = await Promise.all([act(buyer, dealId, 'confirm'), act(buyer, dealId, 'confirm')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const ok = a.status === 200 ? a : b;
    expect(ok.body.message).toBe('Transaction confirmée avec succès');
    expect(ok.body.transaction).toMatchObject({
      status: 'confirmed',
      status_label: 'Confirmée',
      rating: { can_rate: true },
    });
    expect(await status(bookId)).toBe('vendu');
    const changes = (await h.events('catalog.book.status_changed')).filter((e) => e.book_id === bookId);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ status: 'vendu', previous_status: 'disponible' });
    expect((await h.events('catalog.transaction.confirmed')).map((e) => e.transaction_id)).toContain(dealId);
    // Final: neither cancelled nor declined afterwards.
    expect((await act(seller, dealId, 'cancel')).status).toBe(409);
    expect((await act(buyer, dealId, 'decline')).status).toBe(409);
  });

  it('two buyers confirming at once: the book is sold once, the other deal refused then cancelled', async () => {
    const contested = await listBook(seller, 'Anglais 1ère très demandé');
    await message(buyer, seller, contested);
    await message(buyer2, seller, contested);
    const one = (await propose(seller, { book_id: contested, buyer_id: buyer.sub, kind: 'sale', price: 3000 })).body
      .transaction.id;
    const two = (await propose(seller, { book_id: contested, buyer_id: buyer2.sub, kind: 'gift' })).body.transaction.id;
    const [a, b] = await Promise.all([act(buyer, one, 'confirm'), act(buyer2, two, 'confirm')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const changes = (await h.events('catalog.book.status_changed')).filter((e) => e.book_id === contested);
    expect(changes).toHaveLength(1);
    const loser = a.status === 200 ? two : one;
    const loserOwner = a.status === 200 ? buyer2 : buyer;
    const after = await h.call('GET', `/transactions/${loser}`, undefined, loserOwner.token);
    expect(after.body.transaction).toMatchObject({ status: 'cancelled', cancelled_by: null });
  });

  it('can be declined by the buyer, cancelled by either party before confirmation', async () => {
    const bookA = await listBook(seller, 'SVT 4e');
    await message(buyer, seller, bookA);
    const d1 = (await propose(seller, { book_id: bookA, buyer_id: buyer.sub, kind: 'gift' })).body.transaction;
    expect(d1.price).toBe(0);
    expect((await act(seller, d1.id, 'decline')).status).toBe(403);
    const declined = await act(buyer, d1.id, 'decline');
    expect(declined.status).toBe(200);
    expect(declined.body.transaction.status_label).toBe('Refusée');
    // A new proposal may follow the declined one.
    const d2 = (await propose(seller, { book_id: bookA, buyer_id: buyer.sub, kind: 'sale', price: 0 })).body
      .transaction;
    const cancelled = await act(buyer, d2.id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.transaction).toMatchObject({ status: 'cancelled', cancelled_by: buyer.sub });
    const events = await h.events('catalog.transaction.cancelled');
    expect(events.find((e) => e.transaction_id === d2.id)).toMatchObject({ cancelled_by: buyer.sub });
    expect((await h.events('catalog.transaction.declined')).map((e) => e.transaction_id)).toContain(d1.id);
    expect(await status(bookA)).toBe('disponible');
  });

  it('an exchange against one of the buyer’s listings sells both', async () => {
    const mine = await listBook(seller, 'Français 3e à échanger');
    const theirs = await listBook(buyer, 'Mathématiques 3e de Brice');
    const other = await listBook(third, 'Livre de Denis');
    await message(buyer, seller, mine);
    const notTheirs = await propose(seller, {
      book_id: mine,
      buyer_id: buyer.sub,
      kind: 'exchange',
      exchange_book_id: other,
    });
    expect(notTheirs.status).toBe(422);
    expect(notTheirs.body.errors.exchange_book_id).toBeDefined();
    const deal = await propose(seller, {
      book_id: mine,
      buyer_id: buyer.sub,
      kind: 'exchange',
      exchange_book_id: theirs,
    });
    expect(deal.status).toBe(201);
    expect(deal.body.transaction).toMatchObject({
      kind_label: 'Échange',
      price: null,
      exchange_book: { id: theirs, title: 'Mathématiques 3e de Brice' },
    });
    expect((await act(buyer, deal.body.transaction.id, 'confirm')).status).toBe(200);
    expect(await status(mine)).toBe('vendu');
    const theirBook = await h.call('GET', `/books/${theirs}`, undefined, buyer.token);
    expect(theirBook.body.book.status).toBe('vendu');
  });

  it('lists the members who wrote about a listing, to its owner only', async () => {
    const res = await h.call('GET', `/transactions/candidates?book_id=${bookId}`, undefined, seller.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([expect.objectContaining({ id: buyer.sub, name: 'Brice Acheteur' })]);
    expect((await h.call('GET', `/transactions/candidates?book_id=${bookId}`, undefined, buyer.token)).status).toBe(
      403,
    );
  });
});

describe('ratings', () => {
  let bookId: number;
  let dealId: string;
  beforeAll(async () => {
    bookId = await listBook(seller, 'Philosophie Terminale à noter', 7000);
    await message(buyer, seller, bookId);
    dealId = (await propose(seller, { book_id: bookId, buyer_id: buyer.sub, kind: 'sale', price: 6500 })).body
      .transaction.id;
  });
  const rate = (who: Member, body: Record<string, unknown>) => h.call('POST', '/ratings', body, who.token);

  it('is refused before the confirmation', async () => {
    const res = await rate(buyer, { transaction_id: dealId, rating: 5, comment: 'Très bien' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Vous pourrez évaluer cette transaction une fois qu’elle aura été confirmée.');
  });

  it('is refused to a third person and of oneself, with the comment rules', async () => {
    expect((await act(buyer, dealId, 'confirm')).status).toBe(200);
    const byThird = await rate(third, { transaction_id: dealId, rating: 1, comment: 'Je ne les connais pas' });
    expect(byThird.status).toBe(403);
    expect(byThird.body.message).toBe('Seules les deux parties d’une transaction peuvent l’évaluer.');
    const self = await rate(buyer, { transaction_id: dealId, rating: 5, comment: 'Moi-même', to_user_id: buyer.sub });
    expect(self.status).toBe(422);
    expect(self.body.message).toBe('Vous ne pouvez pas vous évaluer vous-même.');
    const empty = await rate(buyer, { transaction_id: dealId, rating: 5, comment: '  ' });
    expect(empty.body.errors.comment).toEqual(['Le commentaire ne peut pas être vide']);
    const short = await rate(buyer, { transaction_id: dealId, rating: 5, comment: 'a' });
    expect(short.body.errors.comment).toEqual(['Le commentaire doit contenir au moins 2 caractères']);
    const long = await rate(buyer, { transaction_id: dealId, rating: 5, comment: 'x'.repeat(501) });
    expect(long.body.errors.comment).toEqual(['Le commentaire ne peut pas dépasser 500 caractères']);
    const stars = await rate(buyer, { transaction_id: dealId, rating: 6, comment: 'Trop bien' });
    expect(stars.body.errors.rating).toEqual(['La note doit être comprise entre 1 et 5 étoiles']);
  });

  it('each party rates the other once; the aggregate is on the seller and the book page', async () => {
    const byBuyer = await rate(buyer, {
      transaction_id: dealId,
      rating: 5,
      comment: 'Vendeuse ponctuelle, livre comme décrit',
    });
    expect(byBuyer.status).toBe(201);
    expect(byBuyer.body.rating).toMatchObject({
      from_user_id: buyer.sub,
      to_user_id: seller.sub,
      rating: 5,
      from_user: { name: 'Brice Acheteur' },
      transaction: { id: dealId, kind: 'sale', book: { id: bookId } },
    });
    const twice = await rate(buyer, { transaction_id: dealId, rating: 4, comment: 'Encore une fois' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/déjà évalué/);
    const bySeller = await rate(seller, { transaction_id: dealId, rating: 4, comment: 'Acheteur sérieux' });
    expect(bySeller.status).toBe(201);
    expect(bySeller.body.rating.to_user_id).toBe(buyer.sub);

    // A second deal rated 2 stars: seller's average (5 + 2) / 2.
    const other = await listBook(seller, 'Économie Terminale');
    await message(buyer2, seller, other);
    const deal2 = (await propose(seller, { book_id: other, buyer_id: buyer2.sub, kind: 'gift' })).body.transaction.id;
    await act(buyer2, deal2, 'confirm');
    expect((await rate(buyer2, { transaction_id: deal2, rating: 2, comment: 'Livre abîmé' })).status).toBe(201);

    const [row] = await h.db.select().from(sellers).where(eq(sellers.userId, seller.sub));
    expect(row).toMatchObject({ ratingAverage: 3.5, ratingCount: 2 });
    const page = await h.call('GET', `/books/${bookId}`);
    expect(page.body.book.seller.rating).toEqual({ average: 3.5, count: 2 });
    const events = (await h.events('catalog.seller.rated')).filter((e) => e.user_id === seller.sub);
    expect(events.at(-1)).toMatchObject({ average: 3.5, count: 2 });
    expect(events.map((e) => e.version)).toEqual([1, 2]);

    const deal = await h.call('GET', `/transactions/${dealId}`, undefined, seller.token);
    expect(deal.body.transaction.rating).toMatchObject({
      can_rate: false,
      mine: { rating: 4 },
      theirs: { rating: 5 },
    });

    const received = await h.call('GET', '/ratings/mine?direction=received', undefined, seller.token);
    expect(received.body.summary).toEqual({ average: 3.5, count: 2 });
    expect(received.body.data).toHaveLength(2);
    const given = await h.call('GET', '/ratings/mine?direction=given', undefined, seller.token);
    expect(given.body.data.map((r: { to_user_id: string }) => r.to_user_id)).toEqual([buyer.sub]);
    const publicList = await h.call('GET', `/users/${seller.sub}/ratings`);
    expect(publicList.status).toBe(200);
    expect(publicList.body.summary).toEqual({ average: 3.5, count: 2 });
    expect(publicList.body.meta).toMatchObject({ current_page: 1, total: 2 });
  });

  it('is edited by its author within 7 days, not after', async () => {
    const [review] = await h.db
      .select()
      .from(reviews)
      .where(and(eq(reviews.transactionId, dealId), eq(reviews.fromUserId, buyer.sub)));
    const byOther = await h.call('PUT', `/ratings/${review!.id}`, { rating: 1, comment: 'Pas moi' }, seller.token);
    expect(byOther.status).toBe(403);
    const edited = await h.call(
      'PUT',
      `/ratings/${review!.id}`,
      { rating: 4, comment: 'Bien, un peu en retard' },
      buyer.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.message).toBe('Évaluation modifiée avec succès');
    const [row] = await h.db.select().from(sellers).where(eq(sellers.userId, seller.sub));
    expect(row).toMatchObject({ ratingAverage: 3, ratingCount: 2 });

    await h.db
      .update(reviews)
      .set({ createdAt: new Date(Date.now() - 8 * 24 * 3600_000) })
      .where(eq(reviews.id, review!.id));
    const late = await h.call('PUT', `/ratings/${review!.id}`, { rating: 1, comment: 'Trop tard' }, buyer.token);
    expect(late.status).toBe(403);
    expect(late.body.message).toBe('Une évaluation ne peut plus être modifiée 7 jours après sa publication.');
  });
});
