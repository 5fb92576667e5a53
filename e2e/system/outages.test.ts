import { streamName } from '@cartable/contracts';
import { listDeadLetters } from '@cartable/service-kit';
import { natsServer, type OwnServer } from '@cartable/stack/servers';
import { call, eventually, freePort, PG_ADMIN_URL, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Outages on real processes: the stack starts while NATS is not there and catches up once it is;
 * an event whose consumer's database is away is retried past any count of deliveries (JetStream's
 * max_deliver would have dead-lettered it after 8) and applied once the database is back, with no
 * dead letter. NATS is this test's own (never the machine's).
 */
let stack: TestStack;
let nats: OwnServer;

beforeAll(async () => {
  nats = natsServer(await freePort());
  stack = await startTestStack({
    env: {
      NATS_URL: nats.url,
      // Retries capped at 1 s: an event goes past the old budget of 8 deliveries in seconds, and
      // the catch-up after the outage is quick to watch.
      EVENT_RETRY_INITIAL_DELAY_MS: '500',
      EVENT_RETRY_MAX_DELAY_MS: '1000',
    },
  });
});
afterAll(async () => {
  await stack?.teardown();
  await nats?.remove();
});

const registration = (n: string) => ({
  name: `Parent ${n}`,
  email: `${n}@example.ga`,
  username: n,
  password: 'Cartable1a',
  password_confirmation: 'Cartable1a',
  country_id: 266,
  city_id: 1,
});

async function admin<T>(query: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('outages', () => {
  it('serves HTTP while NATS is down, then delivers what waited once NATS starts', async () => {
    for (const service of ['auth', 'catalog', 'messaging', 'moderation', 'notifications'] as const) {
      const ready = await call(`${stack.url(service)}/ready`);
      expect(ready.status, service).toBe(200);
      expect(ready.body.checks.nats, service).not.toBe('ok');
    }
    expect((await call(`${stack.api}/books`)).status).toBe(200);
    const registered = await call(`${stack.api}/register`, { body: registration('sans_nats') });
    expect(registered.status).toBe(201);

    const started = Date.now();
    await nats.start();
    const mail = await stack.mail.waitFor('sans_nats@example.ga', { timeoutMs: 60_000 });
    expect(mail.subject).toContain('Confirmez');
    console.log(`NATS started after the sign-up: verification e-mail ${Date.now() - started} ms later`);
    await eventually(
      async () => ((await call(`${stack.url('messaging')}/ready`)).body.checks.events === 'ok' ? true : undefined),
      30_000,
    );
  }, 120_000);

  it('applies every event after its database was away longer than the old retry budget', async () => {
    const database = new URL(stack.databaseUrls.messaging).pathname.slice(1);
    const members = Array.from({ length: 10 }, (_, i) => `panne_${i}`);
    await admin(`alter database "${database}" with allow_connections false`);
    await admin('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database]);
    const outageStart = Date.now();
    try {
      for (const n of members)
        expect((await call(`${stack.api}/register`, { body: registration(n) })).status).toBe(201);
      // Past the old budget of 8 deliveries: every event delivered at least 9 times, counted by
      // messaging's own metric of retries, before the database comes back.
      await eventually(async () => ((await messagingRetries()) >= members.length * 9 ? true : undefined), 120_000);
    } finally {
      await admin(`alter database "${database}" with allow_connections true`);
    }
    const back = Date.now();
    const client = () => new pg.Client({ connectionString: stack.databaseUrls.messaging });
    // Retries are 5 s apart here, so this takes seconds; the wide window is for a machine loaded
    // by the other test files, and a failure says where the events were.
    await eventually(async () => {
      const c = client();
      await c.connect();
      try {
        const { rows } = await c.query('select username from members where username = any($1)', [members]);
        return rows.length === members.length ? true : undefined;
      } finally {
        await c.end();
      }
    }, 120_000).catch(async (err: Error) => {
      throw new Error(`${err.message}; messaging's consumer of auth: ${await consumerState()}`);
    });
    const nc = await connect({ servers: nats.url });
    const dead = await listDeadLetters(nc, stack.id, { consumer: 'messaging' });
    await nc.close();
    expect(dead).toHaveLength(0);
    const retries = await messagingRetries();
    expect(retries).toBeGreaterThanOrEqual(members.length * 9);
    console.log(
      `database away ${Math.round((back - outageStart) / 1000)} s: ${members.length}/${members.length} members applied ` +
        `${Date.now() - back} ms after it came back, ${retries} retries, 0 dead letters`,
    );
  }, 300_000);
});

/** How many times messaging's consumers retried an event, read on its metrics port. */
async function messagingRetries(): Promise<number> {
  const metrics = (await call(stack.metricsUrl('messaging') ?? '')).body as string;
  return [...metrics.matchAll(/cartable_events_retried_total\{[^}]*consumer="messaging"[^}]*\} (\d+)/g)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

/** Where messaging's consumer of auth's events stands, for a failure message. */
async function consumerState(): Promise<string> {
  const nc = await connect({ servers: nats.url });
  try {
    const info = await (await jetstreamManager(nc)).consumers.info(streamName('auth', stack.id), 'messaging');
    const { num_pending, num_ack_pending, num_redelivered, delivered, ack_floor } = info;
    return JSON.stringify({ num_pending, num_ack_pending, num_redelivered, delivered, ack_floor });
  } catch (err) {
    return `unknown (${(err as Error).message})`;
  } finally {
    await nc.close();
  }
}
