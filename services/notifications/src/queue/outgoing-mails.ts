import { type Db, eventRegistry } from '@cartable/service-kit';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { outgoingMails } from '../db/schema.ts';
import type { Mail } from './mail-queue.ts';

/**
 * Writes a mail to send, in the caller's transaction (the event consumer's), keyed by its
 * idempotency key: a redelivered event writes nothing new. Nothing goes to Redis here; the
 * reconciler enqueues the row once the transaction has committed.
 */
export async function recordMail(tx: Db, id: string, mail: Mail): Promise<void> {
  await tx
    .insert(outgoingMails)
    .values({ id, template: mail.template, recipient: mail.to, data: mail.data })
    .onConflictDoNothing();
}

export interface MailRetryPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** How long after a mail was written it is still worth trying. */
  budgetMs: number;
}

/** Delay after the n-th failure: initial × 2^(n-1), capped. */
export function mailRetryDelay(policy: MailRetryPolicy, failures: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(30, Math.max(0, failures - 1)));
}

/** The recipient's server refused the address (5xx on RCPT TO): no retry will change that. */
export function isPermanentRefusal(err: unknown): boolean {
  const { responseCode, command } = err as { responseCode?: number; command?: string };
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && command === 'RCPT TO';
}

// In the service kit's registry of non-HTTP counters, which /metrics exposes.
const abandoned = new Counter({
  name: 'cartable_mails_abandoned_total',
  help: 'E-mails given up: refused by the recipient server (permanent) or still failing after MAIL_RETRY_HOURS (expired)',
  labelNames: ['template', 'reason'],
  registers: [eventRegistry],
});

/** A mail locked by someone else is looked at again this soon. */
const LOCKED_RETRY_MS = 1000;

export type Delivery =
  | { status: 'sent' }
  /** Already sent or abandoned. */
  | { status: 'skipped' }
  | { status: 'abandoned' }
  | { status: 'retry'; at: Date };

/**
 * Sends one pending mail at most once, whoever asks and however often: the row is locked for
 * the send and only a pending row is sent; a worker that finds it locked (`skip locked`) comes
 * back a second later instead of waiting on the lock or dropping the job. A failure is recorded on the row with the time of the next attempt, so
 * the backoff survives Redis; past the retry budget, or on a permanent refusal, the mail is
 * abandoned with its last error.
 */
export async function deliverMail(
  db: Db,
  id: string,
  send: (mail: Mail) => Promise<void>,
  policy: MailRetryPolicy,
  log: Logger,
): Promise<Delivery> {
  return db.transaction(async (tx): Promise<Delivery> => {
    const [row] = await tx
      .select()
      .from(outgoingMails)
      .where(eq(outgoingMails.id, id))
      .for('update', { skipLocked: true });
    if (!row) {
      // Locked: another worker is sending it (it may still fail) or a reconciler is marking it.
      const [state] = await tx
        .select({ status: outgoingMails.status })
        .from(outgoingMails)
        .where(eq(outgoingMails.id, id));
      return state?.status === 'pending'
        ? { status: 'retry', at: new Date(Date.now() + LOCKED_RETRY_MS) }
        : { status: 'skipped' };
    }
    if (row.status !== 'pending') return { status: 'skipped' };
    if (row.nextAttemptAt && row.nextAttemptAt.getTime() > Date.now())
      return { status: 'retry', at: row.nextAttemptAt };
    const attempts = row.attempts + 1;
    const context = { mail: id, template: row.template, attempts };
    try {
      await send({ template: row.template, to: row.recipient, data: row.data } as Mail);
    } catch (err) {
      // The error says what the server answered; it never holds the mail's body.
      const lastError = (err as Error).message ?? String(err);
      const permanent = isPermanentRefusal(err);
      if (permanent || Date.now() - row.createdAt.getTime() >= policy.budgetMs) {
        const reason = permanent ? 'permanent' : 'expired';
        await tx
          .update(outgoingMails)
          .set({ status: 'abandoned', attempts, lastError })
          .where(eq(outgoingMails.id, id));
        abandoned.labels(row.template, reason).inc();
        log.error({ ...context, reason, error: lastError }, 'mail abandoned');
        return { status: 'abandoned' };
      }
      const at = new Date(Date.now() + mailRetryDelay(policy, attempts));
      await tx.update(outgoingMails).set({ attempts, lastError, nextAttemptAt: at }).where(eq(outgoingMails.id, id));
      log.warn({ ...context, error: lastError, retryAt: at }, 'mail failed; will retry');
      return { status: 'retry', at };
    }
    await tx
      .update(outgoingMails)
      .set({ status: 'sent', attempts, sentAt: new Date(), lastError: null, nextAttemptAt: null })
      .where(eq(outgoingMails.id, id));
    log.info(context, 'mail sent');
    return { status: 'sent' };
  });
}

/**
 * Housekeeping: sent and abandoned mails go after `days` (their tokens expired long before; a
 * redelivered event is still recognised by processed_events, kept longer than any stream).
 */
export function deleteFinishedMails(days: number) {
  return async (db: Db): Promise<number> => {
    const deleted = await db
      .delete(outgoingMails)
      .where(
        sql`${outgoingMails.status} <> 'pending' and coalesce(${outgoingMails.sentAt}, ${outgoingMails.createdAt}) < now() - make_interval(days => ${days})`,
      )
      .returning({ id: outgoingMails.id });
    return deleted.length;
  };
}
