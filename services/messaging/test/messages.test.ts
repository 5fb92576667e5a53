import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig, openDatabase, outbox, UnitOfWork } from '@cartable/service-kit';
import { testTokens } from '@cartable/service-kit/testing';
import { testDatabase } from '@cartable/stack/databases';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMessagingApp } from '../src/app.ts';
import { messagingConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';

let close: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildMessagingApp>>;
let db: Awaited<ReturnType<typeof openDatabase<typeof schema>>>['db'];
let tokens: Awaited<ReturnType<typeof testTokens>>;
const seller = { sub: randomUUID(), token: '' };
const buyer = { sub: randomUUID(), token: '' };
const stranger = { sub: randomUUID(), token: '' };
const BOOK = 42;

beforeAll(async () => {
  const database = await testDatabase('messaging');
  const config = loadConfig(messagingConfigSchema, {
    MESSAGING_DATABASE_URL: database.url,
    DATA_DIR: database.dataDir,
  });
  const opened = await openDatabase({
    name: 'messaging',
    url: config.MESSAGING_DATABASE_URL,
    dataDir: database.dataDir,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  db = opened.db;
  tokens = await testTokens();
  app = await buildMessagingApp(
    { config, uow: new UnitOfWork({ db, log: console }), guards: tokens.guards },
    [],
    false,
  );
  for (const m of [seller, buyer, stranger]) m.token = (await tokens.token({ sub: m.sub })).token;
  // What the projections would hold after auth's and catalog's events.
  await db.insert(schema.members).values([
    { id: seller.sub, name: 'Aïcha Mboumba', username: 'aicha' },
    { id: buyer.sub, name: 'Jean Ndong', username: 'jean' },
  ]);
  await db
    .insert(schema.books)
    .values({ id: BOOK, ownerId: seller.sub, title: 'Mathématiques 3e', price: 5000, status: 'disponible' });
  close = async () => {
    await app.close();
    await opened.close();
    await database.drop();
  };
});
afterAll(() => close?.());

async function call(method: string, url: string, who: { token: string }, body?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${who.token}` },
    ...(body ? { payload: body as object } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON of any shape
  return { status: res.statusCode, body: res.json() as any };
}

describe('sending', () => {
  it('refuses a blank message, one to yourself, an unknown book and a message about someone else’s book', async () => {
    const blank = await call('POST', '/messages', buyer, { receiver_id: seller.sub, book_id: BOOK, content: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.content).toEqual(['Veuillez saisir un message']);
    expect(
      (await call('POST', '/messages', seller, { receiver_id: seller.sub, book_id: BOOK, content: 'Moi' })).status,
    ).toBe(422);
    expect(
      (await call('POST', '/messages', buyer, { receiver_id: seller.sub, book_id: 999, content: 'Bonjour' })).status,
    ).toBe(422);
    expect(
      (await call('POST', '/messages', buyer, { receiver_id: stranger.sub, book_id: BOOK, content: 'Bonjour' })).status,
    ).toBe(422);
    const long = await call('POST', '/messages', buyer, {
      receiver_id: seller.sub,
      book_id: BOOK,
      content: 'x'.repeat(2001),
    });
    expect(long.body.errors.content).toEqual(['Le message ne peut pas dépasser 2000 caractères']);
    expect((await app.inject({ method: 'GET', url: '/messages' })).statusCode).toBe(401);
  });

  it('sends, trims, records the event, and counts it unread for the receiver', async () => {
    const sent = await call('POST', '/messages', buyer, {
      receiver_id: seller.sub,
      book_id: BOOK,
      content: '  Il est toujours disponible ?  ',
      send_email_copy: true,
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      message: 'Message envoyé avec succès',
      email_copy_sent: true,
      data: { content: 'Il est toujours disponible ?', is_mine: true },
    });
    const [event] = await db.select().from(outbox).where(eq(outbox.type, 'messaging.message.sent'));
    expect(event?.payload).toMatchObject({
      sender_name: 'Jean Ndong',
      book_title: 'Mathématiques 3e',
      send_email_copy: true,
    });
    expect((await call('GET', '/messages/unread/count', seller)).body).toEqual({ unreadCount: 1 });
    expect((await call('GET', '/messages/unread/count', buyer)).body).toEqual({ unreadCount: 0 });
  });
});

describe('reading', () => {
  it('lists conversations with the book, the other member, the last message and unread counts', async () => {
    const list = await call('GET', '/messages', seller);
    expect(list.body.conversations).toHaveLength(1);
    expect(list.body.conversations[0]).toMatchObject({
      book: { id: BOOK, title: 'Mathématiques 3e' },
      other_user: { id: buyer.sub, name: 'Jean Ndong' },
      last_message: { content: 'Il est toujours disponible ?', is_mine: false },
      unread_count: 1,
    });
  });

  it('opens the thread for its two members only, and opening it marks it read', async () => {
    expect((await call('GET', `/messages/conversation/${BOOK}/${buyer.sub}`, stranger)).status).toBe(403);
    const thread = await call('GET', `/messages/conversation/${BOOK}/${buyer.sub}`, seller);
    expect(thread.body.data.map((m: { content: string }) => m.content)).toEqual(['Il est toujours disponible ?']);
    expect((await call('GET', '/messages/unread/count', seller)).body).toEqual({ unreadCount: 0 });
    const [read] = await db.select().from(outbox).where(eq(outbox.type, 'messaging.message.read'));
    expect(read?.payload).toMatchObject({ reader_id: seller.sub, count: 1 });
  });

  it('pages a long thread from its newest page, and lists recent messages received', async () => {
    for (let i = 1; i <= 5; i++)
      await call('POST', '/messages', seller, { receiver_id: buyer.sub, book_id: BOOK, content: `Réponse ${i}` });
    const newest = await call('GET', `/messages/conversation/${BOOK}/${seller.sub}?per_page=4`, buyer);
    expect(newest.body.meta).toEqual({ current_page: 2, last_page: 2, total: 6 });
    expect(newest.body.data.map((m: { content: string }) => m.content)).toEqual([
      'Réponse 2',
      'Réponse 3',
      'Réponse 4',
      'Réponse 5',
    ]);
    const older = await call('GET', `/messages/conversation/${BOOK}/${seller.sub}?per_page=4&page=1`, buyer);
    expect(older.body.data.map((m: { content: string }) => m.content)).toEqual([
      'Il est toujours disponible ?',
      'Réponse 1',
    ]);
    const recent = await call('GET', '/user/messages/recent', buyer);
    expect(recent.body.messages[0].content).toBe('Réponse 5');
    const one = await call('GET', `/messages/${recent.body.messages[0].id}/read`, stranger);
    expect(one.status).toBe(403);
  });
});
