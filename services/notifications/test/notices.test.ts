import { randomUUID } from 'node:crypto';
import type { Envelope, EventType } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { refusedBeforeValidation, testTokens } from '@cartable/service-kit/testing';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNotificationsApp } from '../src/app.ts';
import { members, notices, outgoingMails } from '../src/db/schema.ts';
import { noticeTriggers } from '../src/events/notices.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { notificationsDatabase, testConfig } from './helpers.ts';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
let app: Awaited<ReturnType<typeof buildNotificationsApp>>;
let tokens: Awaited<ReturnType<typeof testTokens>>;
const owner = { sub: randomUUID(), token: '' };
const fan = { sub: randomUUID(), token: '' };
const quiet = { sub: randomUUID(), token: '' };
const other = { sub: randomUUID(), token: '' };
const BOOK = 77;

function envelope<T extends EventType>(type: T, data: Envelope<T>['data']): Envelope<T> {
  return { id: randomUUID(), type, occurred_at: new Date().toISOString(), data } as Envelope<T>;
}
async function deliver<T extends EventType>(event: Envelope<T>) {
  // biome-ignore lint/suspicious/noExplicitAny: the handler of this type takes this envelope
  await db.transaction((tx) => (noticeTriggers[event.type] as any)(tx, event));
}
const book = (extra: Record<string, unknown> = {}) => ({
  book_id: BOOK,
  user_id: owner.sub,
  title: 'Mathématiques 3e',
  price: 6000,
  status: 'disponible',
  city_id: null,
  category_ids: [],
  thumbnail: null,
  version: 2,
  occurred_at: new Date().toISOString(),
  ...extra,
});
async function call(method: string, url: string, who?: { token: string }, body?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON of any shape
  return { status: res.statusCode, body: res.json() as any };
}
const mailsTo = (email: string) => db.select().from(outgoingMails).where(eq(outgoingMails.recipient, email));

beforeAll(async () => {
  database = await notificationsDatabase();
  db = database.db;
  tokens = await testTokens();
  for (const m of [owner, fan, quiet, other]) m.token = (await tokens.token({ sub: m.sub })).token;
  app = await buildNotificationsApp(
    { config: testConfig({ NOTIFICATIONS_DATABASE_URL: 'postgres://x@127.0.0.1/x' }), db, guards: tokens.guards },
    [],
    false,
  );
  await db.insert(members).values([
    { id: owner.sub, name: 'Awa', email: 'awa@example.ga' },
    { id: fan.sub, name: 'Jean', email: 'jean@example.ga' },
    { id: quiet.sub, name: 'Marie', email: 'marie@example.ga' },
    { id: other.sub, name: 'Paul', email: 'paul@example.ga' },
  ]);
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('favourite alerts', () => {
  it('tell each follower once by notice and mail, never the owner, and a redelivery adds nothing', async () => {
    // One origin for every time of the history: under load, two calls of Date.now() can lie 20 ms apart.
    const origin = Date.now();
    const at = (ms: number) => new Date(origin + ms).toISOString();
    await deliver(envelope('catalog.favourite.added', { user_id: fan.sub, book_id: BOOK, at: at(0) }));
    await deliver(envelope('catalog.favourite.added', { user_id: quiet.sub, book_id: BOOK, at: at(0) }));
    await deliver(envelope('catalog.favourite.added', { user_id: owner.sub, book_id: BOOK, at: at(0) }));
    // Paul added then removed it; the removal arrives before the add: he stays out.
    await deliver(envelope('catalog.favourite.removed', { user_id: other.sub, book_id: BOOK, at: at(20) }));
    await deliver(envelope('catalog.favourite.added', { user_id: other.sub, book_id: BOOK, at: at(10) }));

    // Marie turns the e-mails off (the notice stays).
    const prefs = await call('PUT', '/notifications/preferences', quiet, { favourite_emails: false });
    expect(prefs.status).toBe(200);
    expect(prefs.body.preferences).toEqual({
      favourite_emails: false,
      favourite_notices: true,
      class_list_emails: true,
      class_list_notices: true,
    });

    const reserved = envelope('catalog.book.status_changed', {
      ...book({ status: 'réservé' }),
      previous_status: 'disponible',
    });
    await deliver(reserved);
    await deliver(reserved);

    const fanMails = await mailsTo('jean@example.ga');
    expect(fanMails).toHaveLength(1);
    expect(fanMails[0]).toMatchObject({ template: 'favourite-alert', data: { kind: 'reserved', bookId: BOOK } });
    const mail = render(
      { template: 'favourite-alert', to: 'jean@example.ga', data: fanMails[0]!.data } as Mail,
      'https://cartable.ga',
    );
    expect(mail.subject).toBe('Un de vos favoris est réservé – Cartable');
    expect(mail.text).toContain('https://cartable.ga/books/77');
    // The way out: the page of the link, and RFC 8058's one-click POST in the headers.
    const token = (fanMails[0]!.data as { unsubscribeToken: string }).unsubscribeToken;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(mail.text).toContain(`https://cartable.ga/alertes/desabonnement?token=${token}&kind=favourites`);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<https://cartable.ga/api/notifications/unsubscribe?token=${token}&kind=favourites>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(await mailsTo('marie@example.ga')).toHaveLength(0);
    expect(await mailsTo('awa@example.ga')).toHaveLength(0);
    expect(await mailsTo('paul@example.ga')).toHaveLength(0);

    const rows = await db
      .select()
      .from(notices)
      .where(like(notices.key, `${reserved.id}:%`));
    expect(rows.map((r) => r.userId).sort()).toEqual([fan.sub, quiet.sub].sort());
    expect(rows[0]).toMatchObject({ type: 'favourite.reserved', link: '/books/77' });
  });

  it('tells of a price drop, not of a rise, and nothing when notices are off too', async () => {
    await call('PUT', '/notifications/preferences', quiet, { favourite_notices: false });
    const drop = envelope('catalog.book.updated', { ...book({ price: 4000, version: 3 }), previous_price: 6000 });
    await deliver(drop);
    await deliver(envelope('catalog.book.updated', { ...book({ price: 5000, version: 4 }), previous_price: 4000 }));
    const rows = await db
      .select()
      .from(notices)
      .where(like(notices.key, `${drop.id}:%`));
    expect(rows.map((r) => r.userId)).toEqual([fan.sub]);
    expect(rows[0]!.body).toBe('« Mathématiques 3e » passe de 6 000 FCFA à 4 000 FCFA.');
    expect(await mailsTo('jean@example.ga')).toHaveLength(2);
    expect(await mailsTo('marie@example.ga')).toHaveLength(0);
  });
});

describe('the notice centre', () => {
  it('needs a token and shows each member only their own, newest first, with an unread count', async () => {
    expect((await call('GET', '/notifications')).status).toBe(401);
    const mine = await call('GET', '/notifications', fan);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((n: { type: string }) => n.type)).toEqual(['favourite.price_drop', 'favourite.reserved']);
    expect(mine.body.meta).toMatchObject({ total: 2, current_page: 1, last_page: 1 });
    expect((await call('GET', '/notifications', other)).body.data).toEqual([]);
    expect((await call('GET', '/notifications/unread-count', fan)).body.count).toBe(2);
    expect((await call('GET', '/notifications/unread-count', quiet)).body.count).toBe(1);
  });

  it('lets only the owner mark a notice read (404 for anyone else), then all at once', async () => {
    const [first] = (await call('GET', '/notifications', fan)).body.data;
    const stolen = await call('POST', `/notifications/${first.id}/read`, other);
    expect(stolen.status).toBe(404);
    expect(stolen.body.message).toBe('Notification introuvable.');
    expect((await call('GET', '/notifications/unread-count', fan)).body.count).toBe(2);
    const read = await call('POST', `/notifications/${first.id}/read`, fan);
    expect(read.status).toBe(200);
    expect(read.body.notice.read_at).toEqual(expect.any(String));
    expect((await call('GET', '/notifications/unread-count', fan)).body.count).toBe(1);
    expect((await call('POST', '/notifications/pas-un-id/read', fan)).status).toBe(422);
    const all = await call('POST', '/notifications/read-all', fan);
    expect(all.body.updated).toBe(1);
    expect((await call('GET', '/notifications/unread-count', fan)).body.count).toBe(0);
    expect((await call('GET', '/notifications/unread-count', quiet)).body.count).toBe(1);
  });

  it('tells the other party of a deal’s steps', async () => {
    const deal = {
      transaction_id: randomUUID(),
      book_id: BOOK,
      book_title: 'Mathématiques 3e',
      kind: 'sale' as const,
      price: 4000,
      exchange_book_id: null,
      exchange_book_title: null,
      seller_id: owner.sub,
      buyer_id: other.sub,
      status: 'proposed' as const,
      cancelled_by: null,
      at: new Date().toISOString(),
    };
    await deliver(envelope('catalog.transaction.proposed', deal));
    await deliver(envelope('catalog.transaction.confirmed', { ...deal, status: 'confirmed' }));
    const buyerSide = (await call('GET', '/notifications', other)).body.data;
    expect(buyerSide).toHaveLength(1);
    expect(buyerSide[0]).toMatchObject({
      type: 'transaction.proposed',
      body: 'Awa vous propose une vente pour « Mathématiques 3e ». Confirmez ou refusez-la.',
      link: `/transactions/${deal.transaction_id}`,
    });
    const sellerSide = (await call('GET', '/notifications', owner)).body.data;
    expect(sellerSide.map((n: { type: string }) => n.type)).toEqual(['transaction.confirmed']);
  });

  it('tells a member of a review just received, once, and nothing of an edit', async () => {
    const review = {
      transaction_id: randomUUID(),
      from_user_id: other.sub,
      rating: 4,
      book_title: 'Anglais 5e',
    };
    const rated = envelope('catalog.seller.rated', { user_id: quiet.sub, average: 4, count: 1, version: 1, review });
    await deliver(rated);
    await deliver(rated);
    // An edit of the same review changes the average, and tells nobody again.
    await deliver(envelope('catalog.seller.rated', { user_id: quiet.sub, average: 5, count: 1, version: 2 }));
    const notices = (await call('GET', '/notifications', quiet)).body.data.filter(
      (n: { type: string }) => n.type === 'rating.received',
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      type: 'rating.received',
      title: 'Nouvel avis reçu',
      body: 'Paul vous a donné 4 étoiles sur 5 après la transaction pour « Anglais 5e ».',
      link: '/my-ratings',
    });
  });

  it('refuses a bad preference in French', async () => {
    const bad = await call('PUT', '/notifications/preferences', fan, { favourite_emails: 'peut-être' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.favourite_emails).toEqual(['Choix invalide (oui ou non)']);
  });

  it('stops one kind of alert mail in one click, with no login, and says so; a wrong link stops nothing', async () => {
    const [row] = await mailsTo('jean@example.ga');
    const token = (row!.data as { unsubscribeToken: string }).unsubscribeToken;
    const info = await call('GET', `/notifications/unsubscribe?token=${token}&kind=class_list`);
    expect(info.body).toEqual({ kind: 'class_list', kind_label: 'Alertes de « Ma liste »', active: true });

    // A mail client's button: a form POST whose body says nothing the token does not.
    const clicked = await app.inject({
      method: 'POST',
      url: `/notifications/unsubscribe?token=${token}&kind=class_list`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.statusCode).toBe(200);
    expect(clicked.json()).toMatchObject({
      message: 'C’est fait : vous ne recevrez plus ces alertes par e-mail.',
      active: false,
    });
    // That kind only: the favourites' mails still come, and the profile shows the switch off.
    expect((await call('GET', '/notifications/preferences', fan)).body.preferences).toEqual({
      favourite_emails: true,
      favourite_notices: true,
      class_list_emails: false,
      class_list_notices: true,
    });

    const wrong = await call('POST', `/notifications/unsubscribe?token=${'x'.repeat(43)}&kind=favourites`);
    expect(wrong.status).toBe(404);
    expect(wrong.body.message).toBe('Ce lien de désabonnement n’est pas valide.');
    const unknownKind = await call('GET', `/notifications/unsubscribe?token=${token}&kind=tout`);
    expect(unknownKind.status).toBe(422);
    expect((await call('GET', '/notifications/preferences', fan)).body.preferences.favourite_emails).toBe(true);
  });
});

describe('every protected route of the service', () => {
  it('refuses a member without the permission (403) before judging what they sent', async () => {
    // None today (notices are a member's own); one added later is walked here.
    const { wrong } = await refusedBeforeValidation(app, other.token);
    expect(wrong).toEqual([]);
  });
});
