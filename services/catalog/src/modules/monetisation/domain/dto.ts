import {
  type AdminPayment,
  type AdminPaymentDetail,
  type BoostedBook,
  type Payment,
  type Plan,
  paymentStatusLabels,
  type Refund,
  type Subscription,
  type SubscriptionDetail,
  subscriptionStatusLabels,
} from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { listingSummaries } from '../../listings/index.ts';
import { memberCards } from '../../members/index.ts';
import * as queries from '../db/queries.ts';
import { DAY_MS } from './lifecycle.ts';

/** Plans, subscriptions, boosts and payments as the API shows them (services/catalog/API.md). */

export const planDto = (p: queries.PlanRow): Plan => ({
  id: p.id,
  kind: p.kind,
  name: p.name,
  description: p.description,
  price: p.price,
  duration_days: p.durationDays,
  boost_slots: p.boostSlots,
  seller_badge: p.sellerBadge,
  listings_limit: p.listingsLimit,
  active: p.active,
  position: p.position,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

export const paymentDto = (p: queries.PaymentRow): Payment => ({
  id: p.id,
  subscription_id: p.subscriptionId,
  user_id: p.userId,
  purpose: p.purpose,
  provider: p.provider,
  operator: p.operator,
  payer_phone: p.payerPhone,
  amount: p.amount,
  currency: p.currency,
  status: p.status,
  status_label: paymentStatusLabels[p.status],
  reference: p.reference,
  provider_reference: p.providerReference,
  refunded_amount: p.refundedAmount,
  failure_reason: p.failureReason,
  expires_at: p.expiresAt?.toISOString() ?? null,
  paid_at: p.paidAt?.toISOString() ?? null,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

export const refundDto = (r: queries.RefundRow): Refund => ({
  id: r.id,
  payment_id: r.paymentId,
  amount: r.amount,
  reason: r.reason,
  created_by: r.createdBy,
  created_at: r.createdAt.toISOString(),
});

/** Members' names (the members projection), for the screens that name them. */
export async function memberNames(db: Db, ids: string[]) {
  const cards = await memberCards(db, ids);
  return new Map([...cards].map(([id, card]) => [id, card.name]));
}

export async function boostDtos(db: Db, rows: queries.BoostRow[]): Promise<BoostedBook[]> {
  const listings = await listingSummaries(
    db,
    rows.map((r) => r.bookId),
  );
  return rows.map((r) => ({
    id: r.id,
    subscription_id: r.subscriptionId,
    book_id: r.bookId,
    book_title: r.bookTitle,
    book_status: listings.get(r.bookId)?.status ?? null,
    user_id: r.userId,
    starts_at: r.startsAt.toISOString(),
    ends_at: r.endsAt.toISOString(),
    ended_at: r.endedAt?.toISOString() ?? null,
    end_reason: r.endReason,
    transferable: r.transferable,
  }));
}

const daysLeft = (sub: queries.SubscriptionRow, now = Date.now()) =>
  sub.status === 'active' && sub.endsAt ? Math.max(0, Math.ceil((sub.endsAt.getTime() - now) / DAY_MS)) : 0;

function lastPaymentOf(payment: queries.PaymentRow | undefined): Subscription['last_payment'] {
  if (!payment) return null;
  return { status: payment.status, failure_reason: payment.failureReason, created_at: payment.createdAt.toISOString() };
}

export async function subscriptionDtos(db: Db, rows: queries.SubscriptionRow[]): Promise<Subscription[]> {
  if (!rows.length) return [];
  // The listing a boost was bought for, named even before it is paid (the back office's check).
  const [live, names, targets, lastPayments] = await Promise.all([
    queries.liveBoostsOf(
      db,
      rows.map((r) => r.id),
    ),
    memberNames(
      db,
      rows.map((r) => r.userId),
    ),
    listingSummaries(
      db,
      rows.flatMap((r) => (r.bookId ? [r.bookId] : [])),
    ),
    queries.latestPaymentsOf(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  const boosts = await boostDtos(db, live);
  return rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    user_name: names.get(r.userId) ?? null,
    plan_id: r.planId,
    plan: {
      kind: r.planKind,
      name: r.planName,
      price: r.planPrice,
      duration_days: r.planDurationDays,
      boost_slots: r.planBoostSlots,
      seller_badge: r.planSellerBadge,
      listings_limit: r.planListingsLimit,
    },
    status: r.status,
    status_label: subscriptionStatusLabels[r.status],
    starts_at: r.startsAt?.toISOString() ?? null,
    ends_at: r.endsAt?.toISOString() ?? null,
    days_left: daysLeft(r),
    cancelled_at: r.cancelledAt?.toISOString() ?? null,
    cancel_reason: r.cancelReason,
    books: boosts.filter((b) => b.subscription_id === r.id),
    book: r.bookId ? { id: r.bookId, title: targets.get(r.bookId)?.title ?? 'Annonce supprimée' } : null,
    last_payment: lastPaymentOf(lastPayments.get(r.id)),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

export async function subscriptionDetail(db: Db, sub: queries.SubscriptionRow): Promise<SubscriptionDetail> {
  const [[dto], paymentRows, history, audit] = await Promise.all([
    subscriptionDtos(db, [sub]),
    queries.paymentsOfSubscription(db, sub.id),
    queries.boostHistoryOf(db, sub.id),
    queries.auditOf(db, sub.id),
  ]);
  const refundRows = await queries.refundsOf(
    db,
    paymentRows.map((p) => p.id),
  );
  return {
    ...dto!,
    payments: paymentRows.map((p) => ({
      ...paymentDto(p),
      refunds: refundRows.filter((r) => r.paymentId === p.id).map(refundDto),
    })),
    book_history: await boostDtos(db, history),
    audit: audit.map((a) => ({
      id: a.id,
      action: a.action,
      actor_id: a.actorId,
      detail: a.detail as Record<string, unknown>,
      created_at: a.createdAt.toISOString(),
    })),
  };
}

/** Payments as the back office lists them: with their member's name and their plan. */
export async function adminPayments(db: Db, rows: queries.PaymentRow[]): Promise<AdminPayment[]> {
  if (!rows.length) return [];
  const [names, plans] = await Promise.all([
    memberNames(
      db,
      rows.map((r) => r.userId),
    ),
    queries.planNamesOf(db, [...new Set(rows.map((r) => r.subscriptionId))]),
  ]);
  return rows.map((r) => ({
    ...paymentDto(r),
    user_name: names.get(r.userId) ?? null,
    plan_name: plans.get(r.subscriptionId) ?? '',
  }));
}

export async function paymentDetail(db: Db, row: queries.PaymentRow): Promise<AdminPaymentDetail> {
  const [[base], events, refundRows, sub] = await Promise.all([
    adminPayments(db, [row]),
    queries.paymentEventsOf(db, row.id),
    queries.refundsOf(db, [row.id]),
    queries.subscriptionById(db, row.subscriptionId, null),
  ]);
  const [subscription] = await subscriptionDtos(db, [sub!]);
  return {
    ...base!,
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      status: e.status,
      detail: e.detail as Record<string, unknown>,
      created_at: e.createdAt.toISOString(),
    })),
    refunds: refundRows.map(refundDto),
    subscription: subscription!,
  };
}
