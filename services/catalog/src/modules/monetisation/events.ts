import type { Transaction } from '@cartable/service-kit';
import * as queries from './db/queries.ts';

type SubscriptionEventType =
  | 'catalog.subscription.activated'
  | 'catalog.subscription.renewed'
  | 'catalog.subscription.extended'
  | 'catalog.subscription.expiring'
  | 'catalog.subscription.expired'
  | 'catalog.subscription.cancelled'
  | 'catalog.subscription.refunded'
  | 'catalog.subscription.books_changed';

/** Every change of a subscription's life: what the caches showing boosts and badges depend on. */
export const SUBSCRIPTION_EVENTS = [
  'catalog.subscription.activated',
  'catalog.subscription.renewed',
  'catalog.subscription.extended',
  'catalog.subscription.expired',
  'catalog.subscription.cancelled',
  'catalog.subscription.refunded',
  'catalog.subscription.books_changed',
] as const;

/**
 * The subscription's event (with the listings it boosts now, or `boosts` when given: those it
 * just stopped boosting) and its audit row, in the caller's transaction.
 */
export async function subscriptionChanged(
  t: Transaction,
  type: SubscriptionEventType,
  sub: queries.SubscriptionRow,
  options: {
    actorId?: string | null;
    reason?: string | null;
    detail?: Record<string, unknown>;
    boosts?: queries.BoostRow[];
  } = {},
) {
  const boosts = options.boosts ?? (await queries.liveBoostsOf(t.db, [sub.id]));
  await t.record(type, {
    subscription_id: sub.id,
    user_id: sub.userId,
    plan_name: sub.planName,
    kind: sub.planKind,
    status: sub.status,
    starts_at: sub.startsAt?.toISOString() ?? null,
    ends_at: sub.endsAt?.toISOString() ?? null,
    book_ids: boosts.map((b) => b.bookId),
    book_titles: boosts.map((b) => b.bookTitle),
    reason: options.reason ?? null,
    at: new Date().toISOString(),
  });
  await queries.audit(t.db, sub.id, type.replace('catalog.subscription.', ''), options.actorId ?? null, {
    status: sub.status,
    ends_at: sub.endsAt?.toISOString() ?? null,
    ...(options.reason ? { reason: options.reason } : {}),
    ...(boosts.length ? { book_ids: boosts.map((b) => b.bookId) } : {}),
    ...options.detail,
  });
}

type PaymentEventType =
  | 'catalog.payment.submitted'
  | 'catalog.payment.paid'
  | 'catalog.payment.failed'
  | 'catalog.payment.expired'
  | 'catalog.payment.refunded';

/** The payment's event (catalog.payment.*) and the subscription's audit row, in the caller's transaction. */
export async function paymentChanged(
  t: Transaction,
  type: PaymentEventType,
  payment: queries.PaymentRow,
  options: {
    actorId?: string | null;
    reason?: string | null;
    refundAmount?: number | null;
    detail?: Record<string, unknown>;
  } = {},
) {
  const sub = await queries.subscriptionById(t.db, payment.subscriptionId, null);
  await t.record(type, {
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
  await queries.audit(
    t.db,
    payment.subscriptionId,
    `payment_${type.replace('catalog.payment.', '')}`,
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
