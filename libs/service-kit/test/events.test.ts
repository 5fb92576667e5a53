import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { streamName, subjectFor } from '@cartable/contracts';
import { createDatabases, databaseUrl, dropDatabases } from '@cartable/stack/infrastructure';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Database,
  type EventHandlers,
  listDeadLetters,
  openDatabase,
  outbox,
  PermanentEventError,
  processedEvents,
  recordEvent,
  replayDeadLetters,
  startConsumer,
  startOutboxRelay,
  UnitOfWork,
} from '../src/index.ts';

const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const namespace = `t${randomBytes(4).toString('hex')}`;
const dbName = `cartable_${namespace}_kit`;
const schema = { outbox, processedEvents };
const log = pino({ level: 'silent' });

let database: Database<typeof schema>;
let nc: NatsConnection;

const registered = (username: string) => ({
  user_id: crypto.randomUUID(),
  name: 'Test',
  username,
  email: `${username}@example.ga`,
  country_id: 266,
  city_id: 1,
  profile_image: null,
  created_at: new Date().toISOString(),
  version: 1,
  verification: { token: 'x', expires_at: new Date().toISOString() },
});

beforeAll(async () => {
  await createDatabases(PG, [dbName]);
  database = await openDatabase({
    name: 'kit',
    url: databaseUrl(PG, dbName),
    dataDir: '.data',
    schema,
    migrationsFolder: fileURLToPath(new URL('./fixtures/drizzle', import.meta.url)),
  });
  nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
});

afterAll(async () => {
  const jsm = await jetstreamManager(nc);
  for (const p of ['auth', 'dlq'] as const) await jsm.streams.delete(streamName(p, namespace)).catch(() => false);
  await nc.close();
  await database.close();
  await dropDatabases(PG, [dbName]);
});

async function streamMessages(producer: 'auth' | 'dlq') {
  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info(streamName(producer, namespace)).catch(() => null);
  return info?.state.messages ?? 0;
}

describe('transactional outbox and relay', () => {
  it('publishes nothing when the transaction rolls back', async () => {
    const relay = startOutboxRelay({ db: database.db, nats: nc, namespace, log, pollMs: 60_000 });
    await database.db
      .transaction(async (tx) => {
        await recordEvent(tx, 'auth.user.registered', registered('rollback'));
        throw new Error('rollback');
      })
      .catch(() => {});
    await relay.flush();
    await relay.stop();
    expect(await database.db.select().from(outbox)).toHaveLength(0);
  });

  it('publishes a committed event once, with its id as Nats-Msg-Id, and marks it sent', async () => {
    const relay = startOutboxRelay({ db: database.db, nats: nc, namespace, log, pollMs: 60_000 });
    const id = await database.db.transaction((tx) => recordEvent(tx, 'auth.user.registered', registered('once')));
    await relay.flush();
    await relay.flush();
    await relay.stop();
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(await streamMessages('auth')).toBe(1);

    // The relay crashed after publishing but before marking: the same id again is dropped by JetStream.
    const js = jetstream(nc);
    const ack = await js.publish(subjectFor('auth.user.registered', namespace), '{}', { msgID: id });
    expect(ack.duplicate).toBe(true);
  });

  it('rejects a payload that does not match its schema before writing it', async () => {
    await expect(
      database.db.transaction((tx) =>
        recordEvent(tx, 'auth.user.registered', { ...registered('bad'), email: 42 } as never),
      ),
    ).rejects.toThrow();
  });
});

describe('durable consumer', () => {
  it('handles each event once, even when it is delivered twice', async () => {
    const seen: string[] = [];
    const handlers: EventHandlers = {
      'auth.user.registered': async (_tx, event) => {
        seen.push(event.data.username);
      },
    };
    const consumer = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-once',
      producer: 'auth',
      handlers,
    });
    const js = jetstream(nc);
    const envelope = {
      id: crypto.randomUUID(),
      type: 'auth.user.registered',
      occurred_at: new Date().toISOString(),
      data: registered('twice'),
    };
    // Two copies with different message ids: JetStream keeps both, the idempotency table does not.
    await js.publish(subjectFor('auth.user.registered', namespace), JSON.stringify(envelope), { msgID: 'copy-1' });
    await js.publish(subjectFor('auth.user.registered', namespace), JSON.stringify(envelope), { msgID: 'copy-2' });
    await expect.poll(() => seen.filter((u) => u === 'twice').length, { timeout: 5000 }).toBe(1);
    await expect
      .poll(
        async () =>
          (await database.db.select().from(processedEvents).where(eq(processedEvents.eventId, envelope.id))).length,
      )
      .toBe(1);
    // A later event, handled in order after both copies: once it is seen, the second copy has
    // been dealt with too (acknowledged without running the handler).
    const sentinel = { ...envelope, id: crypto.randomUUID(), data: registered('sentinel') };
    await js.publish(subjectFor('auth.user.registered', namespace), JSON.stringify(sentinel), { msgID: sentinel.id });
    await expect.poll(() => seen.includes('sentinel'), { timeout: 5000 }).toBe(true);
    expect(seen.filter((u) => u === 'twice')).toHaveLength(1);
    await consumer.stop();
  });

  it('gives a handler the unit of work: what it records commits with the event, kicks the relay and is announced', async () => {
    const kicks: string[] = [];
    const uow = new UnitOfWork({ db: database.db, relay: { kick: () => kicks.push('kick') }, log });
    const heard: string[] = [];
    uow.listen(['auth.user.updated'], (event) => heard.push(event.data.username));
    const handlers: EventHandlers = {
      'auth.user.registered': async (_tx, { data }, t) => {
        await t!.record('auth.user.updated', {
          user_id: data.user_id,
          name: data.name,
          username: `${data.username}-seen`,
          profile_image: null,
          country_id: data.country_id,
          city_id: data.city_id,
          email: null,
          phone: null,
          updated_at: new Date().toISOString(),
          version: 2,
        });
      },
    };
    const consumer = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-publishing',
      producer: 'auth',
      handlers,
      unitOfWork: uow,
    });
    const envelope = {
      id: crypto.randomUUID(),
      type: 'auth.user.registered',
      occurred_at: new Date().toISOString(),
      data: registered('publisher'),
    };
    await jetstream(nc).publish(subjectFor('auth.user.registered', namespace), JSON.stringify(envelope));
    // A new durable consumer reads the stream from its start: earlier tests' events come first.
    await expect.poll(() => heard.includes('publisher-seen'), { timeout: 5000 }).toBe(true);
    expect(kicks.length).toBeGreaterThanOrEqual(1);
    const rows = await database.db.select().from(outbox).where(eq(outbox.type, 'auth.user.updated'));
    expect(rows.map((r) => (r.payload as { username: string }).username)).toContain('publisher-seen');
    await consumer.stop();
  });

  it('retries a transient failure with backoff, rolling back its writes, until it succeeds', async () => {
    let attempts = 0;
    const consumer = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-transient',
      producer: 'auth',
      retry: { initialDelayMs: 20, maxDelayMs: 100 },
      handlers: {
        'auth.user.registered': async (tx, event) => {
          if (event.data.username !== 'blip') return;
          attempts++;
          // The handler's writes (here its idempotency mark) roll back with each failure.
          if (attempts < 12) throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
          void tx;
        },
      },
    });
    const before = await streamMessages('dlq');
    const envelope = {
      id: crypto.randomUUID(),
      type: 'auth.user.registered',
      occurred_at: new Date().toISOString(),
      data: registered('blip'),
    };
    await jetstream(nc).publish(subjectFor('auth.user.registered', namespace), JSON.stringify(envelope), {
      msgID: envelope.id,
    });
    // More tries than the old budget of 8 deliveries: a blip never sends an event to the dead letters.
    await expect.poll(() => attempts, { timeout: 15_000 }).toBe(12);
    await expect
      .poll(async () =>
        (await database.db.select().from(processedEvents).where(eq(processedEvents.eventId, envelope.id))).some(
          (m) => m.consumer === 'kit-transient',
        ),
      )
      .toBe(true);
    expect(await streamMessages('dlq')).toBe(before);
    await consumer.stop();
  });

  it('dead-letters a permanent failure at once with its origin, and replays it to that consumer only', async () => {
    let broken = true;
    const handled: string[] = [];
    const otherSaw: string[] = [];
    const failing = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-permanent',
      producer: 'auth',
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          if (event.data.username !== 'refused') return;
          if (broken) throw new PermanentEventError('contradicts the projection');
          handled.push(event.id);
        },
      },
    });
    const other = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-bystander',
      producer: 'auth',
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          if (event.data.username === 'refused') otherSaw.push(event.id);
        },
      },
    });
    const envelope = {
      id: crypto.randomUUID(),
      type: 'auth.user.registered',
      occurred_at: new Date().toISOString(),
      data: registered('refused'),
    };
    const ack = await jetstream(nc).publish(subjectFor('auth.user.registered', namespace), JSON.stringify(envelope), {
      msgID: envelope.id,
    });
    const letter = await expect
      .poll(async () => (await listDeadLetters(nc, namespace, { consumer: 'kit-permanent' })).at(-1), {
        timeout: 5000,
      })
      .toBeDefined()
      .then(async () => (await listDeadLetters(nc, namespace, { consumer: 'kit-permanent' })).at(-1)!);
    expect(letter).toMatchObject({
      consumer: 'kit-permanent',
      subject: subjectFor('auth.user.registered', namespace),
      stream: streamName('auth', namespace),
      sequence: ack.seq,
      error: 'contradicts the projection',
    });
    expect(JSON.parse(letter.data).id).toBe(envelope.id);
    await expect.poll(() => otherSaw.length, { timeout: 5000 }).toBe(1);

    // The cause is fixed; the operator replays: the failed consumer handles it, the other skips it.
    broken = false;
    const replayed = await replayDeadLetters(nc, namespace, { consumer: 'kit-permanent' });
    expect(replayed.map((l) => l.seq)).toEqual([letter.seq]);
    await expect.poll(() => handled, { timeout: 5000 }).toEqual([envelope.id]);
    expect(otherSaw).toHaveLength(1);
    expect(await listDeadLetters(nc, namespace, { consumer: 'kit-permanent' })).toHaveLength(0);
    await failing.stop();
    await other.stop();
  });

  it('dead-letters an event still failing when its retry budget is spent', async () => {
    const consumer = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-budget',
      producer: 'auth',
      retry: { initialDelayMs: 20, maxDelayMs: 50, budgetMs: 400 },
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          if (event.data.username === 'late') throw new Error('database is locked');
        },
      },
    });
    await jetstream(nc).publish(
      subjectFor('auth.user.registered', namespace),
      JSON.stringify({
        id: crypto.randomUUID(),
        type: 'auth.user.registered',
        occurred_at: new Date().toISOString(),
        data: registered('late'),
      }),
    );
    await expect
      .poll(async () => (await listDeadLetters(nc, namespace, { consumer: 'kit-budget' })).length, { timeout: 10_000 })
      .toBe(1);
    const [letter] = await listDeadLetters(nc, namespace, { consumer: 'kit-budget' });
    expect(letter?.error).toMatch(/^retried for \d+ min: database is locked$/);
    await consumer.stop();
  });

  it('keeps dead letters of two streams with the same sequence apart', async () => {
    const handlers: EventHandlers = {
      'auth.user.registered': async () => {
        throw new PermanentEventError('no');
      },
      'catalog.book.created': async () => {
        throw new PermanentEventError('no');
      },
    };
    const js = jetstream(nc);
    // Fresh streams of their own namespace: both first messages have sequence 1.
    const ns = `${namespace}x`;
    const consumers = await Promise.all(
      (['auth', 'catalog'] as const).map((producer) =>
        startConsumer({ nc, db: database.db, namespace: ns, log, consumer: 'kit-twins', producer, handlers }),
      ),
    );
    await js.publish(
      subjectFor('auth.user.registered', ns),
      JSON.stringify({
        id: crypto.randomUUID(),
        type: 'auth.user.registered',
        occurred_at: new Date().toISOString(),
        data: registered('twin'),
      }),
    );
    await js.publish(
      subjectFor('catalog.book.created', ns),
      JSON.stringify({
        id: crypto.randomUUID(),
        type: 'catalog.book.created',
        occurred_at: new Date().toISOString(),
        data: {
          book_id: 1,
          user_id: crypto.randomUUID(),
          title: 'Twin',
          price: 1,
          status: 'disponible',
          city_id: null,
          category_ids: [],
          thumbnail: null,
          version: 1,
          occurred_at: new Date().toISOString(),
        },
      }),
    );
    try {
      await expect.poll(async () => (await listDeadLetters(nc, ns)).length, { timeout: 5000 }).toBe(2);
      const letters = await listDeadLetters(nc, ns);
      expect(letters.map((l) => [l.stream, l.sequence]).sort()).toEqual([
        [streamName('auth', ns), 1],
        [streamName('catalog', ns), 1],
      ]);
    } finally {
      await Promise.all(consumers.map((c) => c.stop()));
      const jsm = await jetstreamManager(nc);
      for (const p of ['auth', 'catalog', 'dlq'] as const)
        await jsm.streams.delete(streamName(p, ns)).catch(() => false);
    }
  });

  it('never freezes on poison: 300 malformed events, then a good one is handled within seconds', async () => {
    const seen: string[] = [];
    const consumer = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-poison',
      producer: 'auth',
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          seen.push(event.data.username);
        },
      },
    });
    const js = jetstream(nc);
    const subject = subjectFor('auth.user.registered', namespace);
    const before = (await listDeadLetters(nc, namespace, { consumer: 'kit-poison' })).length;
    // More than a consumer's max ack pending used to hold (256).
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        js.publish(
          subject,
          JSON.stringify({ id: crypto.randomUUID(), type: 'auth.user.registered', occurred_at: 'x', data: { bad: i } }),
        ),
      ),
    );
    const started = Date.now();
    const good = {
      id: crypto.randomUUID(),
      type: 'auth.user.registered',
      occurred_at: new Date().toISOString(),
      data: registered('after_poison'),
    };
    await js.publish(subject, JSON.stringify(good), { msgID: good.id });
    await expect.poll(() => seen.includes('after_poison'), { timeout: 10_000 }).toBe(true);
    console.log(
      `poison: 300 malformed events dead-lettered, the next good one handled after ${Date.now() - started} ms`,
    );
    expect((await listDeadLetters(nc, namespace, { consumer: 'kit-poison' })).length).toBe(before + 300);
    // Acknowledged, not terminated: nothing of them stays pending on the consumer.
    const jsm = await jetstreamManager(nc);
    await expect
      .poll(async () => (await jsm.consumers.info(streamName('auth', namespace), 'kit-poison')).num_ack_pending, {
        timeout: 5000,
      })
      .toBe(0);
    await consumer.stop();
  });
});
