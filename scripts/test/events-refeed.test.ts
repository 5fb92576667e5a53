import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { streamName } from '@cartable/contracts';
import {
  createLogger,
  type Database,
  type OutboxRelay,
  openDatabase,
  outbox,
  processedEvents,
  type RunningConsumer,
  recordEvent,
  startConsumer,
  startOutboxRelay,
} from '@cartable/service-kit';
import { createDatabases, databaseUrl, dropDatabases } from '@cartable/stack/infrastructure';
import { repoRoot } from '@cartable/stack/processes';
import { natsServer, type OwnServer } from '@cartable/stack/servers';
import { eventually, freePort } from '@cartable/stack/test-stack';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run events -- refeed <stream>`: a stream cut while one consumer was away is fed again from
 * the producer's outbox, with the events' own ids; afterwards every consumer has applied every
 * event exactly once. NATS is this file's own: its stream is deleted here.
 */
const run = promisify(execFile);
const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const namespace = `t${randomBytes(4).toString('hex')}`;
const dbName = `cartable_${namespace}_refeed`;
const schema = { outbox, processedEvents };
const log = createLogger('refeed-test', 'silent');

let nats: OwnServer;
let nc: NatsConnection;
let database: Database<typeof schema>;
let relay: OutboxRelay;
const running = new Map<string, RunningConsumer>();
/** How many times each consumer applied each event id. */
const applied: Record<string, Map<string, number>> = { alpha: new Map(), beta: new Map() };

beforeAll(async () => {
  nats = natsServer(await freePort());
  await nats.start();
  await createDatabases(PG, [dbName]);
  database = await openDatabase({
    name: 'refeed',
    url: databaseUrl(PG, dbName),
    dataDir: '.data',
    schema,
    migrationsFolder: fileURLToPath(new URL('../../libs/service-kit/test/fixtures/drizzle', import.meta.url)),
  });
  nc = await connect({ servers: nats.url });
  relay = startOutboxRelay({ db: database.db, nats: nc, namespace, log, pollMs: 100 });
});
afterAll(async () => {
  for (const consumer of running.values()) await consumer.stop();
  await relay?.stop();
  await nc?.close();
  await database?.close();
  await dropDatabases(PG, [dbName]);
  await nats?.remove();
});

async function start(name: 'alpha' | 'beta') {
  running.set(
    name,
    await startConsumer({
      nc,
      db: database.db,
      namespace,
      log,
      consumer: name,
      producer: 'auth',
      gapCheckMs: 200,
      handlers: {
        'auth.user.registered': async (_tx, event) => {
          applied[name]!.set(event.id, (applied[name]!.get(event.id) ?? 0) + 1);
        },
      },
    }),
  );
}

async function publish(prefix: string, count: number) {
  await database.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      const username = `${prefix}_${i}`;
      await recordEvent(tx, 'auth.user.registered', {
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
    }
  });
  relay.kick();
}

const handledBy = (name: string, count: number) => async () => (applied[name]!.size === count ? true : undefined);

describe('npm run events -- refeed', () => {
  it('feeds a cut stream again from the outbox: every consumer applies every event, none twice', async () => {
    await start('alpha');
    await start('beta');
    await publish('avant', 5);
    await eventually(handledBy('alpha', 5), 20_000);
    await eventually(handledBy('beta', 5), 20_000);

    // beta is away while five more are published, then the stream is lost.
    await running.get('beta')!.stop();
    running.delete('beta');
    await publish('pendant', 5);
    await eventually(handledBy('alpha', 10), 20_000);
    await (await jetstreamManager(nc)).streams.delete(streamName('auth', namespace));
    await start('beta');
    await publish('apres', 3);
    await eventually(handledBy('alpha', 13), 30_000);
    await eventually(handledBy('beta', 8), 30_000);
    expect(
      running
        .get('alpha')!
        .gaps()
        .map((g) => g.kind),
    ).toEqual(['recreated']);

    const [first] = await database.db.select().from(outbox).orderBy(asc(outbox.position)).limit(1);
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/events.ts', 'refeed', 'auth', '--from', first!.id],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          NATS_URL: nats.url,
          EVENT_NAMESPACE: namespace,
          AUTH_DATABASE_URL: databaseUrl(PG, dbName),
        },
      },
    );
    // The three published after the cut are still in the stream's duplicate window.
    expect(stdout).toContain('13 événement(s) republié(s)');
    expect(stdout).toContain('(3 déjà dans le flux');
    await eventually(handledBy('beta', 13), 30_000);

    const ids = (await database.db.select({ id: outbox.id }).from(outbox)).map((r) => r.id).sort();
    for (const name of ['alpha', 'beta']) {
      expect([...applied[name]!.keys()].sort(), `${name} lost none`).toEqual(ids);
      expect(
        [...applied[name]!.values()].filter((n) => n > 1),
        `${name} applied none twice`,
      ).toEqual([]);
    }
    console.log(
      `refeed after a cut: ${ids.length} events, alpha ${applied.alpha!.size} applied once each, beta ${applied.beta!.size} (8 before the refeed), 0 lost, 0 twice`,
    );

    const since = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/events.ts',
        'refeed',
        'auth',
        '--since',
        new Date(Date.now() + 60_000).toISOString(),
      ],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          NATS_URL: nats.url,
          EVENT_NAMESPACE: namespace,
          AUTH_DATABASE_URL: databaseUrl(PG, dbName),
        },
      },
    );
    expect(since.stdout).toContain('0 événement(s) republié(s)');
  }, 120_000);
});
