import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamName } from '@cartable/contracts';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { createDatabases, databaseUrl, dropDatabases } from './infrastructure.ts';
import { mailCatcherClient, startMailCatcher } from './mail-catcher.ts';
import { freePort, onFreePorts } from './ports.ts';
import { type Deployable, deployables, type Service, type Stack, services, startStack } from './processes.ts';

export { freePort };

export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** What a test reads of a running stack: where its processes answer and where its data lives. */
export interface StackAddresses {
  id: string;
  ports: Record<Deployable, number>;
  metricsPorts: Record<Deployable, number>;
  mailWebPort: number;
  mailSmtpPort: number;
  dataDir: string;
  databaseUrls: Record<Service, string>;
}

export interface TestStack extends Stack {
  id: string;
  api: string;
  /** The stack's mail catcher; a stack of the test's own can also stop and start it. */
  mail: ReturnType<typeof mailCatcherClient> & { start(): Promise<void>; stop(): Promise<void> };
  databaseUrls: Record<Service, string>;
  /** Where it answers, to hand it to another process (vitest's global setup to a test file). */
  addresses: StackAddresses;
  teardown(): Promise<void>;
}

/** What every process of a test stack shares: its namespaces, its data folder, its mail catcher. */
function stackEnvironment(at: { id: string; dataDir: string; smtpPort: number; gatewayPort: number }) {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATA_DIR: at.dataDir,
    NATS_URL,
    REDIS_URL,
    EVENT_NAMESPACE: at.id,
    REDIS_KEY_PREFIX: `cartable:${at.id}:`,
    QUEUE_PREFIX: `cartable_${at.id}`,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(at.smtpPort),
    PUBLIC_URL: `http://localhost:${at.gatewayPort}`,
    // Subscriptions: the catalog's expiry sweep runs every second, so a journey sees an end soon.
    SUBSCRIPTION_SWEEP_INTERVAL_MS: '1000',
    // SMS alerts leave at any hour: a journey run in the evening would otherwise wait for 07:00.
    SMS_QUIET_HOURS: 'none',
  };
}

/**
 * The whole product as real processes, isolated from anything else on the machine: its own
 * databases, NATS subjects and streams, Redis keys and queues, ports and data folder; all
 * removed by teardown().
 */
export async function startTestStack(
  options: {
    env?: Record<string, string>;
    /**
     * The processes a file needs, when it proves something of a few (a fault in one upstream,
     * say): fewer to start and to keep running. Every database is still created.
     */
    only?: readonly Deployable[];
  } = {},
): Promise<TestStack> {
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
  let ports = {} as Record<Deployable, number>;
  let metricsPorts = {} as Record<Deployable, number>;
  try {
    stack = await onFreePorts(async () => {
      ports = Object.fromEntries(await Promise.all(deployables.map(async (d) => [d, await freePort()]))) as Record<
        Deployable,
        number
      >;
      metricsPorts = Object.fromEntries(
        await Promise.all(deployables.map(async (d) => [d, await freePort()])),
      ) as Record<Deployable, number>;
      return startStack(
        {
          ports,
          metricsPorts,
          env: {
            ...stackEnvironment({ id, dataDir, smtpPort: mail.smtpPort, gatewayPort: ports.gateway }),
            ...options.env,
          },
          databaseUrls,
          logDir: join(dataDir, 'logs'),
          // Each process writes its own log file: the test runner reads none of it (a failed start
          // still says why, from the file's tail).
          logsDirect: true,
        },
        options.only,
      );
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

  const addresses: StackAddresses = {
    id,
    ports,
    metricsPorts,
    mailWebPort: mail.webPort,
    mailSmtpPort: mail.smtpPort,
    dataDir,
    databaseUrls,
  };
  return { ...running, id, api: `${running.url('gateway')}/api`, mail, databaseUrls, addresses, teardown };
}

/**
 * A stack that another process started (vitest's global setup), as a test file uses it: its
 * addresses, its mail catcher, its databases. Its processes are not this file's to stop: a test
 * that stops, kills or reconfigures a part starts a stack of its own.
 */
export function attachTestStack(addresses: StackAddresses): TestStack {
  const local = (port: number) => `http://127.0.0.1:${port}`;
  const notOurs = async () => {
    throw new Error('cette pile est partagée entre les fichiers de test : démarrez la vôtre (startTestStack)');
  };
  const url = (name: Deployable) => local(addresses.ports[name]);
  return {
    id: addresses.id,
    api: `${url('gateway')}/api`,
    url,
    metricsUrl: (name) => `${local(addresses.metricsPorts[name])}/metrics`,
    pid: () => undefined,
    start: notOurs,
    stop: notOurs,
    stopAll: async () => {},
    mail: { ...mailCatcherClient(addresses.mailWebPort), start: notOurs, stop: notOurs },
    databaseUrls: addresses.databaseUrls,
    addresses,
    teardown: async () => {},
  };
}

/**
 * A second gateway in front of a stack's services, with settings of its own (the browser's
 * inactivity limits, say): what a test needs to change of the public door, without a whole stack.
 */
export async function startExtraGateway(stack: TestStack, env: Record<string, string>) {
  const { addresses } = stack;
  let gatewayPort = 0;
  const gateway = await onFreePorts(async () => {
    gatewayPort = await freePort();
    return startStack(
      {
        ports: { ...addresses.ports, gateway: gatewayPort },
        env: {
          ...stackEnvironment({ ...addresses, smtpPort: addresses.mailSmtpPort, gatewayPort }),
          ...env,
        },
        databaseUrls: addresses.databaseUrls,
        logDir: join(addresses.dataDir, 'logs', `gateway-${gatewayPort}`),
        logsDirect: true,
      },
      ['gateway'],
    );
  });
  return { url: gateway.url('gateway'), stop: () => gateway.stopAll() };
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
