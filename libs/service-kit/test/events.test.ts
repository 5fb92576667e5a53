import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { streamName, subjectFor } from '@cartable/contracts';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabases, databaseUrl, dropDatabases } from '../../../scripts/stack/infrastructure.ts';
import {
  type Database,
  deadLetterSubject,
  type EventHandlers,
  openDatabase,
  outbox,
  processedEvents,
  recordEvent,
  startConsumer,
  startOutboxRelay,
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
    const relay = startOutboxRelay({ db: database.db, nc, namespace, log, pollMs: 60_000 });
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
    const relay = startOutboxRelay({ db: database.db, nc, namespace, log, pollMs: 60_000 });
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

  it('retries a failing handler with backoff, rolls back its writes, then dead-letters the event', async () => {
    let attempts = 0;
    const consumer = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'kit-failing',
      producer: 'auth',
      maxDeliver: 3,
      backoffMs: [50],
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          if (event.data.username !== 'poison') return;
          attempts++;
          throw new Error('always fails');
        },
      },
    });
    const js = jetstream(nc);
    const envelope = {
      id: crypto.randomUUID(),
      type: 'auth.user.registered',
      occurred_at: new Date().toISOString(),
      data: registered('poison'),
    };
    const before = await streamMessages('dlq');
    await js.publish(subjectFor('auth.user.registered', namespace), JSON.stringify(envelope), { msgID: envelope.id });
    await expect.poll(() => attempts, { timeout: 10_000 }).toBe(3);
    await expect.poll(() => streamMessages('dlq'), { timeout: 5000 }).toBe(before + 1);
    const jsm = await jetstreamManager(nc);
    const dead = await jsm.streams.getMessage(streamName('dlq', namespace), {
      last_by_subj: deadLetterSubject('kit-failing', 'auth.user.registered', namespace),
    });
    expect(dead?.json<{ id: string }>().id).toBe(envelope.id);
    // The failed attempts left no trace: the event can be replayed from the dead letters.
    const marks = await database.db.select().from(processedEvents).where(eq(processedEvents.eventId, envelope.id));
    expect(marks.filter((m) => m.consumer === 'kit-failing')).toHaveLength(0);
    await consumer.stop();
  });
});
