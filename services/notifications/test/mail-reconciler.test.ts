import { randomUUID } from 'node:crypto';
import { createRedis, type Db } from '@cartable/service-kit';
import type { Queue } from 'bullmq';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outgoingMails } from '../src/db/schema.ts';
import { createMailQueue, type MailJob, startMailWorker } from '../src/queue/mail-queue.ts';
import { createMailReconciler } from '../src/queue/mail-reconciler.ts';
import { recordMail } from '../src/queue/outgoing-mails.ts';
import { mailCatcher, notificationsDatabase, silent, testConfig } from './helpers.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let database: Awaited<ReturnType<typeof notificationsDatabase>>;
let db: Db;
let catcher: Awaited<ReturnType<typeof mailCatcher>>;
let config: ReturnType<typeof testConfig>;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  [database, catcher] = await Promise.all([notificationsDatabase(), mailCatcher()]);
  db = database.db;
  // Its own BullMQ prefix on the machine's Redis: removed afterwards.
  config = testConfig({
    QUEUE_PREFIX: `cartable_${database.id}`,
    SMTP_PORT: String(catcher.smtpPort),
    MAIL_RETRY_INITIAL_DELAY_MS: '200',
  });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  if (config) {
    const redis = createRedis(REDIS_URL, { forQueue: true });
    const keys = await redis.keys(`${config.QUEUE_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  await catcher?.close();
  await database?.close();
});

/** A queue (and optionally a worker) as one replica of notifications holds them. */
function replica({ worker = false, settings = config } = {}) {
  const queueRedis = createRedis(REDIS_URL, { forQueue: true });
  const queue = createMailQueue(queueRedis, settings);
  const reconciler = createMailReconciler({ db, queue, log: silent, intervalMs: 60_000 });
  const workerRedis = worker ? createRedis(REDIS_URL, { forQueue: true }) : undefined;
  const running = workerRedis
    ? startMailWorker(workerRedis, db, settings, silent, { onSmtpBack: () => reconciler.retryNow() })
    : undefined;
  closers.push(async () => {
    await reconciler.stop();
    await running?.close();
    await queue.close();
    await queueRedis.quit();
    await workerRedis?.quit();
  });
  return { queue, reconciler };
}

async function pending(n: number, prefix: string) {
  const ids = Array.from({ length: n }, (_, i) => `${randomUUID()}-${i}`);
  for (const [i, id] of ids.entries()) {
    const to = `${prefix}${i}@example.ga`;
    await recordMail(db, id, {
      template: 'verification',
      to,
      data: { name: 'Awa', email: to, token: 'tok', expiresAt: '2026-06-01T10:00:00Z' },
    });
  }
  return ids;
}

const jobIds = async (queue: Queue<MailJob>) =>
  (await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized'])).map((j) => j.id).sort();

describe('mail reconciler', () => {
  it('queues every pending mail once, however often it runs, and leaves sent mails out', async () => {
    const { queue, reconciler } = replica();
    await queue.obliterate({ force: true });
    const ids = await pending(3, 'queued');
    const [sent] = await pending(1, 'already-sent');
    await db.update(outgoingMails).set({ status: 'sent' }).where(eq(outgoingMails.id, sent!));
    await Promise.all([reconciler.reconcile('all'), reconciler.reconcile('all')]);
    await reconciler.reconcile('all');
    expect(await jobIds(queue)).toEqual([...ids].sort());
    const rows = await db.select().from(outgoingMails).where(inArray(outgoingMails.id, ids));
    expect(rows.every((r) => r.enqueuedAt instanceof Date)).toBe(true);
    await db.update(outgoingMails).set({ status: 'sent' }).where(inArray(outgoingMails.id, ids));
    await queue.obliterate({ force: true });
  });

  it('after a commit queues only mails never queued; a full pass re-queues what Redis lost', async () => {
    const { queue, reconciler } = replica();
    const old = await pending(2, 'old');
    await reconciler.reconcile('all');
    // Redis restarted empty: the queue has forgotten them.
    await queue.obliterate({ force: true });
    const fresh = await pending(1, 'fresh');
    await reconciler.reconcile('new');
    expect(await jobIds(queue)).toEqual(fresh);
    await reconciler.reconcile('all');
    expect(await jobIds(queue)).toEqual([...old, ...fresh].sort());
    await db
      .update(outgoingMails)
      .set({ status: 'sent' })
      .where(inArray(outgoingMails.id, [...old, ...fresh]));
    await queue.obliterate({ force: true });
  });

  it('keeps the backoff of a mail waiting for its next try, even when Redis lost its delay', async () => {
    const { queue, reconciler } = replica();
    const [id] = await pending(1, 'backoff');
    await db
      .update(outgoingMails)
      .set({ nextAttemptAt: new Date(Date.now() + 60_000) })
      .where(eq(outgoingMails.id, id!));
    await reconciler.reconcile('all');
    const [job] = await queue.getJobs(['delayed']);
    expect(job?.id).toBe(id);
    expect(job?.delay).toBeGreaterThan(50_000);
    await db.update(outgoingMails).set({ status: 'sent' }).where(eq(outgoingMails.id, id!));
    await queue.obliterate({ force: true });
  });

  it('with two replicas and the queue wiped mid-way, every mail arrives exactly once', async () => {
    const a = replica({ worker: true });
    const b = replica({ worker: true });
    const ids = await pending(30, 'twice');
    await Promise.all([a.reconciler.reconcile('all'), b.reconciler.reconcile('all')]);
    // Redis loses everything while mails are being sent; both replicas reconcile again.
    await a.queue.obliterate({ force: true });
    await Promise.all([a.reconciler.reconcile('all'), b.reconciler.reconcile('all')]);
    const deadline = Date.now() + 20_000;
    let sent = 0;
    while (Date.now() < deadline) {
      const rows = await db.select().from(outgoingMails).where(inArray(outgoingMails.id, ids));
      sent = rows.filter((r) => r.status === 'sent').length;
      if (sent === ids.length) break;
      // A mail whose job was wiped while it was taken is picked up by the next pass.
      await a.reconciler.reconcile('all');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(sent).toBe(ids.length);
    const perAddress = new Map<string, number>();
    // maildev stores a mail just after its SMTP answer: give it a moment.
    for (let tries = 0; tries < 50 && perAddress.size < 30; tries++) {
      perAddress.clear();
      for (const m of await catcher.list()) {
        const address = m.to[0]?.address ?? '';
        if (address.startsWith('twice')) perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(perAddress.size).toBe(30);
    expect([...perAddress.values()].every((n) => n === 1)).toBe(true);
  });

  it('sends waiting mails as soon as the SMTP server answers again, not after their backoff', async () => {
    // A minute of backoff after the first failure, and a queue of its own.
    const settings = testConfig({
      QUEUE_PREFIX: `cartable_${database.id}_back`,
      SMTP_PORT: String(catcher.smtpPort),
      MAIL_RETRY_INITIAL_DELAY_MS: '60000',
    });
    const { queue, reconciler } = replica({ worker: true, settings });
    await catcher.stop();
    const ids = await pending(3, 'back');
    await reconciler.reconcile('new');
    const waiting = async () => db.select().from(outgoingMails).where(inArray(outgoingMails.id, ids));
    while ((await waiting()).some((r) => r.attempts === 0)) await new Promise((r) => setTimeout(r, 100));
    const retryAt = new Map((await waiting()).map((r) => [r.id, r.nextAttemptAt?.getTime() ?? 0]));
    await catcher.start();
    while ((await waiting()).some((r) => r.status !== 'sent')) await new Promise((r) => setTimeout(r, 200));
    for (const row of await waiting()) expect(row.sentAt?.getTime()).toBeLessThan(retryAt.get(row.id) ?? 0);
    await queue.obliterate({ force: true });
  }, 60_000);
});
