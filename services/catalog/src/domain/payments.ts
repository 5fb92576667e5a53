import { type PaymentInstructions, type PaymentStatus, subscriptionMessages } from '@cartable/contracts';
import { type Db, HttpError, isUniqueViolation, recordEvent } from '@cartable/service-kit';
import { and, eq, inArray, lte } from 'drizzle-orm';
import { paymentEvents, payments, refunds, subscriptions } from '../db/schema.ts';
import { newPaymentReference, type PaymentProvider, type WebhookNotice } from '../payments/provider.ts';
import { applyPaidPayment, audit, endSubscription, type PaymentRow, type SubscriptionRow } from './subscriptions.ts';

const s = subscriptionMessages;

type PaymentEventType =
  | 'catalog.payment.submitted'
  | 'catalog.payment.paid'
  | 'catalog.payment.failed'
  | 'catalog.payment.expired'
  | 'catalog.payment.refunded';

/** The payment's event (catalog.payment.*), its provider event row and the subscription's audit. */
export async function paymentChanged(
  tx: Db,
  type: PaymentEventType,
  payment: PaymentRow,
  options: {
    actorId?: string | null;
    reason?: string | null;
    refundAmount?: number | null;
    detail?: Record<string, unknown>;
  } = {},
) {
  const [sub] = await tx
    .select({ planName: subscriptions.planName })
    .from(subscriptions)
    .where(eq(subscriptions.id, payment.subscriptionId));
  await recordEvent(tx, type, {
    payment_id: payment.id,
    subscription_id: payment.subscriptionId,
    user_id: payment.userId,
    plan_name: sub?.planName ?? '',
    provider: payment.provider,
    operator: payment.operator,
    amount: payment.amount,
    reference: payment.reference,
    status: payment.status,
    refund_amount: options.refundAmount ?? null,
    reason: options.reason ?? null,
    at: new Date().toISOString(),
  });
  const action = `payment_${type.replace('catalog.payment.', '')}`;
  await audit(
    tx,
    payment.subscriptionId,
    action,
    options.actorId ?? null,
    {
      reference: payment.reference,
      amount: payment.amount,
      ...(options.reason ? { reason: options.reason } : {}),
      ...(options.refundAmount ? { refund_amount: options.refundAmount } : {}),
      ...options.detail,
    },
    payment.id,
  );
}

export async function paymentEvent(
  tx: Db,
  payment: Pick<PaymentRow, 'id' | 'provider'>,
  type: string,
  status: PaymentStatus | null,
  detail: Record<string, unknown> = {},
  eventId: string | null = null,
) {
  const [row] = await tx
    .insert(paymentEvents)
    .values({ paymentId: payment.id, provider: payment.provider, eventId, type, status, detail })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** A new payment of a subscription, written in the caller's transaction (initiated after commit). */
export async function createPayment(
  tx: Db,
  sub: SubscriptionRow,
  choice: { provider: string; operator: PaymentRow['operator']; payer_phone?: string | undefined },
  purpose: 'subscription' | 'renewal',
  currency: string,
  pendingHours: number,
) {
  const [open] = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.subscriptionId, sub.id), inArray(payments.status, ['pending', 'submitted'])));
  if (open) throw new HttpError(409, s.pendingPaymentExists);
  const [row] = await tx
    .insert(payments)
    .values({
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
    })
    .returning();
  await audit(tx, sub.id, 'payment_created', sub.userId, { reference: row!.reference, purpose }, row!.id);
  return row!;
}

/**
 * Asks the provider, after the payment row is committed: the instructions, and the aggregator's
 * id. A provider that refuses or is unreachable fails the payment (the member may try again).
 */
export async function initiatePayment(
  db: Db,
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
    const row = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(payments)
        .set({ providerReference: initiated.providerReference, updatedAt: new Date() })
        .where(eq(payments.id, payment.id))
        .returning();
      await paymentEvent(tx, payment, 'initiated', 'pending', {
        provider_reference: initiated.providerReference,
        instructions: initiated.instructions,
      });
      return row!;
    });
    return { payment: row, instructions: initiated.instructions };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(payments)
        .set({ status: 'failed', failureReason: reason, updatedAt: new Date() })
        .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
        .returning();
      if (row) {
        await paymentEvent(tx, row, 'initiate_failed', 'failed', { reason });
        await paymentChanged(tx, 'catalog.payment.failed', row, { reason });
      }
    });
    throw err;
  }
}

/**
 * Marks a payment paid, if it is still waiting (or expired: the money arrived late but arrived),
 * and applies it to its subscription, in one transaction. Null when it was settled already.
 */
export async function markPaid(
  tx: Db,
  paymentId: string,
  actorId: string | null,
  detail: Record<string, unknown> = {},
  providerReference?: string,
) {
  const now = new Date();
  const [row] = await tx
    .update(payments)
    .set({
      status: 'paid',
      paidAt: now,
      failureReason: null,
      updatedAt: now,
      ...(providerReference ? { providerReference } : {}),
    })
    .where(and(eq(payments.id, paymentId), inArray(payments.status, ['pending', 'submitted', 'expired'])))
    .returning();
  if (!row) return null;
  await paymentEvent(tx, row, actorId ? 'validated' : 'paid', 'paid', { ...detail, actor_id: actorId });
  await paymentChanged(tx, 'catalog.payment.paid', row, { actorId, detail });
  const sub = await applyPaidPayment(tx, row, actorId);
  return { payment: row, subscription: sub };
}

export async function markFailed(tx: Db, paymentId: string, reason: string, actorId: string | null, type: string) {
  const [row] = await tx
    .update(payments)
    .set({ status: 'failed', failureReason: reason, updatedAt: new Date() })
    .where(and(eq(payments.id, paymentId), inArray(payments.status, ['pending', 'submitted'])))
    .returning();
  if (!row) return null;
  await paymentEvent(tx, row, type, 'failed', { reason, actor_id: actorId });
  await paymentChanged(tx, 'catalog.payment.failed', row, { actorId, reason });
  return row;
}

/** Pending payments past their time: expired (a declared one waits for its operator instead). */
export async function expireDuePayments(db: Db, now = new Date()) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(payments)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(payments.status, 'pending'), lte(payments.expiresAt, now)))
      .returning();
    for (const row of rows) {
      await paymentEvent(tx, row, 'expired', 'expired');
      await paymentChanged(tx, 'catalog.payment.expired', row);
    }
    return rows;
  });
}

/** A payment, locked, else 404; `userId` limits it to its member. */
export async function paymentOf(tx: Db, id: string, userId: string | null = null, lock = true) {
  const where = userId ? and(eq(payments.id, id), eq(payments.userId, userId)) : eq(payments.id, id);
  const query = tx.select().from(payments).where(where);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new HttpError(404, s.paymentNotFound);
  return row;
}

/** The member says they paid a manual payment: submitted, for an operator to check. */
export async function declarePayment(
  db: Db,
  id: string,
  userId: string,
  body: { operator: PaymentRow['operator']; transaction_reference: string; payer_phone: string },
  manualProviders: (name: string) => boolean,
) {
  try {
    return await db.transaction(async (tx) => {
      const payment = await paymentOf(tx, id, userId);
      if (!manualProviders(payment.provider)) throw new HttpError(409, s.notManual);
      if (payment.status !== 'pending') throw new HttpError(409, s.notPending);
      const [row] = await tx
        .update(payments)
        .set({
          status: 'submitted',
          operator: body.operator,
          providerReference: body.transaction_reference,
          payerPhone: body.payer_phone,
          updatedAt: new Date(),
        })
        .where(eq(payments.id, payment.id))
        .returning();
      await paymentEvent(tx, row!, 'submitted', 'submitted', {
        operator: body.operator,
        transaction_reference: body.transaction_reference,
        payer_phone: body.payer_phone,
      });
      await paymentChanged(tx, 'catalog.payment.submitted', row!, { actorId: userId });
      return row!;
    });
  } catch (err) {
    // The same SMS reference pays once (unique per provider).
    if (isUniqueViolation(err)) throw new HttpError(409, s.referenceUsed, { transaction_reference: [s.referenceUsed] });
    throw err;
  }
}

export async function validatePayment(db: Db, id: string, actorId: string) {
  return db.transaction(async (tx) => {
    const payment = await paymentOf(tx, id);
    if (payment.status === 'paid') throw new HttpError(409, s.alreadyPaid);
    if (payment.status !== 'submitted') throw new HttpError(409, s.notSubmitted);
    const done = await markPaid(tx, payment.id, actorId);
    return done!;
  });
}

export async function rejectPayment(db: Db, id: string, reason: string, actorId: string) {
  return db.transaction(async (tx) => {
    const payment = await paymentOf(tx, id);
    if (payment.status === 'paid') throw new HttpError(409, s.alreadyPaid);
    if (payment.status !== 'submitted') throw new HttpError(409, s.notSubmitted);
    return (await markFailed(tx, payment.id, reason, actorId, 'rejected'))!;
  });
}

/** Once per payment, up to what was paid; the subscription ends as refunded. */
export async function refundPayment(db: Db, id: string, amount: number | undefined, reason: string, actorId: string) {
  try {
    return await db.transaction(async (tx) => {
      const payment = await paymentOf(tx, id);
      const [existing] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.paymentId, payment.id));
      if (existing || payment.refundedAmount > 0) throw new HttpError(409, s.alreadyRefunded);
      if (payment.status !== 'paid') throw new HttpError(409, s.notPaid);
      const value = amount ?? payment.amount;
      if (value > payment.amount) {
        const message = s.refundTooMuch.replace('{amount}', String(payment.amount));
        throw new HttpError(422, message, { amount: [message] });
      }
      const [refund] = await tx
        .insert(refunds)
        .values({ paymentId: payment.id, amount: value, reason, createdBy: actorId })
        .returning();
      const [row] = await tx
        .update(payments)
        .set({ refundedAmount: value, updatedAt: new Date() })
        .where(eq(payments.id, payment.id))
        .returning();
      await paymentEvent(tx, row!, 'refunded', 'paid', { amount: value, reason, actor_id: actorId });
      await paymentChanged(tx, 'catalog.payment.refunded', row!, { actorId, reason, refundAmount: value });
      const [sub] = await tx
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.id, payment.subscriptionId))
        .for('update');
      // Already cancelled: the refund is recorded, the subscription stays as it ended.
      if (sub && sub.status !== 'cancelled' && sub.status !== 'refunded')
        await endSubscription(tx, sub, 'refunded', reason, actorId);
      return { payment: row!, refund: refund! };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, s.alreadyRefunded);
    throw err;
  }
}

export type WebhookOutcome = {
  status: 200 | 422;
  message: string;
  changed: boolean;
  subscription?: SubscriptionRow | null;
};

/**
 * A checked notification (provider.parseWebhook) applied once: unknown reference 404; a repeated
 * event id or a settled payment 200 and nothing changes; an amount, currency or provider
 * reference that differs 422, kept in the payment's events.
 */
export async function applyWebhook(db: Db, provider: string, notice: WebhookNotice): Promise<WebhookOutcome> {
  return db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.reference, notice.reference), eq(payments.provider, provider)))
      .for('update');
    if (!payment) throw new HttpError(404, s.webhookUnknown);
    const mismatch =
      notice.amount !== payment.amount ||
      notice.currency !== payment.currency ||
      (payment.providerReference !== null && payment.providerReference !== notice.provider_reference);
    const recorded = await paymentEvent(
      tx,
      payment,
      mismatch ? 'webhook_mismatch' : 'webhook',
      mismatch ? null : notice.status,
      { ...notice },
      notice.event_id,
    );
    if (!recorded) {
      // A delivery seen before: the same answer, no second effect.
      const [first] = await tx
        .select({ type: paymentEvents.type })
        .from(paymentEvents)
        .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, notice.event_id)));
      return first?.type === 'webhook_mismatch'
        ? { status: 422, message: s.webhookMismatch, changed: false }
        : { status: 200, message: 'Notification déjà traitée.', changed: false };
    }
    if (mismatch) return { status: 422, message: s.webhookMismatch, changed: false };
    if (notice.status === 'paid') {
      const done = await markPaid(tx, payment.id, null, { event_id: notice.event_id }, notice.provider_reference);
      if (done) return { status: 200, message: 'Paiement confirmé.', changed: true, subscription: done.subscription };
    } else {
      const failed = await markFailed(
        tx,
        payment.id,
        notice.failure_reason ?? 'Paiement refusé par l’opérateur',
        null,
        'failed',
      );
      if (failed) return { status: 200, message: 'Échec enregistré.', changed: true };
    }
    await tx
      .update(paymentEvents)
      .set({ type: 'duplicate_ignored' })
      .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, notice.event_id)));
    return { status: 200, message: 'Paiement déjà réglé.', changed: false };
  });
}
