import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listBook, postListing, verifiedMember } from '@cartable/stack/members';
import { natsServer, type OwnServer } from '@cartable/stack/servers';
import { call, eventually, freePort, PG_ADMIN_URL, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * PostgreSQL going away under real processes: no service exits, /ready says so, and every
 * request that needs the database answers a French 503 with Retry-After at once; a table locked
 * elsewhere costs the waiting request a 503 after the lock timeout while the other routes answer.
 * The stack's databases are refused and their sessions ended (the shared server keeps running);
 * NATS is this test's own, stopped to hold the outbox relay inside its transaction.
 */
let stack: TestStack;
let nats: OwnServer;
const services = ['auth', 'catalog', 'messaging', 'moderation', 'notifications'] as const;

beforeAll(async () => {
  nats = natsServer(await freePort());
  await nats.start();
  stack = await startTestStack({ env: { NATS_URL: nats.url, DB_LOCK_TIMEOUT_MS: '1000' } });
});
afterAll(async () => {
  await stack?.teardown();
  await nats?.remove();
});

async function admin<T>(query: string, params: unknown[] = [], url = PG_ADMIN_URL): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const databaseOf = (service: (typeof services)[number]) => new URL(stack.databaseUrls[service]).pathname.slice(1);

/** Whether the process is still there (Node reaps its children: a dead one is gone). */
function alive(pid: number | undefined) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the database away', () => {
  it('a table locked elsewhere costs the waiting request a French 503 after the lock timeout, other routes answer meanwhile', async () => {
    const member = await verifiedMember(stack, 'verrou');
    // Read before the lock: the categories' counts read the books too.
    const city = (await call(`${stack.api}/locations/cities/search?q=libreville`)).body.cities[0].id;
    const category = (await call(`${stack.api}/categories/leaves`)).body.categories[0].id;
    const fields = {
      author: 'IPN',
      condition: 'bon',
      price: '4000',
      city_id: String(city),
      category_ids: String(category),
    };
    const locker = new pg.Client({ connectionString: stack.databaseUrls.catalog });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table books in access exclusive mode');
      const order: string[] = [];
      const started = Date.now();
      const listing = postListing(stack, member.token, { ...fields, title: 'Livre bloqué' }).then(
        () => {
          order.push('listing created');
          return undefined;
        },
        (err: Error) => {
          order.push('listing refused');
          return err.message;
        },
      );
      // Another route of the same service answers while the listing waits for its lock.
      const cities = await call(`${stack.api}/locations/cities/search?q=libreville`);
      order.push('cities answered');
      expect(cities.status).toBe(200);
      const refused = await listing;
      const waited = Date.now() - started;
      expect(order).toEqual(['cities answered', 'listing refused']);
      expect(refused).toMatch(/listing failed: 503 .*Réessayez/);
      console.log(`books locked elsewhere: the listing answered 503 after ${waited} ms (lock timeout 1000 ms)`);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
    // The lock gone, the same request goes through.
    await listBook(stack, member.token, 'Livre débloqué');
  }, 120_000);

  it('no service exits when its database goes away, even inside a transaction; /ready fails and requests get a 503 at once', async () => {
    // NATS away: the relay publishing the sign-up's event waits inside its transaction.
    await nats.kill();
    const registered = await call(`${stack.api}/register`, {
      body: {
        name: 'Parent Panne',
        email: 'panne.pg@example.ga',
        username: 'panne_pg',
        password: 'Cartable1a',
        password_confirmation: 'Cartable1a',
        country_id: 266,
        city_id: 1,
      },
    });
    expect(registered.status).toBe(201);
    await eventually(
      async () =>
        (
          await admin<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where datname = $1 and state = 'idle in transaction'",
            [databaseOf('auth')],
          )
        )[0]!.n > 0
          ? true
          : undefined,
      30_000,
    );
    const names = services.map(databaseOf);
    const pids = Object.fromEntries(services.map((s) => [s, stack.pid(s)]));
    try {
      for (const name of names) await admin(`alter database "${name}" with allow_connections false`);
      await admin('select pg_terminate_backend(pid) from pg_stat_activity where datname = any($1)', [names]);

      for (const service of services) {
        const ready = await call(`${stack.url(service)}/ready`);
        expect(ready.status, service).toBe(503);
        expect(ready.body.checks.database, service).not.toBe('ok');
      }
      const timings: string[] = [];
      for (const [label, request] of [
        ['GET /books', () => call(`${stack.api}/books`)],
        ['GET /books/1', () => call(`${stack.api}/books/1`)],
        [
          'POST /login',
          () => call(`${stack.api}/login`, { body: { email: 'panne.pg@example.ga', password: 'Cartable1a' } }),
        ],
      ] as const) {
        const started = Date.now();
        const res = await request();
        timings.push(`${label} ${res.status} in ${Date.now() - started} ms`);
        expect(res.status, label).toBe(503);
        expect(res.headers.get('retry-after'), label).toMatch(/^\d+$/);
        expect(res.body.message, label).toMatch(/Réessayez/);
      }
      console.log(`database refused: ${timings.join(', ')}`);
      for (const service of services) {
        expect(alive(pids[service]), `${service} still running`).toBe(true);
        expect((await call(`${stack.url(service)}/health`)).status, service).toBe(200);
      }
    } finally {
      for (const name of names) await admin(`alter database "${name}" with allow_connections true`);
    }
    // How long after PostgreSQL takes connections again every service is ready (NATS still away:
    // it is reported in /ready, never fatal).
    const back = Date.now();
    for (const service of services) {
      await eventually(
        async () => ((await call(`${stack.url(service)}/ready`)).status === 200 ? true : undefined),
        60_000,
      );
    }
    console.log(`database back: every service ready ${Date.now() - back} ms later`);
    await nats.start();
    for (const service of services) {
      expect(stack.pid(service), service).toBe(pids[service]);
      const log = readFileSync(join(stack.addresses.dataDir, 'logs', `${service}.log`), 'utf8');
      expect(log, service).not.toContain('fatal error, shutting down');
    }
    // Nothing lost on the way: the sign-up's event leaves once both are back.
    const mail = await stack.mail.waitFor('panne.pg@example.ga', { timeoutMs: 60_000 });
    expect(mail.subject).toContain('Confirmez');
  }, 300_000);
});
