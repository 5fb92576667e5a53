import { type PaymentInstructions, type PaymentStatus, subscriptionMessages } from '@cartable/contracts';
import {
  conflict,
  type Db,
  isUniqueViolation,
  notFound,
  type Transaction,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import { paymentChanged } from '../events.ts';
import { newPaymentReference, type PaymentProvider, type WebhookNotice } from '../providers/provider.ts';
import { applyPaidPayment, endSubscription } from './lifecycle.ts';

const s = subscriptionMessages;
type PaymentRow = queries.PaymentRow;

/** What the provider said or did about a payment, stored once (a repeated event id is null). */
export function paymentEvent(
  db: Db,
  payment: Pick<PaymentRow, 'id' | 'provider'>,
  type: string,
  status: PaymentStatus | null,
  detail: Record<string, unknown> = {},
  eventId: string | null = null,
) {
  return queries.insertPaymentEvent(db, {
    paymentId: payment.id,
    provider: payment.provider,
    eventId,
    type,
    status,
    detail,
  });
}

/** A payment, else 404; `userId` limits it to its member. Locked by default. */
export async function paymentOf(db: Db, id: string, userId: string | null = null, lock = true) {
  const row = await queries.paymentById(db, id, userId, lock);
  if (!row) throw notFound(s.paymentNotFound);
  return row;
}

/** A new payment of a subscription, written in the caller's transaction (initiated after commit). */
export async function createPayment(
  t: Transaction,
  sub: queries.SubscriptionRow,
  choice: { provider: string; operator: PaymentRow['operator']; payer_phone?: string | undefined },
  purpose: 'subscription' | 'renewal',
  currency: string,
  pendingHours: number,
) {
  if (await queries.openPaymentOf(t.db, sub.id)) throw conflict(s.pendingPaymentExists);
  const row = await queries.insertPayment(t.db, {
    subscriptionId: sub.id,
    userId: sub.userId,
    purpose,
    provider: choice.provider,
    operator: choice.operator,
    payerPhone: choice.payer_phone ?? null,
    amount: sub.planPrice,
    currency,
    reference: newPaymentReference(),
    expiresAt: new Date(Date.now() + pendingHours * 3600_000),
  });
  await queries.audit(t.db, sub.id, 'payment_created', sub.userId, { reference: row.reference, purpose }, row.id);
  return row;
}

/**
 * Marks a payment paid, if it is still waiting (or expired: the money arrived late but arrived),
 * and applies it to its subscription, in the caller's transaction. Null when it was settled already.
 */
export async function markPaid(
  t: Transaction,
  paymentId: string,
  actorId: string | null,
  detail: Record<string, unknown> = {},
  providerReference?: string,
) {
  const row = await queries.updatePayment(
    t.db,
    paymentId,
    { status: 'paid', paidAt: new Date(), failureReason: null, ...(providerReference ? { providerReference } : {}) },
    ['pending', 'submitted', 'expired'],
  );
  if (!row) return null;
  await paymentEvent(t.db, row, actorId ? 'validated' : 'paid', 'paid', { ...detail, actor_id: actorId });
  await paymentChanged(t, 'catalog.payment.paid', row, { actorId, detail });
  const sub = await applyPaidPayment(t, row, actorId);
  return { payment: row, subscription: sub };
}

export async function markFailed(
  t: Transaction,
  paymentId: string,
  reason: string,
  actorId: string | null,
  type: string,
) {
  const row = await queries.updatePayment(t.db, paymentId, { status: 'failed', failureReason: reason }, [
    'pending',
    'submitted',
  ]);
  if (!row) return null;
  await paymentEvent(t.db, row, type, 'failed', { reason, actor_id: actorId });
  await paymentChanged(t, 'catalog.payment.failed', row, { actorId, reason });
  return row;
}

/**
 * Asks the provider, after the payment row is committed: the instructions, and the aggregator's
 * id. A provider that refuses or is unreachable fails the payment (the member may try again).
 */
export async function initiatePayment(
  uow: UnitOfWork,
  provider: PaymentProvider,
  payment: PaymentRow,
  description: string,
): Promise<{ payment: PaymentRow; instructions: PaymentInstructions }> {
  try {
    const initiated = await provider.initiate({
      id: payment.id,
      reference: payment.reference,
      amount: payment.amount,
      currency: payment.currency,
      operator: payment.operator,
      payerPhone: payment.payerPhone,
      description,
    });
    const row = await uow.run(async (t) => {
      const row = await queries.updatePayment(t.db, payment.id, { providerReference: initiated.providerReference });
      await paymentEvent(t.db, payment, 'initiated', 'pending', {
        provider_reference: initiated.providerReference,
        instructions: initiated.instructions,
      });
      return row!;
    });
    return { payment: row, instructions: initiated.instructions };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await uow.run(async (t) => {
      const row = await queries.updatePayment(t.db, payment.id, { status: 'failed', failureReason: reason }, [
        'pending',
      ]);
      if (row) {
        await paymentEvent(t.db, row, 'initiate_failed', 'failed', { reason });
        await paymentChanged(t, 'catalog.payment.failed', row, { reason });
      }
    });
    throw err;
  }
}

/** Pending payments past their time: expired (a declared one waits for its operator instead). */
export function expireDuePayments(uow: UnitOfWork, now = new Date()) {
  return uow.run(async (t) => {
    const rows = await queries.expireDuePayments(t.db, now);
    for (const row of rows) {
      await paymentEvent(t.db, row, 'expired', 'expired');
      await paymentChanged(t, 'catalog.payment.expired', row);
    }
    return rows;
  });
}

/** The member says they paid a manual payment: submitted, for an operator to check. */
export async function declarePayment(
  uow: UnitOfWork,
  id: string,
  userId: string,
  body: { operator: PaymentRow['operator']; transaction_reference: string; payer_phone: string },
  isManual: (provider: string) => boolean,
) {
  try {
    return await uow.run(async (t) => {
      const payment = await paymentOf(t.db, id, userId);
      if (!isManual(payment.provider)) throw conflict(s.notManual);
      if (payment.status !== 'pending') throw conflict(s.notPending);
      const row = await queries.updatePayment(t.db, payment.id, {
        status: 'submitted',
        operator: body.operator,
        providerReference: body.transaction_reference,
        payerPhone: body.payer_phone,
      });
      await paymentEvent(t.db, row!, 'submitted', 'submitted', {
        operator: body.operator,
        transaction_reference: body.transaction_reference,
        payer_phone: body.payer_phone,
      });
      await paymentChanged(t, 'catalog.payment.submitted', row!, { actorId: userId });
      return row!;
    });
  } catch (err) {
    // The same SMS reference pays once (unique per provider).
    if (isUniqueViolation(err)) throw conflict(s.referenceUsed, { transaction_reference: [s.referenceUsed] });
    throw err;
  }
}

/** An operator checked a declared payment: paid, and its subscription follows. */
export function validatePayment(uow: UnitOfWork, id: string, actorId: string) {
  return uow.run(async (t) => {
    const payment = await paymentOf(t.db, id);
    if (payment.status === 'paid') throw conflict(s.alreadyPaid);
    if (payment.status !== 'submitted') throw conflict(s.notSubmitted);
    return (await markPaid(t, payment.id, actorId))!;
  });
}

export function rejectPayment(uow: UnitOfWork, id: string, reason: string, actorId: string) {
  return uow.run(async (t) => {
    const payment = await paymentOf(t.db, id);
    if (payment.status === 'paid') throw conflict(s.alreadyPaid);
    if (payment.status !== 'submitted') throw conflict(s.notSubmitted);
    return (await markFailed(t, payment.id, reason, actorId, 'rejected'))!;
  });
}

/** Once per payment, up to what was paid; the subscription ends as refunded. */
export async function refundPayment(
  uow: UnitOfWork,
  id: string,
  amount: number | undefined,
  reason: string,
  actorId: string,
) {
  try {
    return await uow.run(async (t) => {
      const payment = await paymentOf(t.db, id);
      const [existing] = await queries.refundsOf(t.db, [payment.id]);
      if (existing || payment.refundedAmount > 0) throw conflict(s.alreadyRefunded);
      if (payment.status !== 'paid') throw conflict(s.notPaid);
      const value = amount ?? payment.amount;
      if (value > payment.amount) {
        const message = s.refundTooMuch.replace('{amount}', String(payment.amount));
        throw unprocessable({ amount: [message] }, message);
      }
      const refund = await queries.insertRefund(t.db, {
        paymentId: payment.id,
        amount: value,
        reason,
        createdBy: actorId,
      });
      const row = await queries.updatePayment(t.db, payment.id, { refundedAmount: value });
      await paymentEvent(t.db, row!, 'refunded', 'paid', { amount: value, reason, actor_id: actorId });
      await paymentChanged(t, 'catalog.payment.refunded', row!, { actorId, reason, refundAmount: value });
      const sub = await queries.subscriptionById(t.db, payment.subscriptionId, null, true);
      // Already cancelled: the refund is recorded, the subscription stays as it ended.
      if (sub && sub.status !== 'cancelled' && sub.status !== 'refunded')
        await endSubscription(t, sub, 'refunded', reason, actorId);
      return { payment: row!, refund };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(s.alreadyRefunded);
    throw err;
  }
}

export type WebhookOutcome = {
  status: 200 | 422;
  message: string;
  changed: boolean;
  subscription?: queries.SubscriptionRow | null;
};

/**
 * A checked notification (provider.parseWebhook) applied once: unknown reference 404; a repeated
 * event id or a settled payment 200 and nothing changes; an amount, currency or provider
 * reference that differs 422, kept in the payment's events.
 */
export function applyWebhook(uow: UnitOfWork, provider: string, notice: WebhookNotice): Promise<WebhookOutcome> {
  return uow.run(async (t) => {
    const payment = await queries.paymentByReference(t.db, provider, notice.reference);
    if (!payment) throw notFound(s.webhookUnknown);
    const mismatch =
      notice.amount !== payment.amount ||
      notice.currency !== payment.currency ||
      (payment.providerReference !== null && payment.providerReference !== notice.provider_reference);
    const recorded = await paymentEvent(
      t.db,
      payment,
      mismatch ? 'webhook_mismatch' : 'webhook',
      mismatch ? null : notice.status,
      { ...notice },
      notice.event_id,
    );
    if (!recorded) {
      // A delivery seen before: the same answer, no second effect.
      return (await queries.paymentEventType(t.db, provider, notice.event_id)) === 'webhook_mismatch'
        ? { status: 422, message: s.webhookMismatch, changed: false }
        : { status: 200, message: 'Notification déjà traitée.', changed: false };
    }
    if (mismatch) return { status: 422, message: s.webhookMismatch, changed: false };
    if (notice.status === 'paid') {
      const done = await markPaid(t, payment.id, null, { event_id: notice.event_id }, notice.provider_reference);
      if (done) return { status: 200, message: 'Paiement confirmé.', changed: true, subscription: done.subscription };
    } else {
      const failed = await markFailed(
        t,
        payment.id,
        notice.failure_reason ?? 'Paiement refusé par l’opérateur',
        null,
        'failed',
      );
      if (failed) return { status: 200, message: 'Échec enregistré.', changed: true };
    }
    await queries.setPaymentEventType(t.db, provider, notice.event_id, 'duplicate_ignored');
    return { status: 200, message: 'Paiement déjà réglé.', changed: false };
  });
}
