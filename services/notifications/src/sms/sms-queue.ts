import type { Db } from '@cartable/service-kit';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { NotificationsConfig } from '../config.ts';
import { outgoingSms } from '../db/schema.ts';
import { createRowReconciler } from '../queue/row-reconciler.ts';
import { deliverSms, type SmsRetryPolicy } from './outgoing-sms.ts';
import type { SmsProvider } from './provider.ts';

/**
 * The SMS queue, beside the mail queue and shaped like it: the outgoing_sms row is the truth,
 * a job only names it (job id = SMS id, so BullMQ holds one job per SMS), the worker sends each
 * row once and reschedules a failed send from the row's backoff.
 */
export const SMS_QUEUE = 'sms';
export interface SmsJob {
  id: string;
}

export function createSmsQueue(connection: Redis, config: Pick<NotificationsConfig, 'QUEUE_PREFIX'>) {
  return new Queue<SmsJob>(SMS_QUEUE, {
    connection,
    prefix: config.QUEUE_PREFIX,
    defaultJobOptions: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: true,
      removeOnFail: true,
    },
  });
}

export function smsRetryPolicy(config: NotificationsConfig): SmsRetryPolicy {
  return {
    initialDelayMs: config.SMS_RETRY_INITIAL_DELAY_MS,
    maxDelayMs: config.SMS_RETRY_MAX_DELAY_MS,
    budgetMs: config.SMS_RETRY_HOURS * 3600_000,
  };
}

export function startSmsWorker(
  connection: Redis,
  db: Db,
  provider: SmsProvider,
  config: NotificationsConfig,
  log: Logger,
  { concurrency = 4 }: { concurrency?: number } = {},
) {
  const policy = smsRetryPolicy(config);
  const worker = new Worker<SmsJob>(
    SMS_QUEUE,
    async (job: Job<SmsJob>, token?: string) => {
      const delivery = await deliverSms(db, job.data.id, provider, { policy, publicUrl: config.PUBLIC_URL, log });
      if (delivery.status === 'retry') {
        await job.moveToDelayed(delivery.at.getTime(), token);
        throw new DelayedError();
      }
    },
    { connection, prefix: config.QUEUE_PREFIX, concurrency },
  );
  worker.on('failed', (job, err) => log.warn({ sms: job?.id, err }, 'sms job failed'));
  worker.on('error', (err) => log.warn({ err }, 'sms worker error'));
  return { worker, close: () => worker.close() };
}

/**
 * Puts pending SMS in the queue (../queue/row-reconciler.ts): after a consumer's or a route's
 * commit ('new': never queued), periodically and after Redis comes back ('all'). A row waiting for
 * the morning or for its backoff is queued with that delay.
 */
export function createSmsReconciler({
  db,
  queue,
  log,
  intervalMs,
}: {
  db: Db;
  queue: Queue<SmsJob>;
  log: Logger;
  intervalMs: number;
}) {
  return createRowReconciler({
    queue,
    log,
    intervalMs,
    jobName: 'sms',
    pending: (scope, after, limit) =>
      db
        .select({ id: outgoingSms.id, dueAt: outgoingSms.notBefore })
        .from(outgoingSms)
        .where(
          and(
            eq(outgoingSms.status, 'pending'),
            gt(outgoingSms.id, after),
            scope === 'new' ? isNull(outgoingSms.enqueuedAt) : undefined,
          ),
        )
        .orderBy(asc(outgoingSms.id))
        .limit(limit),
    markQueued: async (ids) => {
      await db
        .update(outgoingSms)
        .set({ enqueuedAt: new Date() })
        .where(and(inArray(outgoingSms.id, ids), isNull(outgoingSms.enqueuedAt)));
    },
  });
}
export type SmsReconciler = ReturnType<typeof createSmsReconciler>;
