import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Envelope } from '@cartable/contracts';
import { type Db, openDatabase, outbox, UnitOfWork } from '@cartable/service-kit';
import { testDatabase } from '@cartable/stack/databases';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { exchangeConversations } from '../src/events/exchange-conversations.ts';

/**
 * An exchange everyone accepted opens one conversation per leg, between the listing's owner and
 * the member receiving it, with an automatic first message from the receiver (and its
 * messaging.message.sent event, so the owner is told); a listing gone or a block opens nothing.
 */
let db: Db;
let close: () => Promise<void>;
const awa = randomUUID();
const brice = randomUUID();
const carine = randomUUID();

beforeAll(async () => {
  const database = await testDatabase('messaging');
  const opened = await openDatabase({
    name: 'messaging',
    url: database.url,
    dataDir: database.dataDir,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  db = opened.db;
  await db.insert(schema.members).values([
    { id: awa, name: 'Awa', username: 'awa' },
    { id: brice, name: 'Brice', username: 'brice' },
    { id: carine, name: 'Carine', username: 'carine' },
  ]);
  await db.insert(schema.books).values([
    { id: 101, ownerId: awa, title: 'Maths 5e', price: 2000, status: 'disponible' },
    { id: 102, ownerId: brice, title: 'Maths 4e', price: 2000, status: 'disponible' },
    { id: 103, ownerId: carine, title: 'SVT 3e', price: 1500, status: 'disponible', deletedAt: new Date() },
  ]);
  close = async () => {
    await opened.close();
    await database.drop();
  };
});
afterAll(() => close?.());

const accepted = (kind: 'pair' | 'cycle', legs: Array<[string, string, number, string]>) =>
  ({
    id: randomUUID(),
    type: 'catalog.exchange.accepted',
    occurred_at: new Date().toISOString(),
    data: {
      suggestion_id: randomUUID(),
      kind,
      area: 'Libreville',
      legs: legs.map(([from, to, book, title]) => ({
        from_user_id: from,
        to_user_id: to,
        book_id: book,
        book_title: title,
      })),
      at: new Date().toISOString(),
    },
  }) as Envelope<'catalog.exchange.accepted'>;

const handle = (event: Envelope<'catalog.exchange.accepted'>) =>
  new UnitOfWork({ db, log: console }).run((t) =>
    exchangeConversations['catalog.exchange.accepted']!(t.db, event as never, t),
  );

describe('conversations of an accepted exchange', () => {
  it('opens one per leg, written by its receiver to the owner, and tells the owner', async () => {
    await handle(
      accepted('pair', [
        [awa, brice, 101, 'Maths 5e'],
        [brice, awa, 102, 'Maths 4e'],
      ]),
    );
    const talks = await db.select().from(schema.conversations);
    expect(talks.map((t) => t.bookId).sort()).toEqual([101, 102]);
    const toAwa = await db.select().from(schema.messages).where(eq(schema.messages.receiverId, awa));
    expect(toAwa).toHaveLength(1);
    expect(toAwa[0]!.senderId).toBe(brice);
    expect(toAwa[0]!.content).toContain('(Message automatique de Cartable) Bonjour Awa');
    expect(toAwa[0]!.content).toContain(
      'je reçois « Maths 5e » de votre part et vous recevez « Maths 4e » de la mienne',
    );
    const sent = await db.select().from(outbox).where(eq(outbox.type, 'messaging.message.sent'));
    expect(sent).toHaveLength(2);
  });

  it('skips a leg whose listing is gone, or between members one of whom blocked the other', async () => {
    await db.insert(schema.blocks).values({ blockerId: brice, blockedId: carine });
    const before = (await db.select().from(schema.messages)).length;
    await handle(
      accepted('cycle', [
        [carine, awa, 103, 'SVT 3e'],
        [awa, brice, 101, 'Maths 5e'],
        [brice, carine, 102, 'Maths 4e'],
      ]),
    );
    const added = (await db.select().from(schema.messages)).slice(before);
    // Only Awa → Brice (book 101): 103 is deleted, Brice blocked Carine.
    expect(added.map((m) => [m.senderId, m.receiverId])).toEqual([[brice, awa]]);
    expect(added[0]!.content).toContain('nous avons tous les trois accepté');
  });
});
