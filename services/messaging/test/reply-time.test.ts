import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { loadConfig, openDatabase, UnitOfWork } from '@cartable/service-kit';
import { testTokens } from '@cartable/service-kit/testing';
import { testDatabase } from '@cartable/stack/databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMessagingApp } from '../src/app.ts';
import { messagingConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import { replyTime } from '../src/domain/reply-time.ts';

let close: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildMessagingApp>>;
let db: Awaited<ReturnType<typeof openDatabase<typeof schema>>>['db'];
const seller = randomUUID();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
let book = 100;

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
  close = async () => {
    await app.close();
    await opened.close();
    await database.drop();
  };
});
afterAll(() => close?.());

/** A conversation about a new book: messages as [sender, milliseconds ago]. */
async function conversation(member: string, messages: Array<['member' | 'buyer', number]>) {
  const buyer = randomUUID();
  const [a, b] = [member, buyer].sort();
  const [conv] = await db.insert(schema.conversations).values({ bookId: book++, memberA: a!, memberB: b! }).returning();
  for (const [who, ago] of messages) {
    const sender = who === 'member' ? member : buyer;
    await db.insert(schema.messages).values({
      conversationId: conv!.id,
      senderId: sender,
      receiverId: sender === member ? buyer : member,
      content: 'Bonjour',
      createdAt: new Date(Date.now() - ago),
    });
  }
}

describe('typical reply time', () => {
  it('says nothing with too few answers, publicly and without a token', async () => {
    await conversation(seller, [
      ['buyer', 2 * DAY],
      ['member', 2 * DAY - 10 * MINUTE],
    ]);
    const res = await app.inject({ method: 'GET', url: `/users/${seller}/reply-time` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ bucket: null, label: null, median_seconds: null, samples: 1 });
    expect((await app.inject({ method: 'GET', url: '/users/quelqu-un/reply-time' })).statusCode).toBe(422);
  });

  it('takes the median of first replies over 90 days, ignoring later messages, old and self-started conversations', async () => {
    // Two more quick answers (20 min, 40 min) and one slow (3 days): median 20 min → within the hour.
    await conversation(seller, [
      ['buyer', 5 * DAY],
      ['member', 5 * DAY - 20 * MINUTE],
      ['buyer', 4 * DAY],
      ['member', 1 * DAY],
    ]);
    await conversation(seller, [
      ['buyer', 10 * DAY],
      ['member', 10 * DAY - 40 * MINUTE],
    ]);
    await conversation(seller, [
      ['buyer', 20 * DAY],
      ['member', 17 * DAY],
    ]);
    // Outside the window, unanswered, and started by the member: none counts.
    await conversation(seller, [
      ['buyer', 120 * DAY],
      ['member', 119 * DAY],
    ]);
    await conversation(seller, [['buyer', 3 * DAY]]);
    await conversation(seller, [
      ['member', 6 * DAY],
      ['buyer', 6 * DAY - HOUR],
      ['member', 2 * DAY],
    ]);
    const answer = await replyTime(db, seller);
    expect(answer.samples).toBe(4);
    expect(answer.median_seconds).toBe(30 * 60);
    expect(answer.bucket).toBe('hour');
    expect(answer.label).toBe('répond en général en moins d’une heure');
  });

  it('moves to « dans la journée » and « en quelques jours » as answers slow down', async () => {
    const slow = randomUUID();
    for (const hours of [3, 5, 8])
      await conversation(slow, [
        ['buyer', 30 * DAY],
        ['member', 30 * DAY - hours * HOUR],
      ]);
    expect((await replyTime(db, slow)).label).toBe('répond en général dans la journée');
    const slower = randomUUID();
    for (const days of [2, 3, 4])
      await conversation(slower, [
        ['buyer', 30 * DAY],
        ['member', (30 - days) * DAY],
      ]);
    expect((await replyTime(db, slower)).label).toBe('répond en général en quelques jours');
  });
});
