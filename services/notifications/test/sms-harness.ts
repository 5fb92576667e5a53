import { randomUUID } from 'node:crypto';
import { createRedis, type Db } from '@cartable/service-kit';
import { testTokens } from '@cartable/service-kit/testing';
import { eventually } from '@cartable/stack/test-stack';
import type { FastifyInstance } from 'fastify';
import { buildPaymentSimulator } from '../../payment-simulator/src/simulator.ts';
import { buildNotificationsApp } from '../src/app.ts';
import { members, outgoingSms } from '../src/db/schema.ts';
import { smsProviderFrom } from '../src/sms/infobip.ts';
import { createSmsQueue, createSmsReconciler, startSmsWorker } from '../src/sms/sms-queue.ts';
import { freePort, notificationsDatabase, silent, testConfig } from './helpers.ts';

export const SMS_KEY = 'test-sms-key-0123';
export const SMS_SECRET = 'test-sms-webhook-secret-0123';

export interface SimulatedSms {
  id: string;
  to: string;
  text: string;
  status: string;
  repeats: number;
}

/**
 * notifications on its own database and Redis prefix, listening on a real port, with the SMS
 * worker and reconciler running against the provider simulator (services/payment-simulator's
 * /sms, Infobip's protocol) on another port: the adapter talks to it over HTTP, and the
 * simulator's delivery reports and replies come back to notifications' webhooks.
 */
export async function smsHarness({ deliveryDelayMs = 20 }: { deliveryDelayMs?: number } = {}) {
  const database = await notificationsDatabase();
  const db: Db = database.db;
  const tokens = await testTokens();
  const [appPort, simPort] = await Promise.all([freePort(), freePort()]);
  const appUrl = `http://127.0.0.1:${appPort}`;
  const simulator: FastifyInstance = buildPaymentSimulator({
    apiKey: 'unused-aggregator-key',
    webhookSecret: 'unused-webhook-secret-0123456789',
    confirmDelayMs: 0,
    retryBaseMs: 50,
    maxAttempts: 5,
    sms: {
      apiKey: SMS_KEY,
      webhookSecret: SMS_SECRET,
      inboundUrl: `${appUrl}/notifications/sms/inbound`,
      deliveryDelayMs,
      slowMs: 1500,
    },
  });
  await simulator.listen({ port: simPort, host: '127.0.0.1' });
  const simUrl = `http://127.0.0.1:${simPort}`;
  const config = testConfig({
    NOTIFICATIONS_DATABASE_URL: 'postgres://x@127.0.0.1/x',
    QUEUE_PREFIX: `cartable_${database.id}_sms`,
    SMS_PROVIDER_URL: simUrl,
    SMS_API_KEY: SMS_KEY,
    SMS_WEBHOOK_SECRET: SMS_SECRET,
    SMS_DELIVERY_URL: `${appUrl}/notifications/sms/delivery`,
    // The simulator holds a « timeout » number's send 1.5 s: the adapter gives up before.
    SMS_TIMEOUT_MS: '500',
    SMS_RETRY_INITIAL_DELAY_MS: '50',
    SMS_RETRY_MAX_DELAY_MS: '200',
  });
  const provider = smsProviderFrom(config)!;
  const queueRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const workerRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const queue = createSmsQueue(queueRedis, config);
  const reconciler = createSmsReconciler({ db, queue, log: silent, intervalMs: 60_000 });
  const worker = startSmsWorker(workerRedis, db, provider, config, silent, { concurrency: 8 });
  const app = await buildNotificationsApp(
    { config, db, guards: tokens.guards, smsProvider: provider, onSmsWritten: () => void reconciler.reconcile('new') },
    [],
    false,
  );
  await app.listen({ port: appPort, host: '127.0.0.1' });

  async function simulatorCall(method: string, path: string, body?: unknown) {
    const res = await fetch(`${simUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON of any shape
    return (await res.json()) as any;
  }

  return {
    db,
    app,
    appUrl,
    simUrl,
    config,
    provider,
    queue,
    reconciler,
    tokens,
    /** A member of the projection, with a token. */
    async member(name = 'Awa') {
      const sub = randomUUID();
      await db.insert(members).values({ id: sub, name, email: `${sub.slice(0, 8)}@example.ga` });
      return { sub, token: (await tokens.token({ sub })).token };
    },
    async call(method: string, url: string, who?: { token: string }, body?: unknown) {
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: who ? { authorization: `Bearer ${who.token}` } : {},
        ...(body === undefined ? {} : { payload: body as object }),
      });
      // biome-ignore lint/suspicious/noExplicitAny: JSON of any shape
      return { status: res.statusCode, headers: res.headers, body: res.json() as any };
    },
    simulatorCall,
    async inbox(to?: string): Promise<SimulatedSms[]> {
      return (await simulatorCall('GET', `/sms/inbox${to ? `?to=${encodeURIComponent(to)}` : ''}`)).messages;
    },
    rows: () => db.select().from(outgoingSms),
    /** Waits for a truthy answer (the timeout only guards against a hang). */
    until<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
      return eventually(async () => (await check()) || undefined, timeoutMs);
    },
    async close() {
      await reconciler.stop();
      await worker.close();
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
      await app.close();
      await simulator.close();
      await queueRedis.quit();
      await workerRedis.quit();
      await database.close();
    },
  };
}
export type SmsHarness = Awaited<ReturnType<typeof smsHarness>>;
