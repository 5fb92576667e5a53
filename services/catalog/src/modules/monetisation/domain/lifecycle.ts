import { SUBSCRIPTION_REMINDER_DAYS, subscriptionMessages } from '@cartable/contracts';
import { conflict, type Db, forbidden, notFound, type Transaction, type UnitOfWork } from '@cartable/service-kit';
import { listingById } from '../../listings/index.ts';
import * as queries from '../db/queries.ts';
import { subscriptionChanged } from '../events.ts';

const s = subscriptionMessages;
export const DAY_MS = 24 * 3600_000;

/** A subscription of `userId`, else 404 (another member's does not exist for them). */
export async function subscriptionOf(db: Db, id: string, userId: string | null, lock = false) {
  const row = await queries.subscriptionById(db, id, userId, lock);
  if (!row) throw notFound(s.notFound);
  return row;
}

/** A listing that can be boosted: the member's own, available, not hidden. */
export async function boostableBook(db: Db, bookId: number, userId: string) {
  const book = await listingById(db, bookId);
  if (!book) throw notFound(s.bookNotFound);
  if (book.userId !== userId) throw forbidden(s.bookNotOwner);
  if (book.status !== 'disponible' || book.hiddenAt) throw conflict(s.bookUnavailable);
  return book;
}

/**
 * A listing boost's own listing, boosted when its subscription becomes active (again); quietly
 * nothing when the listing was sold, hidden or boosted meanwhile (the audit says so).
 */
async function boostOwnListing(t: Transaction, sub: queries.SubscriptionRow) {
  if (sub.planKind !== 'boost' || !sub.bookId) return;
  const book = await listingById(t.db, sub.bookId);
  const ok = book && book.userId === sub.userId && book.status === 'disponible' && !book.hiddenAt;
  const started = ok ? await queries.startBoost(t.db, sub, book) : null;
  if (!started) await queries.audit(t.db, sub.id, 'boost_not_started', null, { book_id: sub.bookId });
}

/** A listing sold or deleted (its event, recorded in the same transaction): its boost ends with it. */
export async function endBoostsOfListing(t: Transaction, bookId: number, change: 'sold' | 'deleted') {
  const ended = await queries.endBoosts(t.db, { bookId }, change);
  for (const boost of ended) {
    const sub = await queries.subscriptionById(t.db, boost.subscriptionId, null);
    if (sub) await subscriptionChanged(t, 'catalog.subscription.books_changed', sub, { detail: { ended: change } });
  }
}

/**
 * Listings sold through a confirmed deal: their boost (ended as sold a moment before, in the same
 * transaction) waits for the seller to move it to another listing instead of being lost.
 */
export async function markBoostsTransferable(t: Transaction, bookIds: number[]) {
  if (!bookIds.length) return;
  for (const r of await queries.markTransferable(t.db, bookIds))
    await queries.audit(t.db, r.subscriptionId, 'boost_transferable', null, {
      boosted_book_id: r.id,
      book_id: r.bookId,
    });
}

/**
 * What a paid payment does to its subscription, under the subscription's lock: the first one
 * activates it from now; a renewal extends it from its end (from now when it had expired).
 * A subscription cancelled or refunded meanwhile is left as it is (the audit says so).
 */
export async function applyPaidPayment(t: Transaction, payment: queries.PaymentRow, actorId: string | null) {
  const sub = await queries.subscriptionById(t.db, payment.subscriptionId, null, true);
  if (!sub) return null;
  const now = new Date();
  const duration = sub.planDurationDays * DAY_MS;
  if (sub.status === 'pending_payment') {
    const row = await queries.updateSubscription(t.db, sub.id, {
      status: 'active',
      startsAt: now,
      endsAt: new Date(now.getTime() + duration),
      updatedAt: now,
    });
    await boostOwnListing(t, row);
    await subscriptionChanged(t, 'catalog.subscription.activated', row, {
      actorId,
      detail: { payment_id: payment.id },
    });
    return row;
  }
  if (sub.status === 'active' || sub.status === 'expired') {
    const wasActive = sub.status === 'active' && sub.endsAt! > now;
    const from = wasActive ? sub.endsAt! : now;
    const row = await queries.updateSubscription(t.db, sub.id, {
      status: 'active',
      startsAt: wasActive ? sub.startsAt : now,
      endsAt: new Date(from.getTime() + duration),
      reminderSentAt: null,
      updatedAt: now,
    });
    await queries.setBoostsEnd(t.db, sub.id, row.endsAt!);
    if (!wasActive) await boostOwnListing(t, row);
    await subscriptionChanged(t, 'catalog.subscription.renewed', row, {
      actorId,
      detail: { payment_id: payment.id, previous_ends_at: sub.endsAt?.toISOString() ?? null },
    });
    return row;
  }
  await queries.audit(t.db, sub.id, 'payment_after_end', actorId, { status: sub.status }, payment.id);
  return sub;
}

/** Extends by `days` (an operator's gesture), from the end, or from now when expired. */
export async function extendSubscription(
  t: Transaction,
  sub: queries.SubscriptionRow,
  days: number,
  reason: string,
  actorId: string,
) {
  if (sub.status === 'pending_payment') throw conflict(s.notActive);
  if (sub.status === 'cancelled' || sub.status === 'refunded') throw conflict(s.alreadyEnded);
  const now = new Date();
  const wasActive = sub.status === 'active' && sub.endsAt! > now;
  const from = wasActive ? sub.endsAt! : now;
  const row = await queries.updateSubscription(t.db, sub.id, {
    status: 'active',
    startsAt: wasActive ? sub.startsAt : now,
    endsAt: new Date(from.getTime() + days * DAY_MS),
    reminderSentAt: null,
    updatedAt: now,
  });
  await queries.setBoostsEnd(t.db, sub.id, row.endsAt!);
  if (!wasActive) await boostOwnListing(t, row);
  await subscriptionChanged(t, 'catalog.subscription.extended', row, { actorId, reason, detail: { days } });
  return row;
}

/** Ends a subscription now (cancelled or refunded): its boosts end, its open payments fail. */
export async function endSubscription(
  t: Transaction,
  sub: queries.SubscriptionRow,
  status: 'cancelled' | 'refunded',
  reason: string,
  actorId: string,
) {
  if (sub.status === 'cancelled' || sub.status === 'refunded') throw conflict(s.alreadyEnded);
  const now = new Date();
  const row = await queries.updateSubscription(t.db, sub.id, {
    status,
    cancelledAt: now,
    cancelReason: reason,
    endsAt: sub.endsAt && sub.endsAt > now ? now : sub.endsAt,
    updatedAt: now,
  });
  const ended = await queries.endBoosts(t.db, { subscriptionId: sub.id }, 'subscription_ended');
  // A transferable boost waiting for its new listing goes too.
  await queries.dropTransferable(t.db, sub.id);
  await queries.failOpenPayments(t.db, sub.id, 'Abonnement terminé');
  await subscriptionChanged(
    t,
    status === 'cancelled' ? 'catalog.subscription.cancelled' : 'catalog.subscription.refunded',
    row,
    { actorId, reason, boosts: ended },
  );
  return row;
}

/**
 * Active subscriptions whose end has come: expired, their boosts ended. Safe to run anywhere and
 * twice (the state is checked in the UPDATE), by the delayed job or the sweep.
 */
export function expireDueSubscriptions(uow: UnitOfWork, now = new Date()) {
  return uow.run(async (t) => {
    const rows = await queries.expireEnded(t.db, now);
    for (const sub of rows) {
      const ended = await queries.endBoosts(t.db, { subscriptionId: sub.id }, 'subscription_ended');
      await queries.dropTransferable(t.db, sub.id);
      await subscriptionChanged(t, 'catalog.subscription.expired', sub, { boosts: ended });
    }
    return rows;
  });
}

/** The reminder before the end, once per period (reminder_sent_at, reset by a renewal). */
export function sendDueReminders(uow: UnitOfWork, now = new Date()) {
  return uow.run(async (t) => {
    const rows = await queries.markRemindersDue(
      t.db,
      now,
      new Date(now.getTime() + SUBSCRIPTION_REMINDER_DAYS * DAY_MS),
    );
    for (const sub of rows) await subscriptionChanged(t, 'catalog.subscription.expiring', sub);
    return rows;
  });
}
