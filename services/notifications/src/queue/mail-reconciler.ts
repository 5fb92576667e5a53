import type { Db } from '@cartable/service-kit';
import type { Queue } from 'bullmq';
import { and, asc, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import { outgoingMails } from '../db/schema.ts';
import type { MailJob } from './mail-queue.ts';

/** 'new': rows never queued (after a consumer commit); 'all': every pending row (Redis may have lost them). */
export type ReconcileScope = 'new' | 'all';

const BATCH = 500;

/**
 * Puts pending mails in the queue: the row is the truth, Redis only carries the work. The job
 * id is the mail id, so BullMQ ignores a mail already queued, delayed or being sent; replicas
 * can reconcile side by side, and a mail queued twice is still sent once (deliverMail).
 * Requests made while a pass runs are merged into one more pass.
 */
export function createMailReconciler({
  db,
  queue,
  log,
  intervalMs,
}: {
  db: Db;
  queue: Queue<MailJob>;
  log: Logger;
  intervalMs: number;
}) {
  let requested: ReconcileScope | undefined;
  let draining: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function pass(scope: ReconcileScope) {
    let after = '';
    let queued = 0;
    for (;;) {
      const rows = await db
        .select({ id: outgoingMails.id, nextAttemptAt: outgoingMails.nextAttemptAt })
        .from(outgoingMails)
        .where(
          and(
            eq(outgoingMails.status, 'pending'),
            gt(outgoingMails.id, after),
            scope === 'new' ? isNull(outgoingMails.enqueuedAt) : undefined,
          ),
        )
        .orderBy(asc(outgoingMails.id))
        .limit(BATCH);
      if (!rows.length) break;
      const ids = rows.map((r) => r.id);
      // Marked before it is queued, so a worker never finds the row locked by this update.
      await db
        .update(outgoingMails)
        .set({ enqueuedAt: new Date() })
        .where(and(inArray(outgoingMails.id, ids), isNull(outgoingMails.enqueuedAt)));
      const now = Date.now();
      await queue.addBulk(
        rows.map(({ id, nextAttemptAt }) => ({
          name: 'mail',
          data: { id },
          // A mail waiting out its backoff keeps waiting, even when Redis forgot the delay.
          opts: { jobId: id, delay: Math.max(0, (nextAttemptAt?.getTime() ?? 0) - now) },
        })),
      );
      queued += rows.length;
      if (rows.length < BATCH) break;
      after = ids.at(-1) ?? after;
    }
    if (queued) log.debug({ scope, queued }, 'pending mails queued');
  }

  async function drain() {
    try {
      while (requested) {
        const scope = requested;
        requested = undefined;
        try {
          await pass(scope);
        } catch (err) {
          // Database or Redis away: the next trigger (reconnection, timer) tries again.
          log.warn({ err, scope }, 'mail reconciliation failed');
        }
      }
    } finally {
      // In the same tick as the last check of `requested`: no request can slip in between.
      draining = undefined;
    }
  }

  /** Queues the pending mails of this scope; resolves once a pass covering the request has run. */
  function reconcile(scope: ReconcileScope): Promise<void> {
    if (stopped) return Promise.resolve();
    requested = requested === 'all' || scope === 'all' ? 'all' : 'new';
    draining ??= drain();
    return draining;
  }

  return {
    reconcile,
    /** The SMTP server is back: every pending mail is tried now rather than after its backoff. */
    async retryNow() {
      await db
        .update(outgoingMails)
        .set({ nextAttemptAt: null })
        .where(and(eq(outgoingMails.status, 'pending'), isNotNull(outgoingMails.nextAttemptAt)));
      await queue.promoteJobs();
      await reconcile('all');
    },
    /** A pass now, then every `intervalMs`. */
    start() {
      void reconcile('all');
      timer = setInterval(() => void reconcile('all'), intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A pass blocked on an unreachable Redis must not hold the shutdown.
      await Promise.race([draining, new Promise((r) => setTimeout(r, 2000).unref())]);
    },
  };
}
export type MailReconciler = ReturnType<typeof createMailReconciler>;
