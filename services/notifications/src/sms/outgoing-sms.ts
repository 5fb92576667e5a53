import { type AlertKind, SMS_ALERTS_PER_DAY } from '@cartable/contracts';
import { type Db, eventRegistry } from '@cartable/service-kit';
import { and, eq, gt, notInArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { alertChannels, alertPhones, outgoingSms } from '../db/schema.ts';
import { maskPhone } from './phone-numbers.ts';
import { NO_ANSWER, type SmsProvider, SmsSendError } from './provider.ts';
import { forgetSecrets, renderSms, type SmsMessage } from './texts.ts';

/** SMS that are no alert: never capped, never held by quiet hours. */
export const SERVICE_SMS_KINDS = ['verification', 'stop'] as const;

/** The time alerts are decided at (the cap's 24 hours, the quiet hours); tests set it. */
export const smsClock = { now: () => new Date() };

/** Libreville is UTC+1 all year. */
const LIBREVILLE_OFFSET_HOURS = 1;

/**
 * No SMS alert leaves between these hours, Libreville time (SMS_QUIET_HOURS, « 21-7 » by
 * default); null: none (« none »: the test stacks, whose journeys run at any hour). main.ts sets it.
 */
export const smsQuietHours: { current: { from: number; to: number } | null } = { current: { from: 21, to: 7 } };

/** « 21-7 » → { from: 21, to: 7 }; « none » or equal hours → null. */
export function parseQuietHours(setting: string): { from: number; to: number } | null {
  const match = /^(\d{1,2})-(\d{1,2})$/.exec(setting.trim());
  if (!match) return null;
  const [from, to] = [Number(match[1]), Number(match[2])];
  return from === to || from > 23 || to > 23 ? null : { from, to };
}

/** The end of the quiet hours `now` falls in, or null outside them. */
export function quietHoursEnd(now: Date, hours = smsQuietHours.current): Date | null {
  if (!hours) return null;
  const local = new Date(now.getTime() + LIBREVILLE_OFFSET_HOURS * 3600_000);
  const hour = local.getUTCHours();
  const quiet = hours.from > hours.to ? hour >= hours.from || hour < hours.to : hour >= hours.from && hour < hours.to;
  if (!quiet) return null;
  const day = local.getUTCDate() + (hour >= hours.to ? 1 : 0);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), day, hours.to - LIBREVILLE_OFFSET_HOURS));
}

/** Writes a service SMS (a code, STOP's confirmation) in the caller's transaction, keyed by `id`. */
export async function recordSms(
  tx: Db,
  id: string,
  sms: { userId: string; phone: string; kind: (typeof SERVICE_SMS_KINDS)[number]; message: SmsMessage },
) {
  await tx
    .insert(outgoingSms)
    .values({
      id,
      userId: sms.userId,
      phone: sms.phone,
      kind: sms.kind,
      template: sms.message.template,
      data: sms.message.data,
    })
    .onConflictDoNothing();
}

export type AlertSmsOutcome = 'queued' | 'capped' | 'off';

const capped = new Counter({
  name: 'cartable_sms_capped_total',
  help: 'SMS alerts not sent because the member had reached SMS_ALERTS_PER_DAY',
  labelNames: ['kind'],
  registers: [eventRegistry],
});

/**
 * An alert by SMS, in the consumer's transaction, if the member chose SMS for this kind and has a
 * verified number that did not say STOP. Within SMS_ALERTS_PER_DAY in 24 hours (the member's
 * phone row is locked while counting, so two events at once never both pass the cap); past it
 * the row is written `capped` and never sent. During quiet hours it waits for the morning.
 * Keyed by `id` (the event's): a redelivered event writes nothing new.
 */
export async function recordAlertSms(
  tx: Db,
  id: string,
  alert: { userId: string; kind: AlertKind; message: SmsMessage },
  now = smsClock.now(),
): Promise<AlertSmsOutcome> {
  const [choice] = await tx
    .select({ sms: alertChannels.sms })
    .from(alertChannels)
    .where(and(eq(alertChannels.userId, alert.userId), eq(alertChannels.kind, alert.kind)));
  if (!choice?.sms) return 'off';
  const [phone] = await tx.select().from(alertPhones).where(eq(alertPhones.userId, alert.userId)).for('update');
  if (!phone || phone.stoppedAt) return 'off';
  const [sent] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(outgoingSms)
    .where(
      and(
        eq(outgoingSms.userId, alert.userId),
        notInArray(outgoingSms.kind, [...SERVICE_SMS_KINDS]),
        notInArray(outgoingSms.status, ['capped', 'cancelled']),
        gt(outgoingSms.createdAt, new Date(now.getTime() - 24 * 3600_000)),
      ),
    );
  const over = (sent?.n ?? 0) >= SMS_ALERTS_PER_DAY;
  const inserted = await tx
    .insert(outgoingSms)
    .values({
      id,
      userId: alert.userId,
      phone: phone.phone,
      kind: alert.kind,
      template: alert.message.template,
      data: alert.message.data,
      status: over ? 'capped' : 'pending',
      createdAt: now,
      notBefore: over ? null : quietHoursEnd(now),
    })
    .onConflictDoNothing()
    .returning({ id: outgoingSms.id });
  if (over && inserted.length) capped.labels(alert.kind).inc();
  return over ? 'capped' : 'queued';
}

export interface SmsRetryPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  budgetMs: number;
}

export const smsRetryDelay = (policy: SmsRetryPolicy, failures: number) =>
  Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(30, Math.max(0, failures - 1)));

const LOCKED_RETRY_MS = 1000;

const outcomes = new Counter({
  name: 'cartable_sms_total',
  help: 'SMS handed to the aggregator (sent), given up (failed), and retried sends',
  labelNames: ['kind', 'outcome'],
  registers: [eventRegistry],
});

export type SmsDelivery =
  | { status: 'sent' }
  | { status: 'skipped' }
  | { status: 'failed' }
  | { status: 'cancelled' }
  | { status: 'retry'; at: Date };

/**
 * Sends one pending SMS at most once (the row locked for the send, only a pending row sent),
 * however often its job runs; as deliverMail for e-mails. An alert whose number was removed,
 * changed or stopped since is cancelled. A passing failure (5xx, 429, timeout) is retried with
 * backoff kept on the row; a permanent one, or the budget spent, marks it failed.
 */
export async function deliverSms(
  db: Db,
  id: string,
  provider: SmsProvider,
  { policy, publicUrl, log }: { policy: SmsRetryPolicy; publicUrl: string; log: Logger },
): Promise<SmsDelivery> {
  return db.transaction(async (tx): Promise<SmsDelivery> => {
    const [row] = await tx.select().from(outgoingSms).where(eq(outgoingSms.id, id)).for('update', { skipLocked: true });
    if (!row) {
      const [state] = await tx.select({ status: outgoingSms.status }).from(outgoingSms).where(eq(outgoingSms.id, id));
      return state?.status === 'pending'
        ? { status: 'retry', at: new Date(Date.now() + LOCKED_RETRY_MS) }
        : { status: 'skipped' };
    }
    if (row.status !== 'pending') return { status: 'skipped' };
    if (row.notBefore && row.notBefore.getTime() > Date.now()) return { status: 'retry', at: row.notBefore };
    const message = { template: row.template, data: row.data } as SmsMessage;
    const context = { sms: id, kind: row.kind, to: maskPhone(row.phone), attempts: row.attempts + 1 };
    if (row.kind !== 'verification') {
      const [phone] = await tx.select().from(alertPhones).where(eq(alertPhones.userId, row.userId));
      const stopAnswer = row.kind === 'stop';
      if (!phone || phone.phone !== row.phone || (phone.stoppedAt && !stopAnswer)) {
        await tx
          .update(outgoingSms)
          .set({ status: 'cancelled', doneAt: new Date(), data: forgetSecrets(message) })
          .where(eq(outgoingSms.id, id));
        log.info(context, 'sms cancelled: the number was removed or stopped');
        return { status: 'cancelled' };
      }
    }
    const attempts = row.attempts + 1;
    try {
      // The last send got no answer: if the aggregator took it all the same, it is not sent twice.
      const taken = row.lastError?.startsWith(NO_ANSWER) ? await provider.accepted(id) : null;
      const { providerId } = taken ?? (await provider.send({ id, to: row.phone, text: renderSms(message, publicUrl) }));
      await tx
        .update(outgoingSms)
        .set({
          status: 'sent',
          attempts,
          providerId,
          sentAt: new Date(),
          lastError: null,
          notBefore: null,
          data: forgetSecrets(message),
        })
        .where(eq(outgoingSms.id, id));
      outcomes.labels(row.kind, 'sent').inc();
      log.info(context, taken ? 'sms found at the aggregator: not sent again' : 'sms sent');
      return { status: 'sent' };
    } catch (err) {
      const lastError = (err as Error).message;
      const permanent = err instanceof SmsSendError && err.permanent;
      if (permanent || smsClock.now().getTime() - row.createdAt.getTime() >= policy.budgetMs) {
        await tx
          .update(outgoingSms)
          .set({ status: 'failed', attempts, lastError, doneAt: new Date(), data: forgetSecrets(message) })
          .where(eq(outgoingSms.id, id));
        outcomes.labels(row.kind, 'failed').inc();
        log.error({ ...context, error: lastError }, 'sms abandoned');
        return { status: 'failed' };
      }
      const at = new Date(Date.now() + smsRetryDelay(policy, attempts));
      await tx.update(outgoingSms).set({ attempts, lastError, notBefore: at }).where(eq(outgoingSms.id, id));
      outcomes.labels(row.kind, 'retried').inc();
      log.warn({ ...context, error: lastError, retryAt: at }, 'sms failed; will retry');
      return { status: 'retry', at };
    }
  });
}

/**
 * A delivery report: a sent SMS becomes delivered or failed, once (a final status never changes,
 * a repeated report changes nothing). Answers how many rows it moved.
 */
export async function applyDeliveryReport(
  db: Db,
  report: { id: string; status: 'delivered' | 'failed'; error: string | null },
): Promise<number> {
  const rows = await db
    .update(outgoingSms)
    .set({ status: report.status, doneAt: new Date(), ...(report.error ? { lastError: report.error } : {}) })
    .where(and(eq(outgoingSms.id, report.id), sql`${outgoingSms.status} in ('pending', 'sent')`))
    .returning({ id: outgoingSms.id });
  return rows.length;
}

/** Housekeeping: SMS no longer pending go after `days` (a redelivered event is known by processed_events). */
export function deleteFinishedSms(days: number) {
  return async (db: Db): Promise<number> => {
    const deleted = await db
      .delete(outgoingSms)
      .where(
        sql`${outgoingSms.status} <> 'pending' and ${outgoingSms.createdAt} < now() - make_interval(days => ${days})`,
      )
      .returning({ id: outgoingSms.id });
    return deleted.length;
  };
}
