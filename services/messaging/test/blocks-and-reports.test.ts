import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig, openDatabase, outbox, UnitOfWork } from '@cartable/service-kit';
import { refusedBeforeValidation, testTokens } from '@cartable/service-kit/testing';
import { testDatabase } from '@cartable/stack/databases';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMessagingApp } from '../src/app.ts';
import { messagingConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';

/**
 * Blocking and reporting a message on a real PostgreSQL: a blocked member can no longer write,
 * the blocker is told to unblock first; only a received message can be reported, once; each
 * change leaves its event in the outbox for catalog and moderation.
 */
let close: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildMessagingApp>>;
let db: Awaited<ReturnType<typeof openDatabase<typeof schema>>>['db'];
const seller = { sub: randomUUID(), token: '' };
const buyer = { sub: randomUUID(), token: '' };
const stranger = { sub: randomUUID(), token: '' };
const BOOK = 7;

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
  const tokens = await testTokens();
  app = await buildMessagingApp(
    { config, uow: new UnitOfWork({ db, log: console }), guards: tokens.guards },
    [],
    false,
  );
  for (const m of [seller, buyer, stranger]) m.token = (await tokens.token({ sub: m.sub })).token;
  await db.insert(schema.members).values([
    { id: seller.sub, name: 'Aïcha Mboumba', username: 'aicha' },
    { id: buyer.sub, name: 'Jean Ndong', username: 'jean' },
    { id: stranger.sub, name: 'Inconnu', username: 'inconnu' },
  ]);
  await db
    .insert(schema.books)
    .values({ id: BOOK, ownerId: seller.sub, title: 'SVT 4e', price: 3000, status: 'disponible' });
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

const events = async (type: string) => db.select().from(outbox).where(eq(outbox.type, type));
const write = (from: typeof buyer, to: typeof seller, content = 'Bonjour, toujours disponible ?') =>
  call('POST', '/messages', from, { receiver_id: to.sub, book_id: BOOK, content, send_email_copy: false });

describe('blocking', () => {
  it('stops the blocked member writing, asks the blocker to unblock, and lifts both on unblock', async () => {
    expect((await write(buyer, seller)).status).toBe(201);
    expect((await call('POST', '/blocks', seller, { user_id: seller.sub })).status).toBe(422);
    expect((await call('POST', '/blocks', seller, { user_id: randomUUID() })).status).toBe(404);

    const blocked = await call('POST', '/blocks', seller, { user_id: buyer.sub });
    expect(blocked.status).toBe(200);
    // Twice is no change, and no second event.
    expect((await call('POST', '/blocks', seller, { user_id: buyer.sub })).status).toBe(200);
    expect((await events('messaging.member.blocked')).length).toBe(1);

    const refused = await write(buyer, seller);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Ce membre ne souhaite plus recevoir vos messages.');
    const blocker = await write(seller, buyer, 'Finalement non');
    expect(blocker.status).toBe(422);
    expect(blocker.body.errors.receiver_id).toEqual(['Vous avez bloqué ce membre. Débloquez-le pour lui écrire.']);

    expect((await call('GET', `/blocks/${buyer.sub}`, seller)).body).toEqual({ blocked: true, blocks_me: false });
    expect((await call('GET', `/blocks/${seller.sub}`, buyer)).body).toEqual({ blocked: false, blocks_me: true });
    const list = await call('GET', '/blocks', seller);
    expect(list.body.data).toEqual([expect.objectContaining({ id: buyer.sub, name: 'Jean Ndong' })]);
    expect((await call('GET', '/blocks', buyer)).body.data).toEqual([]);

    expect((await call('DELETE', `/blocks/${buyer.sub}`, seller)).status).toBe(200);
    expect((await call('DELETE', `/blocks/${buyer.sub}`, seller)).status).toBe(404);
    expect((await events('messaging.member.unblocked')).length).toBe(1);
    expect((await write(buyer, seller)).status).toBe(201);
  });
});

describe('reporting a message', () => {
  it('lets only its receiver report it, once, and hands its text to moderation by event', async () => {
    const sent = await write(buyer, seller, 'Envoyez 5000 FCFA par Airtel Money avant de nous voir.');
    const id = sent.body.data.id as string;
    expect((await call('POST', `/messages/${id}/report`, buyer, { reason: 'arnaque' })).status).toBe(403);
    expect((await call('POST', `/messages/${id}/report`, stranger, { reason: 'arnaque' })).status).toBe(403);
    const vague = await call('POST', `/messages/${id}/report`, seller, { reason: 'autre' });
    expect(vague.status).toBe(422);
    expect(vague.body.errors.details).toEqual(['Précisez la raison (au moins 5 caractères).']);
    expect((await call('POST', `/messages/${randomUUID()}/report`, seller, { reason: 'arnaque' })).status).toBe(404);

    const reported = await call('POST', `/messages/${id}/report`, seller, { reason: 'arnaque' });
    expect(reported.status).toBe(201);
    const twice = await call('POST', `/messages/${id}/report`, seller, { reason: 'arnaque' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Vous avez déjà signalé ce message.');
    const [event] = await events('messaging.message.reported');
    expect(event?.payload).toMatchObject({
      message_id: id,
      reporter_id: seller.sub,
      sender_id: buyer.sub,
      sender_name: 'Jean Ndong',
      content: 'Envoyez 5000 FCFA par Airtel Money avant de nous voir.',
      reason: 'arnaque',
    });
  });
});

describe('every protected route of the service', () => {
  it('refuses a member without the permission (403) before judging what they sent', async () => {
    const { walked, wrong } = await refusedBeforeValidation(app, stranger.token);
    expect(walked).toContain('GET /admin/stats/messaging');
    expect(wrong).toEqual([]);
  });
});
