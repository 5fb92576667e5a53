import type { Db } from '@cartable/service-kit';
import type { Queue } from 'bullmq';
import { and, asc, eq, gt, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Logger } from 'pino';
import { outgoingMails } from '../db/schema.ts';
import type { MailJob } from './mail-queue.ts';
import { createRowReconciler } from './row-reconciler.ts';

/**
 * Puts pending mails in the queue (./row-reconciler.ts), and tries every one now when the SMTP
 * server comes back.
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
  const rows = createRowReconciler({
    queue,
    log,
    intervalMs,
    jobName: 'mail',
    pending: (scope, after, limit) =>
      db
        .select({ id: outgoingMails.id, dueAt: outgoingMails.nextAttemptAt })
        .from(outgoingMails)
        .where(
          and(
            eq(outgoingMails.status, 'pending'),
            gt(outgoingMails.id, after),
            scope === 'new' ? isNull(outgoingMails.enqueuedAt) : undefined,
          ),
        )
        .orderBy(asc(outgoingMails.id))
        .limit(limit),
    markQueued: async (ids) => {
      await db
        .update(outgoingMails)
        .set({ enqueuedAt: new Date() })
        .where(and(inArray(outgoingMails.id, ids), isNull(outgoingMails.enqueuedAt)));
    },
  });

  return {
    ...rows,
    /** The SMTP server is back: every pending mail is tried now rather than after its backoff. */
    async retryNow() {
      await db
        .update(outgoingMails)
        .set({ nextAttemptAt: null })
        .where(and(eq(outgoingMails.status, 'pending'), isNotNull(outgoingMails.nextAttemptAt)));
      await queue.promoteJobs();
      await rows.reconcile('all');
    },
  };
}
export type MailReconciler = ReturnType<typeof createMailReconciler>;
