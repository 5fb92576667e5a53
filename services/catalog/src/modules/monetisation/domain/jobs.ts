import { SUBSCRIPTION_REMINDER_DAYS } from '@cartable/contracts';
import { startPeriodic, type UnitOfWork } from '@cartable/service-kit';
import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SubscriptionRow } from '../db/queries.ts';
import { DAY_MS, expireDueSubscriptions, sendDueReminders } from './lifecycle.ts';
import { expireDuePayments } from './payments.ts';
import type { PaymentReconciliation } from './reconciliation.ts';

export const SUBSCRIPTION_QUEUE = 'subscriptions';

/**
 * Expires overdue subscriptions (and their boosts), sends the reminders due (missed ones
 * included) and expires pending payments past their time. Every step checks the state in its
 * UPDATE, so the delayed jobs, the periodic sweep and several replicas may all run it; each
 * records its events, which the caches showing boosts hear of.
 */
export async function runSubscriptionSweep(uow: UnitOfWork, now = new Date()) {
  const expired = await expireDueSubscriptions(uow, now);
  const reminded = await sendDueReminders(uow, now);
  const payments = await expireDuePayments(uow, now);
  return { expired: expired.length, reminded: reminded.length, payments: payments.length };
}

export interface SubscriptionJobs {
  /** Delayed jobs at the end and REMINDER_DAYS before it; harmless if the end moves (the sweep re-checks). */
  schedule(sub: Pick<SubscriptionRow, 'id' | 'endsAt' | 'status'>): Promise<void>;
  close(): Promise<void>;
}

/** No Redis (tests, a single process): the periodic sweep alone does the work. */
export const noSubscriptionJobs: SubscriptionJobs = { schedule: async () => {}, close: async () => {} };

/**
 * BullMQ delayed jobs for the exact moments; a job runs the (idempotent) sweep. Redis is only a
 * clock here: a Redis restarted empty loses the jobs and the periodic sweep catches up.
 */
export function createSubscriptionJobs(
  queueRedis: Redis,
  workerRedis: Redis,
  uow: UnitOfWork,
  log: Pick<Logger, 'warn'>,
  prefix: string,
): SubscriptionJobs {
  const options = { prefix: `${prefix}bull` };
  const queue = new Queue(SUBSCRIPTION_QUEUE, { connection: queueRedis, ...options });
  const worker = new Worker(SUBSCRIPTION_QUEUE, async (_job: Job) => runSubscriptionSweep(uow), {
    connection: workerRedis,
    concurrency: 1,
    ...options,
  });
  worker.on('failed', (job, err) => log.warn({ err, job: job?.id }, 'subscription job failed'));
  return {
    async schedule(sub) {
      if (sub.status !== 'active' || !sub.endsAt) return;
      const end = sub.endsAt.getTime();
      const moments = [
        ['expire', end],
        ['remind', end - SUBSCRIPTION_REMINDER_DAYS * DAY_MS],
      ] as const;
      for (const [kind, at] of moments) {
        const delay = Math.max(0, at - Date.now());
        // One job per subscription, kind and moment: scheduling twice adds nothing.
        await queue
          .add(
            kind,
            { subscriptionId: sub.id },
            {
              jobId: `${kind}-${sub.id}-${at}`,
              delay,
              removeOnComplete: 1000,
              removeOnFail: 1000,
              attempts: 5,
              backoff: { type: 'exponential', delay: 5000 },
            },
          )
          .catch((err) =>
            log.warn({ err, subscription: sub.id }, 'subscription job not scheduled (the sweep will catch it)'),
          );
      }
    },
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}

/** The periodic sweep: what a lost Redis forgot. Returns its stop function. */
export const startSubscriptionSweep = (uow: UnitOfWork, log: Pick<Logger, 'info' | 'warn'>, intervalMs: number) =>
  startPeriodic(() => runSubscriptionSweep(uow), {
    intervalMs,
    log,
    failure: 'subscription sweep failed',
    report: (r) => {
      if (r.expired || r.reminded || r.payments) log.info(r, 'subscription sweep');
    },
  });

/**
 * The payments' reconciliation, every `intervalMs` on every replica: each round claims the
 * payments due with SKIP LOCKED, so two replicas never ask about the same payment at once, and
 * the next read's time lives in the row, so a restart loses nothing. Returns its stop function.
 */
export const startPaymentReconciliation = (
  reconciliation: Pick<PaymentReconciliation, 'sweep'>,
  log: Pick<Logger, 'info' | 'warn'>,
  intervalMs: number,
) =>
  startPeriodic(() => reconciliation.sweep(), {
    intervalMs,
    log,
    failure: 'payment reconciliation failed',
    report: (r) => {
      if (r.asked || r.givenUp) log.info(r, 'payment reconciliation');
    },
  });
