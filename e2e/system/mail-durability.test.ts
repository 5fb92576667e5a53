import { type OwnServer, redisServer } from '@cartable/stack/servers';
import { eventually, freePort, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * No e-mail is lost: every mail is a row in notifications' database before Redis sees it, so a
 * Redis restarted empty mid-burst and an SMTP outage through more attempts than a queue's usual
 * budget (6) still end with every mail delivered exactly once.
 * This stack has a Redis of its own, started and killed here (never the machine's shared one).
 */
let stack: TestStack;
/** This test's own Redis (never the machine's shared one), killed and restarted empty below. */
let redis: OwnServer;

beforeAll(async () => {
  redis = redisServer(await freePort());
  await redis.start();
  stack = await startTestStack({
    only: ['auth', 'notifications', 'gateway'],
    env: {
      REDIS_URL: redis.url,
      // The visitors below reach the gateway through a proxy on this machine (X-Forwarded-For).
      TRUST_PROXY: 'loopback',
      // Short delays so the SMTP outage below outlasts many retries in little time. The periodic
      // reconciliation keeps its 30 s: what Redis lost is queued again on its reconnection.
      MAIL_RETRY_INITIAL_DELAY_MS: '500',
      MAIL_RETRY_MAX_DELAY_MS: '1000',
    },
  });
});
afterAll(async () => {
  await stack?.teardown();
  await redis?.remove();
});

/** Registers a member as a distinct visitor (the gateway limits registrations per address). */
async function register(email: string, n: number) {
  const res = await fetch(`${stack.api}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.8.${n >> 8}.${n & 255}` },
    body: JSON.stringify({
      name: `Parent ${n}`,
      email,
      username: email.split('@')[0]?.replace(/\W/g, '_').slice(0, 20),
      password: 'Cartable1a',
      password_confirmation: 'Cartable1a',
      country_id: 266,
      city_id: 1,
    }),
  });
  return res.status;
}

/** Verification mails caught per address of this domain. */
async function verificationCounts(domain: string) {
  const counts = new Map<string, number>();
  for (const mail of await stack.mail.list()) {
    const address = mail.to[0]?.address ?? '';
    if (address.endsWith(`@${domain}`) && mail.subject.startsWith('Confirmez')) {
      counts.set(address, (counts.get(address) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Waits until every address got its mail (returns when: `at`), then a little longer to catch
 * any duplicate, and counts.
 */
async function drained(domain: string, expected: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const counts = await verificationCounts(domain);
    if (expected.every((a) => counts.has(a))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const at = Date.now();
  await new Promise((r) => setTimeout(r, 3000));
  const counts = await verificationCounts(domain);
  const result = {
    lost: expected.filter((a) => !counts.has(a)).length,
    duplicated: [...counts.values()].filter((n) => n > 1).length,
    unexpected: [...counts.keys()].filter((a) => !expected.includes(a)).length,
  };
  return { result, at };
}

async function notificationsQuery<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: stack.databaseUrls.notifications });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Mails not sent yet (rows) and mail jobs Redis holds (waiting, delayed, active). */
async function mailsWaiting() {
  const [row] = await notificationsQuery<{ n: number }>(
    "select count(*)::int as n from outgoing_mails where status = 'pending'",
  );
  const client = new Redis({ port: redis.port });
  const key = `cartable_${stack.id}:mail`;
  const [wait, delayed, active] = await Promise.all([
    client.llen(`${key}:wait`),
    client.zcard(`${key}:delayed`),
    client.llen(`${key}:active`),
  ]);
  client.disconnect();
  return { pendingRows: row?.n ?? 0, jobsInRedis: wait + delayed + active };
}

describe('no e-mail is lost', () => {
  it('Redis killed mid-burst and restarted empty: every verification e-mail arrives exactly once', async () => {
    const domain = 'burst.example.ga';
    const emails = Array.from({ length: 40 }, (_, i) => `burst${i}@${domain}`);
    // SMTP is slow to come today: the first mails wait in the queue, so Redis holds them when it dies.
    await stack.mail.stop();
    const started = Date.now();
    const statuses = new Map<string, number>();
    let answered = 0;
    let killed: Promise<void> | undefined;
    let atKill = { pendingRows: 0, jobsInRedis: 0 };
    // Eight visitors at a time; Redis dies once half of them have their mail queued.
    const queue = [...emails.entries()];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [n, email] = next;
          statuses.set(email, await register(email, n).catch(() => 0));
          if (++answered === emails.length / 2) {
            killed = (async () => {
              // Once the first half's mails are written and queued, while the rest still come.
              const deadline = Date.now() + 10_000;
              do atKill = await mailsWaiting();
              while (atKill.jobsInRedis < emails.length / 2 && Date.now() < deadline);
              await redis.kill();
              await new Promise((r) => setTimeout(r, 1000));
              await redis.start();
              await stack.mail.start();
            })();
          }
        }
      }),
    );
    await killed;
    const refused = emails.filter((e) => statuses.get(e) !== 201);
    // A sign-up refused while Redis was away is tried again, as a visitor would.
    for (const email of refused) statuses.set(email, await register(email, emails.indexOf(email)));
    const registered = emails.filter((e) => statuses.get(e) === 201);
    expect(registered).toHaveLength(emails.length);

    const { result, at } = await drained(domain, registered, 90_000);
    console.log(
      `Redis restart mid-burst: ${registered.length} sign-ups (${refused.length} answered otherwise during the outage and retried), ` +
        `${atKill.pendingRows} mails pending and ${atKill.jobsInRedis} jobs in Redis when it was killed; all delivered ${at - started} ms after the first sign-up; ` +
        `lost ${result.lost}, duplicated ${result.duplicated}`,
    );
    expect(result).toEqual({ lost: 0, duplicated: 0, unexpected: 0 });
    const rows = await notificationsQuery<{ status: string; n: number }>(
      "select status, count(*)::int as n from outgoing_mails where recipient like '%@burst.example.ga' group by status",
    );
    expect(rows).toEqual([{ status: 'sent', n: 40 }]);
  }, 180_000);

  it('SMTP down for longer than the old retry budget, then back: every e-mail arrives exactly once', async () => {
    const domain = 'smtp-outage.example.ga';
    const emails = Array.from({ length: 10 }, (_, i) => `outage${i}@${domain}`);
    await stack.mail.stop();
    const started = Date.now();
    for (const [n, email] of emails.entries()) expect(await register(email, 1000 + n)).toBe(201);
    // A queue with a budget of 6 attempts would have given up on them: wait until each mail has
    // been tried more often than that, as its row says.
    const rows = await eventually(async () => {
      const found = await notificationsQuery<{ status: string; attempts: number; last_error: string | null }>(
        'select status, attempts, last_error from outgoing_mails where recipient like $1',
        [`%@${domain}`],
      );
      return found.length === emails.length && found.every((row) => row.attempts > 6) ? found : undefined;
    }, 120_000);
    for (const row of rows) {
      expect(row.status).toBe('pending');
      expect(row.last_error).toMatch(/ECONNREFUSED|connect/);
    }
    await stack.mail.start();
    const back = Date.now();
    const { result, at } = await drained(domain, emails, 30_000);
    console.log(
      `SMTP outage of ${Math.round((back - started) / 1000)} s (${Math.min(...rows.map((r) => r.attempts))}+ attempts each): ` +
        `drained ${at - back} ms after SMTP came back; lost ${result.lost}, duplicated ${result.duplicated}`,
    );
    expect(result).toEqual({ lost: 0, duplicated: 0, unexpected: 0 });
  }, 180_000);
});
