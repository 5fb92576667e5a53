import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { streamName } from '@cartable/contracts';
import { repoRoot } from '@cartable/stack/processes';
import { natsServer, type OwnServer } from '@cartable/stack/servers';
import { call, eventually, freePort, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A stream lost under the whole product: auth's stream is deleted while messaging is down.
 * The consumers that were running say so in /ready and their metrics and make their consumers
 * again on the new stream; a refeed from auth's outbox then gives every consumer what it never
 * received (messaging the members who signed up while it was down, everyone those who signed up
 * after the cut), and nobody applies anything twice: one confirmation e-mail per member, one
 * member row each. Before consumers noticed a cut, nothing published after it was ever
 * consumed, refeed or not. NATS is this test's own.
 */
const run = promisify(execFile);

/**
 * NATS 2.9 (Debian 12's) loses, in about half the runs, the first messages stored in a stream
 * created again under the same name: counted in the stream's state, never readable, and their ids
 * kept by the duplicate window, so no client and no refeed within two minutes can bring them back
 * (docs/events-and-operations.md). The cut is proven here on a server that keeps what it counts;
 * on 2.9 the consumers' side of it is proven by libs/service-kit's stream-gaps test and the refeed
 * by scripts/test/events-refeed.test.ts, each on a stream that is not recreated under load.
 */
const natsVersion = execFileSync('/usr/sbin/nats-server', ['--version'], { encoding: 'utf8' });
const [major = 0, minor = 0] = (/v(\d+)\.(\d+)/.exec(natsVersion)?.slice(1) ?? []).map(Number);
const keepsRecreatedStreams = major > 2 || (major === 2 && minor >= 10);
let stack: TestStack;
let nats: OwnServer;

const address = (n: string) => `${n}.coupe@example.ga`;
async function register(n: string) {
  const res = await call(`${stack.api}/register`, {
    body: {
      name: `Parent ${n}`,
      email: address(n),
      username: n,
      password: 'Cartable1a',
      password_confirmation: 'Cartable1a',
      country_id: 266,
      city_id: 1,
    },
  });
  expect(res.status, n).toBe(201);
}

async function messagingMembers(names: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrls.messaging });
  await client.connect();
  try {
    const { rows } = await client.query('select username from members where username = any($1)', [names]);
    return rows.map((r) => r.username as string).sort();
  } finally {
    await client.end();
  }
}

/** Every message of auth's stream acknowledged by this consumer. */
async function caughtUp(consumer: string) {
  const nc = await connect({ servers: nats.url });
  try {
    const info = await (await jetstreamManager(nc)).consumers.info(streamName('auth', stack.id), consumer);
    return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
  } finally {
    await nc.close();
  }
}

describe.skipIf(!keepsRecreatedStreams)('a stream cut under the product', () => {
  beforeAll(async () => {
    nats = natsServer(await freePort());
    await nats.start();
    stack = await startTestStack({ env: { NATS_URL: nats.url, EVENT_GAP_CHECK_MS: '500' } });
  });
  afterAll(async () => {
    await stack?.teardown();
    await nats?.remove();
  });

  it('is reported by the consumers that ran through it, and a refeed makes every consumer whole with nothing applied twice', async () => {
    const since = new Date().toISOString();
    const before = ['coupe_avant_0', 'coupe_avant_1'];
    const away = ['coupe_absent_0', 'coupe_absent_1', 'coupe_absent_2'];
    const after = ['coupe_apres_0', 'coupe_apres_1'];
    const everyone = [...before, ...away, ...after];

    for (const n of before) await register(n);
    await eventually(async () => ((await messagingMembers(before)).length === 2 ? true : undefined), 60_000);

    await stack.stop('messaging');
    for (const n of away) await register(n);
    for (const n of away) await stack.mail.waitFor(address(n), { subject: 'Confirmez', timeoutMs: 60_000 });

    const nc = await connect({ servers: nats.url });
    await (await jetstreamManager(nc)).streams.delete(streamName('auth', stack.id));
    await nc.close();
    await stack.start('messaging');
    // The consumers that ran through the cut say so, and have made their consumers again on the
    // new stream.
    for (const service of ['catalog', 'moderation', 'notifications'] as const) {
      let last = '';
      await eventually(async () => {
        const ready = await call(`${stack.url(service)}/ready`);
        last = JSON.stringify(ready.body);
        return /recréé/.test(ready.body.checks?.event_gaps ?? '') ? true : undefined;
      }, 30_000).catch((err: Error) => {
        throw new Error(`${service}: ${err.message}; /ready ${last}`);
      });
    }
    // Signed up after the cut. NATS 2.9 was seen to lose the first messages stored in a stream
    // created again under the same name (counted, never readable): the refeed below covers them
    // as it covers the rest, so this test waits for them after it.
    for (const n of after) await register(n);

    // Notifications was running through the cut: it says so, in /ready's body and its metrics.
    const ready = await call(`${stack.url('notifications')}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body.checks.event_gaps).toMatch(/recréé/);
    const metrics = (await call(stack.metricsUrl('notifications') ?? '')).body as string;
    expect(metrics).toMatch(/cartable_event_stream_gaps_total\{[^}]*kind="recreated"[^}]*\} 1/);
    // Messaging was down while three members signed up, and the stream that held them is gone.
    expect(await messagingMembers(away)).toEqual([]);

    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/events.ts', 'refeed', 'auth', '--since', since],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          NATS_URL: nats.url,
          EVENT_NAMESPACE: stack.id,
          AUTH_DATABASE_URL: stack.databaseUrls.auth,
        },
      },
    );
    console.log(stdout.trim());
    expect(stdout).toMatch(/\d+ événement\(s\) republié\(s\)/);

    for (const n of after) await stack.mail.waitFor(address(n), { subject: 'Confirmez', timeoutMs: 60_000 });
    await eventually(
      async () => ((await messagingMembers(everyone)).length === everyone.length ? true : undefined),
      60_000,
    );
    for (const consumer of ['messaging', 'notifications', 'catalog', 'moderation']) {
      await eventually(() => caughtUp(consumer).catch(() => undefined), 60_000);
    }
    expect(await messagingMembers(everyone)).toEqual([...everyone].sort());
    const mails = await stack.mail.list();
    for (const n of everyone) {
      const confirmations = mails.filter(
        (m) => m.to.some((t) => t.address === address(n)) && m.subject.startsWith('Confirmez'),
      );
      expect(confirmations, `${n}: one confirmation e-mail`).toHaveLength(1);
    }
    console.log(
      `stream cut with messaging down: ${everyone.length}/${everyone.length} members in messaging after the refeed, one confirmation e-mail each`,
    );
  }, 300_000);
});
