import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { streamName } from '@cartable/contracts';
import { createDatabases, databaseUrl, dropDatabases } from '@cartable/stack/infrastructure';
import { natsServer, type OwnServer } from '@cartable/stack/servers';
import { eventually, freePort } from '@cartable/stack/test-stack';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Database,
  eventRegistry,
  type OutboxRelay,
  openDatabase,
  outbox,
  processedEvents,
  type RunningConsumer,
  recordEvent,
  startConsumer,
  startOutboxRelay,
} from '../src/index.ts';

/**
 * A consumer whose stream is cut under it (deleted and created again, purged past what it
 * received) says so once, in its gaps and its metrics, and goes on with the new events without
 * skipping any. NATS is this file's own: streams are deleted and purged here.
 */
const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const namespace = `t${randomBytes(4).toString('hex')}`;
const dbName = `cartable_${namespace}_gaps`;
const schema = { outbox, processedEvents };
const log = pino({ level: 'silent' });
const stream = streamName('auth', namespace);

let database: Database<typeof schema>;
let nats: OwnServer;
let nc: NatsConnection;
let relay: OutboxRelay;
let consumer: RunningConsumer | undefined;

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
  nats = natsServer(await freePort());
  await nats.start();
  await createDatabases(PG, [dbName]);
  database = await openDatabase({
    name: 'gaps',
    url: databaseUrl(PG, dbName),
    dataDir: '.data',
    schema,
    migrationsFolder: fileURLToPath(new URL('./fixtures/drizzle', import.meta.url)),
  });
  nc = await connect({ servers: nats.url });
  relay = startOutboxRelay({ db: database.db, nats: nc, namespace, log, pollMs: 100 });
});

afterAll(async () => {
  await consumer?.stop();
  await relay?.stop();
  await nc?.close();
  await database?.close();
  await dropDatabases(PG, [dbName]);
  await nats?.remove();
});

async function publish(...usernames: string[]) {
  await database.db.transaction(async (tx) => {
    for (const username of usernames) await recordEvent(tx, 'auth.user.registered', registered(username));
  });
  relay.kick();
}

async function gapMetric(kind: string): Promise<number> {
  const metric = await eventRegistry.getSingleMetric('cartable_event_stream_gaps_total')?.get();
  return metric?.values.find((v) => v.labels.kind === kind && v.labels.stream === stream)?.value ?? 0;
}

describe('a stream cut under its consumer', () => {
  const seen: string[] = [];
  let gate: Promise<void> = Promise.resolve();

  it('deleted and created again: the gap is reported once and every new event is handled', async () => {
    consumer = await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: 'gaps',
      producer: 'auth',
      gapCheckMs: 200,
      // A check while NATS is away fails after a second, not after NATS's five.
      apiTimeoutMs: 1000,
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          await gate;
          seen.push(event.data.username);
        },
      },
    });
    await publish('avant_1', 'avant_2', 'avant_3');
    await eventually(async () => (seen.length === 3 ? true : undefined), 20_000);

    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(stream);
    await publish('apres_1', 'apres_2');
    await eventually(async () => (seen.length === 5 ? true : undefined), 30_000);
    await publish('apres_3');
    await eventually(async () => (seen.length === 6 ? true : undefined), 30_000);

    expect(seen).toEqual(['avant_1', 'avant_2', 'avant_3', 'apres_1', 'apres_2', 'apres_3']);
    const gaps = consumer.gaps();
    expect(gaps.map((g) => [g.kind, g.delivered])).toEqual([['recreated', 3]]);
    expect(await gapMetric('recreated')).toBe(1);
  }, 60_000);

  it('purged past what it received: the loss is reported and the events after it are handled', async () => {
    let open: () => void = () => {};
    gate = new Promise((resolve) => {
      open = resolve;
    });
    // The handler holds the first one: the consumer takes what max_ack_pending (1000) lets it,
    // the rest wait in the stream when it is purged.
    const count = 1200;
    try {
      await publish(...Array.from({ length: count }, (_, i) => `purge_${i}`));
      await eventually(async () => {
        const info = await (await jetstreamManager(nc)).consumers.info(stream, 'gaps');
        return info.num_pending > 0 && info.num_pending + info.num_ack_pending >= count - 1 ? true : undefined;
      }, 30_000);
      await (await jetstreamManager(nc)).streams.purge(stream);
      await eventually(async () => (consumer?.gaps().some((g) => g.kind === 'lost') ? true : undefined), 20_000);
    } finally {
      open();
      gate = Promise.resolve();
    }
    await publish('apres_purge');
    await eventually(async () => (seen.includes('apres_purge') ? true : undefined), 30_000);

    const lost = consumer!.gaps().find((g) => g.kind === 'lost')!;
    const purgedHandled = seen.filter((u) => u.startsWith('purge_')).length;
    expect(lost.missed).toBeGreaterThan(0);
    // What it did handle and what it reports lost cover everything that was published.
    expect(purgedHandled + lost.missed!).toBeGreaterThanOrEqual(count);
    expect(await gapMetric('lost')).toBe(1);
    expect(seen.at(-1)).toBe('apres_purge');
  }, 90_000);

  it('NATS away is no gap: the checks that fail meanwhile stop nothing, and events flow when it is back', async () => {
    const before = consumer!.gaps().length;
    await nats.kill();
    // A few checks while the server is gone: each fails (no connection, or a timeout).
    for (let i = 0; i < 3; i++) await consumer!.checkStream();
    await nats.start();
    // The test's connection is back once a round trip goes through.
    await eventually(async () => {
      await nc.flush();
      return true;
    }, 30_000);
    await publish('retour_nats');
    await eventually(async () => (seen.includes('retour_nats') ? true : undefined), 30_000);
    expect(consumer!.gaps()).toHaveLength(before);
  }, 90_000);
  it('purged between two reads of one check: the loss is still reported at the next check', async () => {
    // JetStream moves a consumer's ack floor up to the new first message when the stream is
    // purged. The check reads both; a purge falling between the two reads must not pass unseen.
    let purgeAfterStreamRead = false;
    const racing = new Proxy(nc, {
      get(target, key) {
        if (key === 'request') {
          return async (subject: string, ...rest: unknown[]) => {
            const answer = await (target.request as (...a: unknown[]) => Promise<unknown>)(subject, ...rest);
            if (purgeAfterStreamRead && subject === `$JS.API.STREAM.INFO.${stream}`) {
              purgeAfterStreamRead = false;
              await (await jetstreamManager(nc)).streams.purge(stream);
            }
            return answer;
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const handled: string[] = [];
    let open: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    const racer = await startConsumer({
      nc: racing,
      db: database.db,
      namespace,
      log,
      consumer: 'gaps_race',
      producer: 'auth',
      gapCheckMs: 3_600_000,
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          if (event.data.username.startsWith('course_') && event.data.username !== 'course_1') await held;
          handled.push(event.data.username);
        },
      },
    });
    try {
      await publish('course_1');
      await eventually(async () => (handled.includes('course_1') ? true : undefined), 20_000);
      // The racer holds the next one; the three after it wait when the stream is purged.
      await publish('course_2', 'course_3', 'course_4', 'course_5');
      await eventually(async () => {
        const info = await (await jetstreamManager(nc)).streams.info(stream);
        return info.state.last_seq > 0 &&
          (await (await jetstreamManager(nc)).consumers.info(stream, 'gaps_race')).num_ack_pending > 0
          ? true
          : undefined;
      }, 20_000);
      purgeAfterStreamRead = true;
      await racer.checkStream();
      expect(purgeAfterStreamRead).toBe(false);
      const gap = (await racer.checkStream()) ?? racer.gaps().find((g) => g.kind === 'lost');
      expect(gap?.kind).toBe('lost');
      expect(gap?.missed).toBeGreaterThanOrEqual(3);
    } finally {
      open();
      await racer.stop();
    }
  }, 60_000);
});
