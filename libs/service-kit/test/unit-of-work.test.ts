import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createDatabases, databaseUrl, dropDatabases } from '@cartable/stack/infrastructure';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Cache,
  type CommittedEvent,
  type Database,
  openDatabase,
  outbox,
  processedEvents,
  UnitOfWork,
} from '../src/index.ts';

const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `cartable_t${randomBytes(4).toString('hex')}_uow`;
const schema = { outbox, processedEvents };
const log = pino({ level: 'silent' });
let database: Database<typeof schema>;

beforeAll(async () => {
  await createDatabases(PG, [dbName]);
  database = await openDatabase({
    name: 'uow',
    url: databaseUrl(PG, dbName),
    dataDir: '.data',
    schema,
    migrationsFolder: fileURLToPath(new URL('./fixtures/drizzle', import.meta.url)),
  });
});

afterAll(async () => {
  await database.close();
  await dropDatabases(PG, [dbName]);
});

const favourite = (bookId: number) => ({ user_id: crypto.randomUUID(), book_id: bookId, at: new Date().toISOString() });

describe('the unit of work', () => {
  it('records the events in the transaction, kicks the relay once after the commit, then tells the listeners', async () => {
    const order: string[] = [];
    const uow = new UnitOfWork({ db: database.db, relay: { kick: () => order.push('kick') }, log });
    const heard: CommittedEvent[] = [];
    uow.listen(['catalog.favourite.added'], (event) => {
      order.push(`heard ${event.data.book_id}`);
      heard.push(event);
    });
    const ids = await uow.run(async (t) => {
      const first = await t.record('catalog.favourite.added', favourite(1));
      const second = await t.record('catalog.favourite.added', favourite(2));
      order.push('work done');
      return [first, second];
    });
    expect(order).toEqual(['work done', 'kick', 'heard 1', 'heard 2']);
    expect(heard.map((e) => [e.id, e.origin])).toEqual([
      [ids[0], 'recorded'],
      [ids[1], 'recorded'],
    ]);
    const rows = await database.db.select().from(outbox).where(eq(outbox.id, ids[0]!));
    expect(rows).toHaveLength(1);
  });

  it('tells nobody and writes nothing when the transaction rolls back', async () => {
    let kicks = 0;
    const uow = new UnitOfWork({ db: database.db, relay: { kick: () => kicks++ }, log });
    const heard: CommittedEvent[] = [];
    uow.listen(['catalog.favourite.added'], (event) => heard.push(event));
    let id = '';
    await expect(
      uow.run(async (t) => {
        id = await t.record('catalog.favourite.added', favourite(3));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(kicks).toBe(0);
    expect(heard).toEqual([]);
    expect(await database.db.select().from(outbox).where(eq(outbox.id, id))).toEqual([]);
  });

  it('runs other modules’ reactions in the same transaction, and their events are announced too', async () => {
    const uow = new UnitOfWork({ db: database.db, log });
    uow.react('catalog.favourite.added', async (t, event) => {
      await t.record('catalog.favourite.removed', { ...event.data });
    });
    const heard: string[] = [];
    uow.listen(['catalog.favourite.added', 'catalog.favourite.removed'], (event) => heard.push(event.type));
    await expect(
      uow.run(async (t) => {
        await t.record('catalog.favourite.added', favourite(4));
        throw new Error('the reaction’s event rolls back with the write');
      }),
    ).rejects.toThrow();
    expect(heard).toEqual([]);
    await uow.run((t) => t.record('catalog.favourite.added', favourite(5)));
    expect(heard).toEqual(['catalog.favourite.added', 'catalog.favourite.removed']);
  });

  it('refuses an event its schema refuses, before anything is written', async () => {
    const uow = new UnitOfWork({ db: database.db, log });
    await expect(
      // biome-ignore lint/suspicious/noExplicitAny: a payload its schema refuses, on purpose
      uow.run((t) => t.record('catalog.favourite.added', { user_id: 'nope' } as any)),
    ).rejects.toThrow();
  });

  it('announces consumed events, and a failing listener neither fails the write nor silences the others', async () => {
    const uow = new UnitOfWork({ db: database.db, log });
    const heard: string[] = [];
    uow.listen(['catalog.favourite.added'], () => {
      throw new Error('a broken cache');
    });
    uow.listen(['catalog.favourite.added'], (event) => heard.push(event.origin));
    await uow.run((t) => t.record('catalog.favourite.added', favourite(6)));
    uow.consumed({
      id: crypto.randomUUID(),
      type: 'catalog.favourite.added',
      occurred_at: new Date().toISOString(),
      data: favourite(7),
    });
    expect(heard).toEqual(['recorded', 'consumed']);
  });

  it('runs what must follow the commit before run() returns, in order, and nothing after a rollback', async () => {
    const order: string[] = [];
    const uow = new UnitOfWork({ db: database.db, relay: { kick: () => order.push('kick') }, log });
    await uow.run(async (t) => {
      t.afterCommit(async () => {
        // The change is visible to anyone once the task runs: it was committed.
        const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
        order.push(row ? 'first, after the commit' : 'first, before the commit');
      });
      t.afterCommit(async () => {
        order.push('second');
      });
      const id = await t.record('catalog.favourite.added', favourite(8));
      order.push('work done');
    });
    order.push('answered');
    expect(order).toEqual(['work done', 'kick', 'first, after the commit', 'second', 'answered']);

    const ran: string[] = [];
    await expect(
      uow.run(async (t) => {
        t.afterCommit(async () => {
          ran.push('task');
        });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(ran).toEqual([]);
  });

  it('logs a failed task after the commit without undoing the change nor failing the write', async () => {
    const warnings: unknown[] = [];
    const uow = new UnitOfWork({ db: database.db, log: { warn: (...args: unknown[]) => warnings.push(args) } });
    const id = await uow.run(async (t) => {
      t.afterCommit(async () => {
        throw new Error('Redis away');
      });
      return t.record('catalog.favourite.added', favourite(9));
    });
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row).toBeDefined();
    expect(warnings).toHaveLength(1);
  });
});

describe('the cache', () => {
  it('keeps a loaded value, and one load serves concurrent reads', async () => {
    const cache = new Cache<string, { n: number }>({ max: 10, ttlMs: 60_000 });
    let loads = 0;
    const load = async () => ({ n: ++loads });
    const [a, b] = await Promise.all([cache.read('k', load), cache.read('k', load)]);
    expect(a).toEqual({ n: 1 });
    expect(b).toBe(a);
    expect(await cache.read('k', load)).toBe(a);
    expect(loads).toBe(1);
  });

  it('does not keep what a load that overlapped a clear read, but returns it to its reader', async () => {
    const cache = new Cache<string, { n: number }>({ max: 10, ttlMs: 60_000 });
    let release!: () => void;
    const slow = cache.read('k', () => new Promise((resolve) => (release = () => resolve({ n: 1 }))));
    cache.clear();
    release();
    expect(await slow).toEqual({ n: 1 });
    expect(cache.peek('k')).toBeUndefined();
    // A read after the clear starts its own load rather than joining the stale one.
    expect(await cache.read('k', async () => ({ n: 2 }))).toEqual({ n: 2 });
    expect(cache.peek('k')).toEqual({ n: 2 });
  });

  it('keeps nothing from a failed load', async () => {
    const cache = new Cache<string, { n: number }>({ max: 10, ttlMs: 60_000 });
    await expect(cache.read('k', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(await cache.read('k', async () => ({ n: 3 }))).toEqual({ n: 3 });
  });

  it('bounds the memory its values hold', async () => {
    const cache = new Cache<number, string>({ max: 100, ttlMs: 60_000, maxSize: 10, sizeOf: (v) => v.length });
    for (let i = 0; i < 5; i++) await cache.read(i, async () => 'abcd');
    expect(cache.size).toBe(2);
  });
});
