import {
  boostEndReasons,
  mobileMoneyOperators,
  paymentStatuses,
  planKinds,
  subscriptionStatuses,
} from '@cartable/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** What a member can buy: a seller subscription (member) or a listing boost (boost). */
export const subscriptionPlans = pgTable('subscription_plans', {
  id: serial('id').primaryKey(),
  kind: text('kind', { enum: planKinds }).notNull(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** Whole FCFA. */
  price: integer('price').notNull(),
  durationDays: integer('duration_days').notNull(),
  boostSlots: integer('boost_slots').notNull().default(1),
  sellerBadge: boolean('seller_badge').notNull().default(false),
  listingsLimit: integer('listings_limit'),
  active: boolean('active').notNull().default(true),
  position: integer('position').notNull().default(0),
  /** Plans the seed wrote carry a key, so a restart never adds them twice. */
  seedKey: text('seed_key').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A plan bought by a member; the plan is copied so a later edit of the plan changes nothing here. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    planId: integer('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id),
    planKind: text('plan_kind', { enum: planKinds }).notNull(),
    planName: text('plan_name').notNull(),
    planPrice: integer('plan_price').notNull(),
    planDurationDays: integer('plan_duration_days').notNull(),
    planBoostSlots: integer('plan_boost_slots').notNull(),
    planSellerBadge: boolean('plan_seller_badge').notNull(),
    planListingsLimit: integer('plan_listings_limit'),
    /** A boost: the listing chosen at purchase, boosted once paid. */
    bookId: integer('book_id'),
    status: text('status', { enum: subscriptionStatuses }).notNull().default('pending_payment'),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_user_idx').on(t.userId, t.createdAt),
    index('subscriptions_plan_idx').on(t.planId),
    // The sweep reads the active ones by end date.
    index('subscriptions_active_ends_idx').on(t.endsAt).where(sql`status = 'active'`),
  ],
);

/** A listing a subscription puts « À la une » (a book subscription). */
export const boostedBooks = pgTable(
  'boosted_books',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    /** No foreign key: the history outlives a deleted listing (the title is kept). */
    bookId: integer('book_id').notNull(),
    bookTitle: text('book_title').notNull(),
    userId: uuid('user_id').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason', { enum: boostEndReasons }),
    transferable: boolean('transferable').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One live boost per listing; the catalogue reads the few live ones through this index.
    uniqueIndex('boosted_books_live_key').on(t.bookId).where(sql`ended_at is null`),
    index('boosted_books_subscription_idx').on(t.subscriptionId),
    index('boosted_books_user_idx').on(t.userId),
  ],
);

/** One attempt to pay a subscription (the first one or a renewal). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    userId: uuid('user_id').notNull(),
    purpose: text('purpose', { enum: ['subscription', 'renewal'] }).notNull(),
    provider: text('provider').notNull(),
    operator: text('operator', { enum: mobileMoneyOperators }).notNull(),
    payerPhone: text('payer_phone'),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: paymentStatuses }).notNull().default('pending'),
    /** Ours, CRT-…, shown to the member and sent to the provider. */
    reference: text('reference').notNull().unique(),
    providerReference: text('provider_reference'),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    failureReason: text('failure_reason'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** When the reconciliation sweep asks the provider next; null: nothing more to ask. */
    nextCheckAt: timestamp('next_check_at', { withTimezone: true }),
    /** Status reads made so far (the back-off grows with them). */
    checks: integer('checks').notNull().default(0),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // An operator's transaction id pays once.
    uniqueIndex('payments_provider_reference_key')
      .on(t.provider, t.providerReference)
      .where(sql`provider_reference is not null`),
    index('payments_subscription_idx').on(t.subscriptionId),
    index('payments_user_idx').on(t.userId, t.createdAt),
    index('payments_created_idx').on(t.createdAt),
    index('payments_open_expires_idx').on(t.expiresAt).where(sql`status in ('pending', 'submitted')`),
    index('payments_reconcile_idx')
      .on(t.nextCheckAt)
      .where(sql`status in ('pending', 'ambiguous', 'failed') and next_check_at is not null`),
    // Payment requests per paying number and hour.
    index('payments_payer_phone_idx').on(t.payerPhone, t.createdAt),
  ],
);

/** What a provider (or an operator) said about a payment, kept as received. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    paymentId: uuid('payment_id')
      .notNull()
      .references(() => payments.id),
    provider: text('provider').notNull(),
    /** The provider's id of a notification: a retried delivery repeats it and is handled once. */
    eventId: text('event_id'),
    type: text('type').notNull(),
    status: text('status', { enum: paymentStatuses }),
    detail: jsonb('detail').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_events_provider_event_key').on(t.provider, t.eventId).where(sql`event_id is not null`),
    index('payment_events_payment_idx').on(t.paymentId, t.createdAt),
  ],
);

/** A payment is refunded at most once, in full or in part. */
export const refunds = pgTable('refunds', {
  id: uuid('id').primaryKey().defaultRandom(),
  paymentId: uuid('payment_id')
    .notNull()
    .unique()
    .references(() => payments.id),
  amount: integer('amount').notNull(),
  reason: text('reason').notNull(),
  /** Who refunded; null: the system (money that came after the subscription ended). */
  createdBy: uuid('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A boost moved from a listing sold through a deal to another listing of the seller. */
export const bookTransfers = pgTable(
  'book_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    boostedBookId: uuid('boosted_book_id')
      .notNull()
      .unique()
      .references(() => boostedBooks.id),
    newBoostedBookId: uuid('new_boosted_book_id')
      .notNull()
      .references(() => boostedBooks.id),
    fromBookId: integer('from_book_id').notNull(),
    toBookId: integer('to_book_id').notNull(),
    userId: uuid('user_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('book_transfers_user_idx').on(t.userId)],
);

/** Every change of a subscription, its payments and boosts, with who made it (null: the system). */
export const subscriptionAuditLog = pgTable(
  'subscription_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    paymentId: uuid('payment_id'),
    action: text('action').notNull(),
    actorId: uuid('actor_id'),
    detail: jsonb('detail').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscription_audit_subscription_idx').on(t.subscriptionId, t.createdAt)],
);
