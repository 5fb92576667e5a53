import type { Queue } from 'bullmq';
import type { Logger } from 'pino';

/** 'new': rows never queued (after a consumer commit); 'all': every pending row (Redis may have lost them). */
export type ReconcileScope = 'new' | 'all';

/** A pending row as the reconciler queues it: its id, and when it may be tried (a backoff, the morning). */
export interface PendingRow {
  id: string;
  dueAt: Date | null;
}

const BATCH = 500;

/**
 * Puts a table's pending rows in their queue (outgoing mails, outgoing SMS): the row is the truth,
 * Redis only carries the work. The job id is the row's id, so BullMQ ignores a row already queued,
 * delayed or being sent; replicas can reconcile side by side, and a row queued twice is still sent
 * once (its worker reads the row). Requests made while a pass runs are merged into one more pass.
 */
export function createRowReconciler({
  queue,
  log,
  intervalMs,
  jobName,
  pending,
  markQueued,
}: {
  queue: Queue<{ id: string }>;
  log: Logger;
  intervalMs: number;
  /** The jobs' name, and the rows' in the logs ('mail', 'sms'). */
  jobName: string;
  /** The next pending rows after `after` in id order (only those never queued for 'new'). */
  pending: (scope: ReconcileScope, after: string, limit: number) => Promise<PendingRow[]>;
  /** Marks rows as queued (those not marked yet). */
  markQueued: (ids: string[]) => Promise<void>;
}) {
  let requested: ReconcileScope | undefined;
  let draining: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function pass(scope: ReconcileScope) {
    let after = '';
    let queued = 0;
    for (;;) {
      const rows = await pending(scope, after, BATCH);
      if (!rows.length) break;
      const ids = rows.map((r) => r.id);
      // Marked before it is queued, so a worker never finds the row locked by this update.
      await markQueued(ids);
      const now = Date.now();
      await queue.addBulk(
        rows.map(({ id, dueAt }) => ({
          name: jobName,
          data: { id },
          // A row waiting out its delay keeps waiting, even when Redis forgot it.
          opts: { jobId: id, delay: Math.max(0, (dueAt?.getTime() ?? 0) - now) },
        })),
      );
      queued += rows.length;
      if (rows.length < BATCH) break;
      after = ids.at(-1) ?? after;
    }
    if (queued) log.debug({ scope, queued, rows: jobName }, 'pending rows queued');
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
          log.warn({ err, scope, rows: jobName }, 'reconciliation failed');
        }
      }
    } finally {
      // In the same tick as the last check of `requested`: no request can slip in between.
      draining = undefined;
    }
  }

  /** Queues the pending rows of this scope; resolves once a pass covering the request has run. */
  function reconcile(scope: ReconcileScope): Promise<void> {
    if (stopped) return Promise.resolve();
    requested = requested === 'all' || scope === 'all' ? 'all' : 'new';
    draining ??= drain();
    return draining;
  }

  return {
    reconcile,
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
