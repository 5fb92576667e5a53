import {
  PAYMENT_REQUESTS_PER_MEMBER_HOUR,
  PAYMENT_REQUESTS_PER_NUMBER_HOUR,
  type PaymentInstructions,
  type PaymentStatus,
  subscriptionMessages,
} from '@cartable/contracts';
import {
  conflict,
  type Db,
  isUniqueViolation,
  notFound,
  type Transaction,
  tooManyRequests,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import { paymentChanged } from '../events.ts';
import {
  newPaymentReference,
  OutcomeUnknown,
  type PaymentProvider,
  type ProviderReport,
} from '../providers/provider.ts';
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

/**
 * Each request pushed to a phone is a prompt its owner sees: a member may not send many, nor
 * anyone many to one number (a stranger's, typed on purpose). Counted in the payments themselves,
 * where every replica sees them.
 */
async function checkRequestLimits(db: Db, userId: string, payerPhone: string | null) {
  if (!payerPhone) return; // nothing pushed (the provider asks for the number)
  const since = new Date(Date.now() - 3600_000);
  const byMember = await queries.paymentRequestsSince(db, { userId }, since);
  if (byMember >= PAYMENT_REQUESTS_PER_MEMBER_HOUR) throw tooManyRequests(s.tooManyPaymentRequests, 3600);
  if ((await queries.paymentRequestsSince(db, { payerPhone }, since)) >= PAYMENT_REQUESTS_PER_NUMBER_HOUR)
    throw tooManyRequests(s.tooManyRequestsToNumber, 3600);
}

/** A new payment of a subscription, written in the caller's transaction (initiated after commit). */
export async function createPayment(
  t: Transaction,
  sub: queries.SubscriptionRow,
  choice: { provider: string; operator: PaymentRow['operator']; payer_phone?: string | undefined },
  purpose: 'subscription' | 'renewal',
  currency: string,
  pendingHours: number,
  /** When to ask the provider first; null for a provider that cannot be asked (manual). */
  firstCheckAt: Date | null = null,
) {
  if (await queries.openPaymentOf(t.db, sub.id)) throw conflict(s.pendingPaymentExists);
  if (firstCheckAt && sub.planPrice > 0) await checkRequestLimits(t.db, sub.userId, choice.payer_phone ?? null);
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
    nextCheckAt: firstCheckAt,
  });
  await queries.audit(t.db, sub.id, 'payment_created', sub.userId, { reference: row.reference, purpose }, row.id);
  return row;
}

/**
 * Marks a payment paid, if it is still waiting, and applies it to its subscription, in the
 * caller's transaction. Null when it was paid already. Money the provider took after we gave up
 * (expired, or failed on our side) is still money taken: `late` accepts those states too, and a
 * subscription that ended meanwhile gets the money back at once.
 */
export async function markPaid(
  t: Transaction,
  paymentId: string,
  actorId: string | null,
  detail: Record<string, unknown> = {},
  providerReference?: string,
  late = false,
) {
  const from: PaymentStatus[] = late
    ? ['pending', 'submitted', 'ambiguous', 'expired', 'failed']
    : ['pending', 'submitted', 'ambiguous', 'expired'];
  const before = await queries.paymentById(t.db, paymentId, null, true);
  const row = await queries.updatePayment(
    t.db,
    paymentId,
    {
      status: 'paid',
      paidAt: new Date(),
      failureReason: null,
      nextCheckAt: null,
      ...(providerReference ? { providerReference } : {}),
    },
    from,
  );
  if (!row) return null;
  const wasLate = before?.status === 'expired' || before?.status === 'failed';
  await paymentEvent(t.db, row, actorId ? 'validated' : wasLate ? 'late_paid' : 'paid', 'paid', {
    ...detail,
    actor_id: actorId,
    ...(wasLate ? { previous_status: before?.status } : {}),
  });
  await paymentChanged(t, 'catalog.payment.paid', row, { actorId, detail });
  const sub = await applyPaidPayment(t, row, actorId);
  if (sub && (sub.status === 'cancelled' || sub.status === 'refunded')) {
    const refunded = await refundInTransaction(t, row, row.amount, s.lateRefund, null);
    return { payment: refunded, subscription: sub, refunded: true };
  }
  return { payment: row, subscription: sub, refunded: false };
}

/** Records a refund of `amount` (once per payment) and tells the member, in the caller's transaction. */
async function refundInTransaction(
  t: Transaction,
  payment: PaymentRow,
  amount: number,
  reason: string,
  actorId: string | null,
) {
  const refund = await queries.insertRefund(t.db, { paymentId: payment.id, amount, reason, createdBy: actorId });
  const row = (await queries.updatePayment(t.db, payment.id, { refundedAmount: amount }))!;
  await paymentEvent(t.db, row, 'refunded', 'paid', { amount, reason, actor_id: actorId, refund_id: refund.id });
  await paymentChanged(t, 'catalog.payment.refunded', row, { actorId, reason, refundAmount: amount });
  return row;
}

export async function markFailed(
  t: Transaction,
  paymentId: string,
  reason: string,
  actorId: string | null,
  type: string,
) {
  const row = await queries.updatePayment(
    t.db,
    paymentId,
    { status: 'failed', failureReason: reason, nextCheckAt: null },
    ['pending', 'submitted', 'ambiguous'],
  );
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
      const row = await queries.updatePayment(t.db, payment.id, {
        providerReference: initiated.providerReference,
        ...(initiated.expiresAt ? { expiresAt: initiated.expiresAt } : {}),
      });
      await paymentEvent(t.db, payment, 'initiated', 'pending', {
        provider_reference: initiated.providerReference,
        instructions: initiated.instructions,
        expires_at: initiated.expiresAt?.toISOString() ?? null,
      });
      return row!;
    });
    return { payment: row, instructions: initiated.instructions };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (err instanceof OutcomeUnknown) {
      // The request may have reached the payer's phone: never failed on a guess. The status query
      // (soon, then with back-off) settles it; meanwhile nobody can pay this subscription twice.
      const row = await uow.run(async (t) => {
        const row = await queries.updatePayment(t.db, payment.id, { status: 'ambiguous', nextCheckAt: new Date() }, [
          'pending',
        ]);
        if (row) await paymentEvent(t.db, row, 'initiate_unknown', 'ambiguous', { reason });
        // Else a callback settled it while we waited: the member sees where it stands.
        return row ?? (await queries.paymentById(t.db, payment.id, null, false));
      });
      return { payment: row ?? payment, instructions: unknownOutcomeInstructions(payment) };
    }
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

/** What the member is told while we do not know whether the request reached their phone. */
function unknownOutcomeInstructions(payment: PaymentRow): PaymentInstructions {
  return {
    provider: payment.provider,
    operator: payment.operator,
    amount: payment.amount,
    reference: payment.reference,
    merchant_number: null,
    merchant_name: null,
    steps: [s.outcomeUnknown],
  };
}

/**
 * Pending payments past their time: expired (a declared one waits for its operator instead; one
 * the provider can be asked about is settled by the reconciliation, from the provider's answer).
 */
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
      const row = await refundInTransaction(t, payment, value, reason, actorId);
      const [refund] = await queries.refundsOf(t.db, [payment.id]);
      const sub = await queries.subscriptionById(t.db, payment.subscriptionId, null, true);
      // Already cancelled: the refund is recorded, the subscription stays as it ended.
      if (sub && sub.status !== 'cancelled' && sub.status !== 'refunded')
        await endSubscription(t, sub, 'refunded', reason, actorId);
      return { payment: row, refund: refund! };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(s.alreadyRefunded);
    throw err;
  }
}

export type ReportOutcome = {
  status: 200 | 422;
  message: string;
  changed: boolean;
  payment: PaymentRow;
  subscription?: queries.SubscriptionRow | null;
  /** The money came after the subscription ended and was refunded at once: the provider is asked to. */
  refunded?: boolean;
};

/**
 * What a provider says of a payment, applied once, under the payment's lock: every report is kept
 * as received, keyed by its event id (a signed callback's) or by the provider's transaction and
 * the state it reports, so a repeat (a callback sent twice, the same answer to two status reads)
 * changes nothing. An amount, currency or provider reference that differs is kept and changes
 * nothing either (422 to a callback).
 */
export async function applyReport(
  t: Transaction,
  payment: PaymentRow,
  report: ProviderReport,
  origin: 'callback' | 'status',
  eventId: string | null = null,
): Promise<ReportOutcome> {
  const mismatch =
    report.state === 'paid' &&
    (report.amount !== payment.amount ||
      (report.currency !== null && report.currency !== payment.currency) ||
      (payment.providerReference !== null &&
        report.providerReference !== null &&
        payment.providerReference !== report.providerReference));
  const key = eventId ?? `${report.providerReference ?? payment.reference}:${report.state}`;
  const type = origin === 'callback' ? 'webhook' : 'status';
  const recorded = await paymentEvent(
    t.db,
    payment,
    mismatch ? `${type}_mismatch` : type,
    mismatch ? null : report.state,
    { ...report.raw, origin },
    key,
  );
  if (!recorded) {
    const first = await queries.paymentEventType(t.db, payment.provider, key);
    return first?.endsWith('_mismatch')
      ? { status: 422, message: s.webhookMismatch, changed: false, payment }
      : { status: 200, message: 'Notification déjà traitée.', changed: false, payment };
  }
  // Kept for the operators; the payment waits for a report that matches (the status query's).
  if (mismatch) return { status: 422, message: s.webhookMismatch, changed: false, payment };
  const providerReference = report.providerReference ?? undefined;
  switch (report.state) {
    case 'paid': {
      const done = await markPaid(t, payment.id, null, { event: key }, providerReference, true);
      if (done)
        return {
          status: 200,
          message: 'Paiement confirmé.',
          changed: true,
          payment: done.payment,
          subscription: done.subscription,
          refunded: done.refunded,
        };
      break;
    }
    case 'failed': {
      const failed = await markFailed(
        t,
        payment.id,
        report.failureReason ?? 'Paiement refusé par l’opérateur',
        null,
        'failed',
      );
      if (failed) return { status: 200, message: 'Échec enregistré.', changed: true, payment: failed };
      break;
    }
    case 'expired': {
      const row = await queries.updatePayment(t.db, payment.id, { status: 'expired', nextCheckAt: null }, [
        'pending',
        'ambiguous',
      ]);
      if (row) {
        await paymentChanged(t, 'catalog.payment.expired', row);
        return { status: 200, message: 'Expiration enregistrée.', changed: true, payment: row };
      }
      break;
    }
    case 'ambiguous': {
      const row = await queries.updatePayment(t.db, payment.id, { status: 'ambiguous' }, ['pending']);
      if (row) return { status: 200, message: 'Paiement à vérifier.', changed: true, payment: row };
      break;
    }
    case 'pending':
      if (providerReference && !payment.providerReference)
        await queries.updatePayment(t.db, payment.id, { providerReference });
      return { status: 200, message: 'Paiement en attente.', changed: false, payment };
  }
  await queries.setPaymentEventType(t.db, payment.provider, key, 'duplicate_ignored');
  // The provider's final word on a payment already settled here: nothing more to ask.
  if (report.state === 'failed' || report.state === 'expired') await queries.stopChecks(t.db, payment.id);
  return { status: 200, message: 'Paiement déjà réglé.', changed: false, payment };
}
