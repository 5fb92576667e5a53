import {
  type BoostEndReason,
  type BoostedBook,
  type Payment,
  type Plan,
  paymentStatusLabels,
  type Refund,
  SUBSCRIPTION_REMINDER_DAYS,
  type Subscription,
  type SubscriptionDetail,
  subscriptionMessages,
  subscriptionStatusLabels,
} from '@cartable/contracts';
import { type Db, HttpError, recordEvent } from '@cartable/service-kit';
import { and, asc, desc, eq, gt, inArray, isNull, lte, type SQLWrapper, sql } from 'drizzle-orm';
import {
  books,
  boostedBooks,
  payments,
  refunds,
  sellers,
  subscriptionAuditLog,
  type subscriptionPlans,
  subscriptions,
} from '../db/schema.ts';

const s = subscriptionMessages;
const DAY_MS = 24 * 3600_000;

export type PlanRow = typeof subscriptionPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type BoostRow = typeof boostedBooks.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;

// ── answers ──────────────────────────────────────────────────────────────────────────────────

export const planDto = (p: PlanRow): Plan => ({
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

export const paymentDto = (p: PaymentRow): Payment => ({
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

export const refundDto = (r: RefundRow): Refund => ({
  id: r.id,
  payment_id: r.paymentId,
  amount: r.amount,
  reason: r.reason,
  created_by: r.createdBy,
  created_at: r.createdAt.toISOString(),
});

async function boostDtos(db: Db, rows: BoostRow[]): Promise<BoostedBook[]> {
  const ids = [...new Set(rows.map((r) => r.bookId))];
  const found = ids.length
    ? await db.select({ id: books.id, status: books.status }).from(books).where(inArray(books.id, ids))
    : [];
  const status = new Map(found.map((b) => [b.id, b.status]));
  return rows.map((r) => ({
    id: r.id,
    subscription_id: r.subscriptionId,
    book_id: r.bookId,
    book_title: r.bookTitle,
    book_status: status.get(r.bookId) ?? null,
    user_id: r.userId,
    starts_at: r.startsAt.toISOString(),
    ends_at: r.endsAt.toISOString(),
    ended_at: r.endedAt?.toISOString() ?? null,
    end_reason: r.endReason,
    transferable: r.transferable,
  }));
}

export { boostDtos as toBoostDtos };

export async function userNames(db: Db, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await db.select({ id: sellers.userId, name: sellers.name }).from(sellers).where(inArray(sellers.userId, unique))
    : [];
  return new Map(rows.map((r) => [r.id, r.name]));
}

const daysLeft = (sub: SubscriptionRow, now = Date.now()) =>
  sub.status === 'active' && sub.endsAt ? Math.max(0, Math.ceil((sub.endsAt.getTime() - now) / DAY_MS)) : 0;

export async function toSubscriptionDtos(db: Db, rows: SubscriptionRow[]): Promise<Subscription[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [live, names] = await Promise.all([
    db
      .select()
      .from(boostedBooks)
      .where(and(inArray(boostedBooks.subscriptionId, ids), isNull(boostedBooks.endedAt)))
      .orderBy(asc(boostedBooks.startsAt)),
    userNames(
      db,
      rows.map((r) => r.userId),
    ),
  ]);
  const boosts = await boostDtos(db, live);
  // The listing a boost was bought for, named even before it is paid (the back office's check).
  const targetIds = [...new Set(rows.flatMap((r) => (r.bookId ? [r.bookId] : [])))];
  const targets = new Map(
    targetIds.length
      ? (await db.select({ id: books.id, title: books.title }).from(books).where(inArray(books.id, targetIds))).map(
          (b) => [b.id, b.title],
        )
      : [],
  );
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
    book: r.bookId ? { id: r.bookId, title: targets.get(r.bookId) ?? 'Annonce supprimée' } : null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

export async function subscriptionDetail(db: Db, sub: SubscriptionRow): Promise<SubscriptionDetail> {
  const [[dto], paymentRows, history, audit] = await Promise.all([
    toSubscriptionDtos(db, [sub]),
    db.select().from(payments).where(eq(payments.subscriptionId, sub.id)).orderBy(desc(payments.createdAt)),
    db.select().from(boostedBooks).where(eq(boostedBooks.subscriptionId, sub.id)).orderBy(desc(boostedBooks.startsAt)),
    db
      .select()
      .from(subscriptionAuditLog)
      .where(eq(subscriptionAuditLog.subscriptionId, sub.id))
      .orderBy(asc(subscriptionAuditLog.createdAt)),
  ]);
  const refundRows = paymentRows.length
    ? await db
        .select()
        .from(refunds)
        .where(
          inArray(
            refunds.paymentId,
            paymentRows.map((p) => p.id),
          ),
        )
    : [];
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

// ── what every change writes: an audit row and an event ──────────────────────────────────────

type SubscriptionEventType =
  | 'catalog.subscription.activated'
  | 'catalog.subscription.renewed'
  | 'catalog.subscription.extended'
  | 'catalog.subscription.expiring'
  | 'catalog.subscription.expired'
  | 'catalog.subscription.cancelled'
  | 'catalog.subscription.refunded'
  | 'catalog.subscription.books_changed';

export async function audit(
  tx: Db,
  subscriptionId: string,
  action: string,
  actorId: string | null,
  detail: Record<string, unknown> = {},
  paymentId: string | null = null,
) {
  await tx.insert(subscriptionAuditLog).values({ subscriptionId, action, actorId, detail, paymentId });
}

/**
 * The subscription's event (with the listings it boosts now, or `boosts` when given: those it
 * just stopped boosting) and its audit row, in the caller's transaction.
 */
export async function subscriptionChanged(
  tx: Db,
  type: SubscriptionEventType,
  sub: SubscriptionRow,
  options: {
    actorId?: string | null;
    reason?: string | null;
    detail?: Record<string, unknown>;
    boosts?: BoostRow[];
  } = {},
) {
  const boosts =
    options.boosts ??
    (await tx
      .select()
      .from(boostedBooks)
      .where(and(eq(boostedBooks.subscriptionId, sub.id), isNull(boostedBooks.endedAt))));
  await recordEvent(tx, type, {
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
  await audit(tx, sub.id, type.replace('catalog.subscription.', ''), options.actorId ?? null, {
    status: sub.status,
    ends_at: sub.endsAt?.toISOString() ?? null,
    ...(options.reason ? { reason: options.reason } : {}),
    ...(boosts.length ? { book_ids: boosts.map((b) => b.bookId) } : {}),
    ...options.detail,
  });
}

// ── boosts ───────────────────────────────────────────────────────────────────────────────────

/** Ends the live boosts matching `where`; returns them as ended. */
export async function endBoosts(
  tx: Db,
  where: ReturnType<typeof and>,
  reason: BoostEndReason,
  transferable = false,
): Promise<BoostRow[]> {
  return tx
    .update(boostedBooks)
    .set({ endedAt: sql`now()`, endReason: reason, transferable })
    .where(and(isNull(boostedBooks.endedAt), where))
    .returning();
}

/** A listing that can be boosted: the member's own, available, not hidden. */
export async function boostableBook(tx: Db, bookId: number, userId: string) {
  const [book] = await tx.select().from(books).where(eq(books.id, bookId));
  if (!book) throw new HttpError(404, s.bookNotFound);
  if (book.userId !== userId) throw new HttpError(403, s.bookNotOwner);
  if (book.status !== 'disponible' || book.hiddenAt) throw new HttpError(409, s.bookUnavailable);
  return book;
}

/** Boosts `bookId` for the subscription until its end; false when another boost holds it. */
export async function startBoost(tx: Db, sub: SubscriptionRow, book: { id: number; title: string }) {
  const [row] = await tx
    .insert(boostedBooks)
    .values({
      subscriptionId: sub.id,
      bookId: book.id,
      bookTitle: book.title,
      userId: sub.userId,
      startsAt: new Date(),
      endsAt: sub.endsAt!,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/**
 * A listing boost's own listing, boosted when its subscription becomes active (again); quietly
 * nothing when the listing was sold, hidden or boosted meanwhile (the audit says so).
 */
async function boostOwnListing(tx: Db, sub: SubscriptionRow) {
  if (sub.planKind !== 'boost' || !sub.bookId) return;
  const [book] = await tx.select().from(books).where(eq(books.id, sub.bookId));
  const ok = book && book.userId === sub.userId && book.status === 'disponible' && !book.hiddenAt;
  const started = ok ? await startBoost(tx, sub, book) : null;
  if (!started) await audit(tx, sub.id, 'boost_not_started', null, { book_id: sub.bookId });
}

/** In-process hook of every status change and deletion of a listing (book-writes.ts). */
export async function onBookChanged(tx: Db, bookId: number, change: 'sold' | 'deleted' | 'hidden') {
  if (change === 'hidden') return;
  const ended = await endBoosts(tx, eq(boostedBooks.bookId, bookId), change);
  for (const boost of ended) {
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, boost.subscriptionId));
    if (sub) await subscriptionChanged(tx, 'catalog.subscription.books_changed', sub, { detail: { ended: change } });
  }
}

/**
 * Listings sold through a confirmed deal: their boost (ended as sold a moment before, in the same
 * transaction) waits for the seller to move it to another listing instead of being lost.
 */
export async function markBoostsTransferable(tx: Db, bookIds: number[]) {
  if (!bookIds.length) return;
  const rows = await tx
    .update(boostedBooks)
    .set({ transferable: true })
    .where(
      and(
        inArray(boostedBooks.bookId, bookIds),
        eq(boostedBooks.endReason, 'sold'),
        sql`${boostedBooks.endedAt} >= now()`,
        sql`exists (select 1 from ${subscriptions} where ${subscriptions.id} = ${boostedBooks.subscriptionId} and ${subscriptions.status} = 'active')`,
      ),
    )
    .returning();
  for (const r of rows)
    await audit(tx, r.subscriptionId, 'boost_transferable', null, { boosted_book_id: r.id, book_id: r.bookId });
}

// ── activation, renewal, expiry ──────────────────────────────────────────────────────────────

/**
 * What a paid payment does to its subscription, under the subscription's lock: the first one
 * activates it from now; a renewal extends it from its end (from now when it had expired).
 * A subscription cancelled or refunded meanwhile is left as it is (the audit says so).
 */
export async function applyPaidPayment(tx: Db, payment: PaymentRow, actorId: string | null) {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, payment.subscriptionId)).for('update');
  if (!sub) return null;
  const now = new Date();
  const duration = sub.planDurationDays * DAY_MS;
  if (sub.status === 'pending_payment') {
    const [row] = await tx
      .update(subscriptions)
      .set({ status: 'active', startsAt: now, endsAt: new Date(now.getTime() + duration), updatedAt: now })
      .where(eq(subscriptions.id, sub.id))
      .returning();
    await boostOwnListing(tx, row!);
    await subscriptionChanged(tx, 'catalog.subscription.activated', row!, {
      actorId,
      detail: { payment_id: payment.id },
    });
    return row!;
  }
  if (sub.status === 'active' || sub.status === 'expired') {
    const wasActive = sub.status === 'active' && sub.endsAt! > now;
    const from = wasActive ? sub.endsAt! : now;
    const [row] = await tx
      .update(subscriptions)
      .set({
        status: 'active',
        startsAt: wasActive ? sub.startsAt : now,
        endsAt: new Date(from.getTime() + duration),
        reminderSentAt: null,
        updatedAt: now,
      })
      .where(eq(subscriptions.id, sub.id))
      .returning();
    await tx
      .update(boostedBooks)
      .set({ endsAt: row!.endsAt! })
      .where(and(eq(boostedBooks.subscriptionId, sub.id), isNull(boostedBooks.endedAt)));
    if (!wasActive) await boostOwnListing(tx, row!);
    await subscriptionChanged(tx, 'catalog.subscription.renewed', row!, {
      actorId,
      detail: { payment_id: payment.id, previous_ends_at: sub.endsAt?.toISOString() ?? null },
    });
    return row!;
  }
  await audit(tx, sub.id, 'payment_after_end', actorId, { status: sub.status }, payment.id);
  return sub;
}

/** Extends by `days` (an operator's gesture), from the end, or from now when expired. */
export async function extendSubscription(tx: Db, sub: SubscriptionRow, days: number, reason: string, actorId: string) {
  if (sub.status === 'pending_payment') throw new HttpError(409, s.notActive);
  if (sub.status === 'cancelled' || sub.status === 'refunded') throw new HttpError(409, s.alreadyEnded);
  const now = new Date();
  const wasActive = sub.status === 'active' && sub.endsAt! > now;
  const from = wasActive ? sub.endsAt! : now;
  const [row] = await tx
    .update(subscriptions)
    .set({
      status: 'active',
      startsAt: wasActive ? sub.startsAt : now,
      endsAt: new Date(from.getTime() + days * DAY_MS),
      reminderSentAt: null,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, sub.id))
    .returning();
  await tx
    .update(boostedBooks)
    .set({ endsAt: row!.endsAt! })
    .where(and(eq(boostedBooks.subscriptionId, sub.id), isNull(boostedBooks.endedAt)));
  if (!wasActive) await boostOwnListing(tx, row!);
  await subscriptionChanged(tx, 'catalog.subscription.extended', row!, { actorId, reason, detail: { days } });
  return row!;
}

/** Ends a subscription now (cancelled or refunded): its boosts end, its open payments fail. */
export async function endSubscription(
  tx: Db,
  sub: SubscriptionRow,
  status: 'cancelled' | 'refunded',
  reason: string,
  actorId: string,
) {
  if (sub.status === 'cancelled' || sub.status === 'refunded') throw new HttpError(409, s.alreadyEnded);
  const now = new Date();
  const [row] = await tx
    .update(subscriptions)
    .set({
      status,
      cancelledAt: now,
      cancelReason: reason,
      endsAt: sub.endsAt && sub.endsAt > now ? now : sub.endsAt,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, sub.id))
    .returning();
  const ended = await endBoosts(tx, eq(boostedBooks.subscriptionId, sub.id), 'subscription_ended');
  // A transferable boost waiting for its new listing goes too.
  await tx
    .update(boostedBooks)
    .set({ transferable: false })
    .where(and(eq(boostedBooks.subscriptionId, sub.id), eq(boostedBooks.transferable, true)));
  await tx
    .update(payments)
    .set({ status: 'failed', failureReason: 'Abonnement terminé', updatedAt: now })
    .where(and(eq(payments.subscriptionId, sub.id), inArray(payments.status, ['pending', 'submitted'])));
  await subscriptionChanged(
    tx,
    status === 'cancelled' ? 'catalog.subscription.cancelled' : 'catalog.subscription.refunded',
    row!,
    { actorId, reason, boosts: ended },
  );
  return row!;
}

/**
 * Active subscriptions whose end has come: expired, their boosts ended. Safe to run anywhere and
 * twice (the state is checked in the UPDATE), by the delayed job or the sweep.
 */
export async function expireDueSubscriptions(db: Db, now = new Date()) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(subscriptions)
      .set({ status: 'expired', updatedAt: now })
      .where(and(eq(subscriptions.status, 'active'), lte(subscriptions.endsAt, now)))
      .returning();
    for (const sub of rows) {
      const ended = await endBoosts(tx, eq(boostedBooks.subscriptionId, sub.id), 'subscription_ended');
      await tx
        .update(boostedBooks)
        .set({ transferable: false })
        .where(and(eq(boostedBooks.subscriptionId, sub.id), eq(boostedBooks.transferable, true)));
      await subscriptionChanged(tx, 'catalog.subscription.expired', sub, { boosts: ended });
    }
    return rows;
  });
}

/** The reminder before the end, once per period (reminder_sent_at, reset by a renewal). */
export async function sendDueReminders(db: Db, now = new Date()) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(subscriptions)
      .set({ reminderSentAt: now })
      .where(
        and(
          eq(subscriptions.status, 'active'),
          isNull(subscriptions.reminderSentAt),
          gt(subscriptions.endsAt, now),
          lte(subscriptions.endsAt, new Date(now.getTime() + SUBSCRIPTION_REMINDER_DAYS * DAY_MS)),
        ),
      )
      .returning();
    for (const sub of rows) await subscriptionChanged(tx, 'catalog.subscription.expiring', sub);
    return rows;
  });
}

/** Listings boosted now (the catalogue's small set), ids only. */
export async function liveBoostedBookIds(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: boostedBooks.bookId })
    .from(boostedBooks)
    .where(and(isNull(boostedBooks.endedAt), gt(boostedBooks.endsAt, sql`now()`)))
    .orderBy(asc(boostedBooks.startsAt));
  return rows.map((r) => r.id);
}

/** A subscription of `userId`, else 404 (another member's does not exist for them). */
export async function subscriptionOf(db: Db, id: string, userId: string | null, lock = false) {
  const where = userId ? and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)) : eq(subscriptions.id, id);
  const query = db.select().from(subscriptions).where(where);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new HttpError(404, s.notFound);
  return row;
}

/**
 * The seller badge a member shows on their listings' page and profile: the name of their active
 * member plan that gives one (the newest, when several), else null. One indexed look-up, as an
 * expression of the member's id so that the book page reads it with the seller's row.
 */
export const sellerBadgeSql = (userId: SQLWrapper) =>
  sql<string | null>`(select ${subscriptions.planName} from ${subscriptions}
    where ${subscriptions.userId} = ${userId} and ${subscriptions.status} = 'active'
      and ${subscriptions.planSellerBadge} and ${subscriptions.endsAt} > now()
    order by ${subscriptions.startsAt} desc limit 1)`;

export async function sellerBadgeOf(db: Db, userId: string): Promise<string | null> {
  const result = await db.execute(sql`select ${sellerBadgeSql(sql`${userId}::uuid`)} as badge`);
  return (result as unknown as { rows: Array<{ badge: string | null }> }).rows[0]?.badge ?? null;
}
