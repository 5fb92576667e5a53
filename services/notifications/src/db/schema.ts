import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export { processedEvents } from '@cartable/service-kit';

/**
 * Projection of auth's members: where to write to them (addresses are never shown elsewhere), and
 * whether an administrator deactivated them (no reminder nobody asked for reaches them then).
 * `statusVersion`: the member's version at the last (de)activation heard, so a late event loses.
 */
export const members = pgTable('members', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
  statusVersion: integer('status_version').notNull().default(0),
});

/** When a member was last told of a new message in a conversation (one e-mail per 15 minutes). */
export const messageNotices = pgTable(
  'message_notices',
  {
    conversationId: uuid('conversation_id').notNull(),
    receiverId: uuid('receiver_id').notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.receiverId] })],
);

/**
 * Every e-mail to send, written in the consumer's transaction before anything reaches Redis:
 * this row is the truth, BullMQ only carries the work. The id is the idempotency key (the
 * event id, or `<event id>-notice` / `-copy`).
 */
export const outgoingMails = pgTable(
  'outgoing_mails',
  {
    id: text('id').primaryKey(),
    template: text('template').notNull(),
    recipient: text('recipient').notNull(),
    data: jsonb('data').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'abandoned'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a reconciler first put it in the queue (null: never, so the next quick pass does). */
    enqueuedAt: timestamp('enqueued_at', { withTimezone: true }),
    /** Not before this: the backoff after a failed send, kept here so it outlives Redis. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outgoing_mails_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`)],
);

/**
 * The in-app notice centre: what happened that concerns the member (a favourite reserved, sold or
 * cheaper; a deal proposed, confirmed, declined or cancelled), newest first, kept 90 days
 * (housekeeping). `key` makes each notice once per event and member: a redelivery adds nothing.
 */
export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull().unique(),
    userId: uuid('user_id').notNull(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A path of the site (/books/12, /transactions/…), or null. */
    link: text('link'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notices_user_created_idx').on(t.userId, t.createdAt),
    index('notices_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('notices_created_idx').on(t.createdAt),
  ],
);

/**
 * Who follows which listing, projected from catalog.favourite.added/removed: a change of the book
 * reaches its followers through one event (bounded, whatever their number). `changedAt` is the
 * catalog time of the last add or removal: an older event arriving late changes nothing.
 */
export const favouriteWatchers = pgTable(
  'favourite_watchers',
  {
    userId: uuid('user_id').notNull(),
    bookId: integer('book_id').notNull(),
    active: boolean('active').notNull(),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.bookId] }),
    index('favourite_watchers_book_idx').on(t.bookId).where(sql`${t.active}`),
  ],
);

/**
 * A member's notification choices. Kept here rather than in auth's profile: notifications is the
 * only service that reads them, at the moment it decides to write a mail or a notice, so no event
 * or projection is needed and a change applies to the very next event. No row: the defaults (on).
 */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id').primaryKey(),
  favouriteEmails: boolean('favourite_emails').notNull().default(true),
  favouriteNotices: boolean('favourite_notices').notNull().default(true),
  /** « Ma liste »: a book still missing from a saved class list was listed near the member. */
  classListEmails: boolean('class_list_emails').notNull().default(true),
  classListNotices: boolean('class_list_notices').notNull().default(true),
  /**
   * The proof carried by the alert mails' one-click unsubscribe (RFC 8058): random, made with the
   * first alert mail, so a link works without a login and names nobody.
   */
  unsubscribeToken: text('unsubscribe_token').unique(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Saved searches' matches waiting for an e-mail (catalog.saved_search.matched, keyed by the
 * event id): `mailedAt` and `mailId` once an alert or a digest listed them. The in-app notice is
 * written at once; the e-mail follows the search's frequency and the member's daily cap
 * (events/saved-search-mails.ts), so the pending rows are the digest's state: a Redis restart
 * loses nothing.
 */
export const savedSearchAlerts = pgTable(
  'saved_search_alerts',
  {
    id: text('id').primaryKey(),
    savedSearchId: integer('saved_search_id').notNull(),
    userId: uuid('user_id').notNull(),
    /** The event's payload (name, frequency, summary, token, book). */
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    mailId: text('mail_id'),
  },
  (t) => [index('saved_search_alerts_pending_idx').on(t.savedSearchId, t.createdAt).where(sql`${t.mailedAt} is null`)],
);

/** Per saved search: when its last e-mail went (one per period), locked while one is decided. */
export const savedSearchMailState = pgTable('saved_search_mail_state', {
  savedSearchId: integer('saved_search_id').primaryKey(),
  userId: uuid('user_id').notNull(),
  lastMailedAt: timestamp('last_mailed_at', { withTimezone: true }),
  /** Unsubscribed, paused or deleted (catalog.saved_search.stopped); a new match clears it. */
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
});

/**
 * A member's verified phone for SMS alerts (E.164), one member per number. `stoppedAt`: the
 * member answered « STOP »; no SMS goes to the number until it is verified again.
 */
export const alertPhones = pgTable('alert_phones', {
  userId: uuid('user_id').primaryKey(),
  phone: text('phone').notNull().unique(),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }),
});

/**
 * The 6-digit codes sent to verify a phone: only their hash (salted with the member and the
 * number), single use, with an expiry and a count of wrong tries. The rows are also the limits'
 * memory: codes per number and per member in 24 hours.
 */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('phone_codes_user_created_idx').on(t.userId, t.createdAt),
    index('phone_codes_phone_created_idx').on(t.phone, t.createdAt),
  ],
);

/**
 * Per member and kind of alert (saved_searches, class_list, messages, deals, payments), the
 * channels chosen. No row: e-mail and in-app on, SMS off. « Ma liste »'s e-mail and in-app
 * choices stay in notification_preferences (their older switches), its SMS choice is here.
 */
export const alertChannels = pgTable(
  'alert_channels',
  {
    userId: uuid('user_id').notNull(),
    kind: text('kind').notNull(),
    email: boolean('email').notNull().default(true),
    sms: boolean('sms').notNull().default(false),
    inApp: boolean('in_app').notNull().default(true),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    index('alert_channels_sms_idx').on(t.userId).where(sql`${t.sms}`),
  ],
);

/**
 * Every SMS to send, as outgoing_mails for e-mails: written in the transaction that decides it,
 * keyed by its idempotency key (`<event id>-sms`, `code-<code id>`, `stop-<inbound id>`), sent
 * once by the sms queue's worker, then followed by the provider's delivery receipts. `capped`:
 * past the member's daily cap, never sent (kept for the figures). `notBefore`: quiet hours or a
 * retry's backoff.
 */
export const outgoingSms = pgTable(
  'outgoing_sms',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    phone: text('phone').notNull(),
    /** An alert kind, or 'verification' / 'stop' (never capped). */
    kind: text('kind').notNull(),
    template: text('template').notNull(),
    data: jsonb('data').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'delivered', 'failed', 'capped', 'cancelled'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    providerId: text('provider_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    enqueuedAt: timestamp('enqueued_at', { withTimezone: true }),
    notBefore: timestamp('not_before', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    index('outgoing_sms_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`),
    index('outgoing_sms_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * The school year's reminders already decided: one per member, season (vendre, acheter) and
 * year (Libreville's calendar year: each season lies within one), inserted before its notice, e-mail and SMS in the same
 * transaction, so two replicas or a run after a crash never remind twice.
 */
export const schoolYearReminders = pgTable(
  'school_year_reminders',
  {
    userId: uuid('user_id').notNull(),
    season: text('season', { enum: ['vendre', 'acheter'] }).notNull(),
    year: integer('year').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.season, t.year] })],
);
