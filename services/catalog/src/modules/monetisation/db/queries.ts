import type { BoostEndReason, PaymentStatus, SubscriptionStatus } from '@cartable/contracts';
import { type Db, rowsOf } from '@cartable/service-kit';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { memberRelation } from '../../members/index.ts';
import {
  bookTransfers,
  boostedBooks,
  paymentEvents,
  payments,
  refunds,
  subscriptionAuditLog,
  subscriptionPlans,
  subscriptions,
} from './schema.ts';

export type PlanRow = typeof subscriptionPlans.$inferSelect;
export type PlanValues = Omit<typeof subscriptionPlans.$inferInsert, 'id' | 'createdAt' | 'updatedAt' | 'seedKey'>;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type BoostRow = typeof boostedBooks.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
export type PaymentEventRow = typeof paymentEvents.$inferSelect;

// A constant in the SQL text (not a parameter): GROUP BY must see the same expression as SELECT.
const TZ = sql.raw(`'Africa/Libreville'`);
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const count = sql<number>`count(*)::int`;

// ── plans ────────────────────────────────────────────────────────────────────────────────────

export const listPlans = (db: Db, onlyActive: boolean) =>
  db
    .select()
    .from(subscriptionPlans)
    .where(onlyActive ? eq(subscriptionPlans.active, true) : undefined)
    .orderBy(asc(subscriptionPlans.position), asc(subscriptionPlans.id));

export async function planById(db: Db, id: number) {
  const [row] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
  return row;
}

export async function insertPlan(db: Db, values: PlanValues) {
  const [row] = await db.insert(subscriptionPlans).values(values).returning();
  return row!;
}

export async function updatePlan(db: Db, id: number, values: PlanValues) {
  const [row] = await db
    .update(subscriptionPlans)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptionPlans.id, id))
    .returning();
  return row;
}

export async function deletePlan(db: Db, id: number) {
  await db.delete(subscriptionPlans).where(eq(subscriptionPlans.id, id));
}

export async function planInUse(db: Db, planId: number) {
  const [used] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.planId, planId))
    .limit(1);
  return Boolean(used);
}

/** On a database without plans only, so an administrator's later edits and deletions stand. */
export async function seedPlans(db: Db, plans: Array<PlanValues & { seedKey: string }>) {
  const [existing] = await db.select({ id: subscriptionPlans.id }).from(subscriptionPlans).limit(1);
  if (existing) return;
  // Two replicas seeding at once write each plan once (unique seed_key).
  await db.insert(subscriptionPlans).values(plans).onConflictDoNothing({ target: subscriptionPlans.seedKey });
}

// ── subscriptions ────────────────────────────────────────────────────────────────────────────

/** A subscription, `userId`'s only when given; locked until the transaction ends when asked. */
export async function subscriptionById(db: Db, id: string, userId: string | null, lock = false) {
  const where = userId ? and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)) : eq(subscriptions.id, id);
  const query = db.select().from(subscriptions).where(where);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function insertSubscription(db: Db, values: typeof subscriptions.$inferInsert) {
  const [row] = await db.insert(subscriptions).values(values).returning();
  return row!;
}

export async function updateSubscription(db: Db, id: string, values: Partial<typeof subscriptions.$inferInsert>) {
  const [row] = await db.update(subscriptions).set(values).where(eq(subscriptions.id, id)).returning();
  return row!;
}

/**
 * The member's subscription to this plan (and listing) still waiting with no payment under way
 * (the last one failed or expired), locked: paid again rather than bought twice.
 */
export async function waitingSubscription(db: Db, userId: string, planId: number, bookId: number | null) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.planId, planId),
        eq(subscriptions.status, 'pending_payment'),
        bookId === null ? isNull(subscriptions.bookId) : eq(subscriptions.bookId, bookId),
        sql`not exists (select 1 from ${payments} where ${payments.subscriptionId} = ${subscriptions.id} and ${payments.status} in ('pending', 'submitted'))`,
      ),
    )
    .limit(1)
    .for('update');
  return row;
}

export interface SubscriptionFilter {
  userId?: string | undefined;
  status?: SubscriptionStatus | undefined;
  kind?: 'boost' | 'member' | undefined;
  planId?: number | undefined;
  /** A member's name or username, part of it. */
  member?: string | undefined;
}

function subscriptionConditions(filter: SubscriptionFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.userId) conditions.push(eq(subscriptions.userId, filter.userId));
  if (filter.status) conditions.push(eq(subscriptions.status, filter.status));
  if (filter.kind) conditions.push(eq(subscriptions.planKind, filter.kind));
  if (filter.planId) conditions.push(eq(subscriptions.planId, filter.planId));
  if (filter.member)
    conditions.push(
      sql`exists (select 1 from ${memberRelation} m where m.user_id = ${subscriptions.userId} and (m.name ilike ${like(filter.member)} or m.username ilike ${like(filter.member)}))`,
    );
  return conditions.length ? and(...conditions) : undefined;
}

export async function subscriptionPage(db: Db, filter: SubscriptionFilter, page: { limit: number; offset: number }) {
  const where = subscriptionConditions(filter);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(subscriptions)
      .where(where)
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count }).from(subscriptions).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

export const subscriptionsByIds = (db: Db, ids: string[]) =>
  ids.length ? db.select().from(subscriptions).where(inArray(subscriptions.id, ids)) : Promise.resolve([]);

export async function planNamesOf(db: Db, subscriptionIds: string[]) {
  if (!subscriptionIds.length) return new Map<string, string>();
  const rows = await db
    .select({ id: subscriptions.id, name: subscriptions.planName })
    .from(subscriptions)
    .where(inArray(subscriptions.id, subscriptionIds));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Active subscriptions whose end has come: expired (the state checked in the UPDATE). */
export const expireEnded = (db: Db, now: Date) =>
  db
    .update(subscriptions)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(subscriptions.status, 'active'), lte(subscriptions.endsAt, now)))
    .returning();

/** Active subscriptions within `days` of their end and not yet reminded: marked reminded. */
export const markRemindersDue = (db: Db, now: Date, until: Date) =>
  db
    .update(subscriptions)
    .set({ reminderSentAt: now })
    .where(
      and(
        eq(subscriptions.status, 'active'),
        isNull(subscriptions.reminderSentAt),
        gt(subscriptions.endsAt, now),
        lte(subscriptions.endsAt, until),
      ),
    )
    .returning();

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
  const [row] = await rowsOf<{ badge: string | null }>(
    db,
    sql`select ${sellerBadgeSql(sql`${userId}::uuid`)} as badge`,
  );
  return row?.badge ?? null;
}

export async function audit(
  db: Db,
  subscriptionId: string,
  action: string,
  actorId: string | null,
  detail: Record<string, unknown> = {},
  paymentId: string | null = null,
) {
  await db.insert(subscriptionAuditLog).values({ subscriptionId, action, actorId, detail, paymentId });
}

export const auditOf = (db: Db, subscriptionId: string) =>
  db
    .select()
    .from(subscriptionAuditLog)
    .where(eq(subscriptionAuditLog.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionAuditLog.createdAt));

// ── boosts ───────────────────────────────────────────────────────────────────────────────────

export const liveBoostsOf = (db: Db, subscriptionIds: string[]) =>
  subscriptionIds.length
    ? db
        .select()
        .from(boostedBooks)
        .where(and(inArray(boostedBooks.subscriptionId, subscriptionIds), isNull(boostedBooks.endedAt)))
        .orderBy(asc(boostedBooks.startsAt))
    : Promise.resolve([]);

export const boostHistoryOf = (db: Db, subscriptionId: string) =>
  db
    .select()
    .from(boostedBooks)
    .where(eq(boostedBooks.subscriptionId, subscriptionId))
    .orderBy(desc(boostedBooks.startsAt));

/** Whether a live boost holds the listing (of another subscription than `except`, when given). */
export async function listingBoosted(db: Db, bookIds: number[], except?: string) {
  if (!bookIds.length) return false;
  const [taken] = await db
    .select({ id: boostedBooks.id })
    .from(boostedBooks)
    .where(
      and(
        inArray(boostedBooks.bookId, bookIds),
        isNull(boostedBooks.endedAt),
        except ? ne(boostedBooks.subscriptionId, except) : undefined,
      ),
    );
  return Boolean(taken);
}

/** What ends live boosts: those of a subscription (but the listings kept), or those of a listing. */
export type BoostScope = { subscriptionId: string; keepBookIds?: number[] } | { bookId: number };

/** Ends the live boosts in scope; returns them as ended. */
export async function endBoosts(db: Db, scope: BoostScope, reason: BoostEndReason, transferable = false) {
  const where =
    'bookId' in scope
      ? eq(boostedBooks.bookId, scope.bookId)
      : and(
          eq(boostedBooks.subscriptionId, scope.subscriptionId),
          scope.keepBookIds?.length
            ? sql`${boostedBooks.bookId} <> all(${`{${scope.keepBookIds.join(',')}}`}::integer[])`
            : undefined,
        );
  return db
    .update(boostedBooks)
    .set({ endedAt: sql`now()`, endReason: reason, transferable })
    .where(and(isNull(boostedBooks.endedAt), where))
    .returning();
}

/** A transferable boost of the subscription waiting for its new listing is given up. */
export async function dropTransferable(db: Db, subscriptionId: string) {
  await db
    .update(boostedBooks)
    .set({ transferable: false })
    .where(and(eq(boostedBooks.subscriptionId, subscriptionId), eq(boostedBooks.transferable, true)));
}

/** Boosts `bookId` for the subscription until its end; null when another boost holds it. */
export async function startBoost(db: Db, sub: SubscriptionRow, book: { id: number; title: string }) {
  const [row] = await db
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

/** The subscription's live boosts now end when it does. */
export async function setBoostsEnd(db: Db, subscriptionId: string, endsAt: Date) {
  await db
    .update(boostedBooks)
    .set({ endsAt })
    .where(and(eq(boostedBooks.subscriptionId, subscriptionId), isNull(boostedBooks.endedAt)));
}

/**
 * Boosts of these listings ended as sold a moment before, in the same transaction, of an active
 * subscription: they wait for the seller to move them to another listing.
 */
export const markTransferable = (db: Db, bookIds: number[]) =>
  db
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

/** The member's boost, locked. */
export async function boostOf(db: Db, id: string, userId: string) {
  const [row] = await db
    .select()
    .from(boostedBooks)
    .where(and(eq(boostedBooks.id, id), eq(boostedBooks.userId, userId)))
    .for('update');
  return row;
}

export async function recordTransfer(db: Db, from: BoostRow, to: BoostRow, userId: string) {
  await db
    .update(boostedBooks)
    .set({ transferable: false, endReason: 'transferred' })
    .where(eq(boostedBooks.id, from.id));
  await db.insert(bookTransfers).values({
    boostedBookId: from.id,
    newBoostedBookId: to.id,
    fromBookId: from.bookId,
    toBookId: to.bookId,
    userId,
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

/** The back office's boosted listings: those running now, or those past. */
export async function boostPage(db: Db, current: boolean, page: { limit: number; offset: number }) {
  const where = current
    ? and(isNull(boostedBooks.endedAt), gt(boostedBooks.endsAt, sql`now()`))
    : or(isNotNull(boostedBooks.endedAt), sql`${boostedBooks.endsAt} <= now()`);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(boostedBooks)
      .where(where)
      .orderBy(desc(boostedBooks.startsAt), desc(boostedBooks.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count }).from(boostedBooks).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

// ── payments ─────────────────────────────────────────────────────────────────────────────────

/** A payment, `userId`'s only when given; locked until the transaction ends when asked. */
export async function paymentById(db: Db, id: string, userId: string | null, lock: boolean) {
  const where = userId ? and(eq(payments.id, id), eq(payments.userId, userId)) : eq(payments.id, id);
  const query = db.select().from(payments).where(where);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The payment of this provider with our reference, locked. */
export async function paymentByReference(db: Db, provider: string, reference: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.provider, provider)))
    .for('update');
  return row;
}

/** The payment of this provider with the provider's own id, locked. */
export async function paymentByProviderReference(db: Db, provider: string, providerReference: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.providerReference, providerReference), eq(payments.provider, provider)))
    .for('update');
  return row;
}

/** A payment still open: waiting for the payer, for an operator, or for the provider's answer. */
export async function openPaymentOf(db: Db, subscriptionId: string) {
  const [open] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(eq(payments.subscriptionId, subscriptionId), inArray(payments.status, ['pending', 'submitted', 'ambiguous'])),
    );
  return open;
}

/** Payment requests pushed to phones since `since`, by a member or to a number (free plans aside). */
export async function paymentRequestsSince(
  db: Db,
  who: { userId: string } | { payerPhone: string },
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count })
    .from(payments)
    .where(
      and(
        'userId' in who ? eq(payments.userId, who.userId) : eq(payments.payerPhone, who.payerPhone),
        gte(payments.createdAt, since),
        gt(payments.amount, 0),
        isNotNull(payments.payerPhone),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Payments whose status read is due, among `providers`, claimed for this replica: locked while it
 * writes their next time, so that another replica's sweep skips them instead of asking twice.
 */
export async function claimDueChecks(
  db: Db,
  providers: string[],
  now: Date,
  limit: number,
  next: (row: PaymentRow) => { nextCheckAt: Date | null; status?: 'ambiguous' },
) {
  const due = await db
    .select()
    .from(payments)
    .where(
      and(
        // Failed on our side only (its subscription ended) keeps its next check: money may still come.
        inArray(payments.status, ['pending', 'ambiguous', 'failed']),
        isNotNull(payments.nextCheckAt),
        lte(payments.nextCheckAt, now),
        inArray(payments.provider, providers),
      ),
    )
    .orderBy(asc(payments.nextCheckAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed: Array<{ row: PaymentRow; ask: boolean }> = [];
  for (const row of due) {
    const plan = next(row);
    const [updated] = await db
      .update(payments)
      .set({
        nextCheckAt: plan.nextCheckAt,
        ...(plan.status ? { status: plan.status } : {}),
        ...(plan.nextCheckAt ? { checks: sql`${payments.checks} + 1`, lastCheckedAt: now } : {}),
        updatedAt: now,
      })
      .where(eq(payments.id, row.id))
      .returning();
    claimed.push({ row: updated!, ask: plan.nextCheckAt !== null });
  }
  return claimed;
}

/** Nothing more to ask the provider about this payment (it gave its final word). */
export async function stopChecks(db: Db, paymentId: string) {
  await db.update(payments).set({ nextCheckAt: null }).where(eq(payments.id, paymentId));
}

/** Asks for a payment's status at once (a doorbell the provider could not answer for now). */
export async function checkSoon(db: Db, paymentId: string, at: Date) {
  await db
    .update(payments)
    .set({ nextCheckAt: at })
    .where(and(eq(payments.id, paymentId), inArray(payments.status, ['pending', 'ambiguous', 'failed'])));
}

export async function insertPayment(db: Db, values: typeof payments.$inferInsert) {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

/** Updates the payment, only while it is in one of `from` when given; undefined when it was not. */
export async function updatePayment(
  db: Db,
  id: string,
  values: Partial<typeof payments.$inferInsert>,
  from?: PaymentStatus[],
) {
  const [row] = await db
    .update(payments)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(payments.id, id), from ? inArray(payments.status, from) : undefined))
    .returning();
  return row;
}

/** A subscription's payments still open fail with it. */
export async function failOpenPayments(db: Db, subscriptionId: string, reason: string) {
  await db
    .update(payments)
    .set({ status: 'failed', failureReason: reason, updatedAt: new Date() })
    .where(and(eq(payments.subscriptionId, subscriptionId), inArray(payments.status, ['pending', 'submitted'])));
}

/** Pending payments past their time: expired (a declared one waits for its operator instead). */
export const expireDuePayments = (db: Db, now: Date) =>
  db
    .update(payments)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(payments.status, 'pending'), lte(payments.expiresAt, now), isNull(payments.nextCheckAt)))
    .returning();

export const paymentsOfSubscription = (db: Db, subscriptionId: string) =>
  db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId)).orderBy(desc(payments.createdAt));

/** The latest payment of each subscription: what a member's list says of a purchase that did not go through. */
export async function latestPaymentsOf(db: Db, subscriptionIds: string[]) {
  if (!subscriptionIds.length) return new Map<string, typeof payments.$inferSelect>();
  const rows = await db
    .selectDistinctOn([payments.subscriptionId])
    .from(payments)
    .where(inArray(payments.subscriptionId, subscriptionIds))
    .orderBy(payments.subscriptionId, desc(payments.createdAt));
  return new Map(rows.map((row) => [row.subscriptionId, row]));
}

/** A provider's event about a payment, stored once per event id (a repeat is null). */
export async function insertPaymentEvent(db: Db, values: typeof paymentEvents.$inferInsert) {
  const [row] = await db.insert(paymentEvents).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function paymentEventType(db: Db, provider: string, eventId: string) {
  const [first] = await db
    .select({ type: paymentEvents.type })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
  return first?.type;
}

export async function setPaymentEventType(db: Db, provider: string, eventId: string, type: string) {
  await db
    .update(paymentEvents)
    .set({ type })
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
}

export const paymentEventsOf = (db: Db, paymentId: string) =>
  db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId)).orderBy(asc(paymentEvents.createdAt));

export const refundsOf = (db: Db, paymentIds: string[]) =>
  paymentIds.length ? db.select().from(refunds).where(inArray(refunds.paymentId, paymentIds)) : Promise.resolve([]);

export async function insertRefund(db: Db, values: typeof refunds.$inferInsert) {
  const [row] = await db.insert(refunds).values(values).returning();
  return row!;
}

export interface PaymentFilter {
  status?: PaymentStatus | undefined;
  provider?: string | undefined;
  operator?: PaymentRow['operator'] | undefined;
  refunded?: boolean | undefined;
  /** Days of Libreville, from its midnight to the next one after `to`. */
  from?: string | undefined;
  to?: string | undefined;
  /** Our reference, the provider's, or the member's name, part of it. */
  text?: string | undefined;
}

function paymentConditions(filter: PaymentFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(payments.status, filter.status));
  if (filter.provider) conditions.push(eq(payments.provider, filter.provider));
  if (filter.operator) conditions.push(eq(payments.operator, filter.operator));
  if (filter.refunded === true) conditions.push(gt(payments.refundedAmount, 0));
  if (filter.refunded === false) conditions.push(eq(payments.refundedAmount, 0));
  if (filter.from) conditions.push(sql`${payments.createdAt} >= (${filter.from}::date::timestamp at time zone ${TZ})`);
  if (filter.to) conditions.push(sql`${payments.createdAt} < ((${filter.to}::date + 1)::timestamp at time zone ${TZ})`);
  if (filter.text)
    conditions.push(
      sql`(${payments.reference} ilike ${like(filter.text)} or ${payments.providerReference} ilike ${like(filter.text)}
        or exists (select 1 from ${memberRelation} m where m.user_id = ${payments.userId} and m.name ilike ${like(filter.text)}))`,
    );
  return conditions.length ? and(...conditions) : undefined;
}

/** A page of the back office's payments, their total, and the revenue per month (Libreville time) of the paid ones. */
export async function paymentPage(db: Db, filter: PaymentFilter, page: { limit: number; offset: number }) {
  const where = paymentConditions(filter);
  const month = sql<string>`to_char(${payments.paidAt} at time zone ${TZ}, 'YYYY-MM')`;
  const [rows, [counted], totals] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(where)
      // What needs a person first: nobody knows whether it was paid, or it waits past an hour.
      .orderBy(
        sql`case when ${payments.status} = 'ambiguous' then 0
          when ${payments.status} in ('pending', 'submitted') and ${payments.createdAt} < now() - interval '1 hour' then 1
          else 2 end`,
        desc(payments.createdAt),
        desc(payments.id),
      )
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count }).from(payments).where(where),
    db
      .select({
        month,
        paid: sql<number>`coalesce(sum(${payments.amount}), 0)::int`,
        refunded: sql<number>`coalesce(sum(${payments.refundedAmount}), 0)::int`,
        count,
      })
      .from(payments)
      .where(and(where, eq(payments.status, 'paid'), isNotNull(payments.paidAt)))
      .groupBy(month)
      .orderBy(desc(month)),
  ]);
  return { rows, total: counted?.total ?? 0, totals };
}

/**
 * The paid money per day (Libreville time), provider and operator: what an accountant matches
 * against the aggregator's statement.
 */
export function dailyTotals(db: Db, from: string, to: string) {
  const day = sql<string>`to_char(${payments.paidAt} at time zone ${TZ}, 'YYYY-MM-DD')`;
  return db
    .select({
      day,
      provider: payments.provider,
      operator: payments.operator,
      count,
      paid: sql<number>`coalesce(sum(${payments.amount}), 0)::int`,
      refunded: sql<number>`coalesce(sum(${payments.refundedAmount}), 0)::int`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'paid'),
        sql`${payments.paidAt} >= (${from}::date::timestamp at time zone ${TZ})`,
        sql`${payments.paidAt} < ((${to}::date + 1)::timestamp at time zone ${TZ})`,
      ),
    )
    .groupBy(day, payments.provider, payments.operator)
    .orderBy(day, payments.provider, payments.operator);
}

// ── figures ──────────────────────────────────────────────────────────────────────────────────

export async function subscriptionFigures(db: Db) {
  const [active, [boosted], [toValidate], revenue] = await Promise.all([
    db
      .select({ kind: subscriptions.planKind, n: count })
      .from(subscriptions)
      .where(and(eq(subscriptions.status, 'active'), gt(subscriptions.endsAt, sql`now()`)))
      .groupBy(subscriptions.planKind),
    db
      .select({ n: count })
      .from(boostedBooks)
      .where(and(isNull(boostedBooks.endedAt), gt(boostedBooks.endsAt, sql`now()`))),
    db.select({ n: count }).from(payments).where(eq(payments.status, 'submitted')),
    rowsOf<{ month: string; paid: number; refunded: number; count: number }>(
      db,
      sql`
      with months as (
        select to_char(m, 'YYYY-MM') as month
        from generate_series(
          date_trunc('month', now() at time zone ${TZ}) - interval '11 months',
          date_trunc('month', now() at time zone ${TZ}),
          interval '1 month'
        ) m
      )
      select months.month,
             coalesce(sum(p.amount), 0)::int as paid,
             coalesce(sum(p.refunded_amount), 0)::int as refunded,
             count(p.id)::int as count
      from months
      left join ${payments} p
        on p.status = 'paid' and to_char(p.paid_at at time zone ${TZ}, 'YYYY-MM') = months.month
      group by months.month
      order by months.month`,
    ),
  ]);
  return { active, boosted: boosted?.n ?? 0, toValidate: toValidate?.n ?? 0, revenue };
}
