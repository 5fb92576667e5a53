import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamName } from '@cartable/contracts';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { createDatabases, databaseUrl, dropDatabases } from './infrastructure.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';
import { freePort, onFreePorts } from './ports.ts';
import { type Deployable, deployables, type Service, type Stack, services, startStack } from './processes.ts';

export { freePort };

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestStack extends Stack {
  id: string;
  api: string;
  mail: MailCatcher;
  databaseUrls: Record<Service, string>;
  teardown(): Promise<void>;
}

/**
 * The whole product as real processes, isolated from anything else on the machine: its own
 * databases, NATS subjects and streams, Redis keys and queues, ports and data folder; all
 * removed by teardown().
 */
export async function startTestStack(options: { env?: Record<string, string> } = {}): Promise<TestStack> {
  const id = `t${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), `cartable-${id}-`));
  const names = services.map((s) => `cartable_${id}_${s}`);
  await createDatabases(PG_ADMIN_URL, names);
  const databaseUrls = Object.fromEntries(
    services.map((s) => [s, databaseUrl(PG_ADMIN_URL, `cartable_${id}_${s}`)]),
  ) as Record<Service, string>;
  const mail = await onFreePorts(async () =>
    startMailCatcher({ smtp: await freePort(), web: await freePort(), mailDirectory: join(dataDir, 'mail') }),
  );

  let stack: Stack;
  try {
    stack = await onFreePorts(async () => {
      const ports = Object.fromEntries(
        await Promise.all(deployables.map(async (d) => [d, await freePort()])),
      ) as Record<Deployable, number>;
      const metricsPorts = Object.fromEntries(
        await Promise.all(deployables.map(async (d) => [d, await freePort()])),
      ) as Record<Deployable, number>;
      return startStack({
        ports,
        metricsPorts,
        env: {
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          DATA_DIR: dataDir,
          NATS_URL,
          REDIS_URL,
          EVENT_NAMESPACE: id,
          REDIS_KEY_PREFIX: `cartable:${id}:`,
          QUEUE_PREFIX: `cartable_${id}`,
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(mail.smtpPort),
          PUBLIC_URL: `http://localhost:${ports.gateway}`,
          // Subscriptions: the catalog's expiry sweep runs every second, so a journey sees an end soon.
          SUBSCRIPTION_SWEEP_INTERVAL_MS: '1000',
          ...options.env,
        },
        databaseUrls,
        logDir: join(dataDir, 'logs'),
      });
    });
  } catch (err) {
    await mail.stop();
    await dropDatabases(PG_ADMIN_URL, names);
    throw err;
  }

  const running: Stack = stack;
  async function teardown() {
    await running.stopAll();
    await mail.stop();
    await dropDatabases(PG_ADMIN_URL, names);
    const nc = await connect({ servers: NATS_URL });
    const jsm = await jetstreamManager(nc);
    for (const producer of ['auth', 'catalog', 'messaging', 'moderation', 'dlq'] as const) {
      await jsm.streams.delete(streamName(producer, id)).catch(() => false);
    }
    await nc.close();
    const redis = new Redis(REDIS_URL);
    for (const pattern of [`cartable:${id}:*`, `cartable_${id}:*`]) {
      const keys = await redis.keys(pattern);
      if (keys.length) await redis.del(...keys);
    }
    await redis.quit();
    rmSync(dataDir, { recursive: true, force: true });
  }

  return { ...running, id, api: `${running.url('gateway')}/api`, mail, databaseUrls, teardown };
}

/** fetch + JSON for tests: returns status, body and headers. */
export async function call(url: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await fetch(url, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: {
      ...(init.body ? { 'content-type': 'application/json' } : {}),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  // Tests read whatever shape the call answers.
  // biome-ignore lint/suspicious/noExplicitAny: JSON of any shape
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/** Polls until `check` returns a value other than undefined, or throws after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
}
