import {
  type EventData,
  SAVED_SEARCH_DIGEST_HOUR,
  SAVED_SEARCH_INSTANT_MINUTES,
  SAVED_SEARCH_MAIL_BOOKS_MAX,
  SAVED_SEARCH_MAILS_PER_DAY,
  type SavedSearchFrequency,
  type SavedSearchMatchedEvent,
} from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { and, asc, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  alertChannels,
  members,
  notices,
  notificationPreferences,
  outgoingMails,
  savedSearchAlerts,
  savedSearchMailState,
} from '../db/schema.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { recordAlertSms } from '../sms/outgoing-sms.ts';
import { savedSearchMatchText } from '../templates/saved-searches.ts';

/**
 * Saved searches' alerts (services/catalog/API.md « Saved searches »).
 *
 * Each match is an in-app notice at once and a row of saved_search_alerts. E-mails follow the
 * search's frequency: `instant`, at most one per saved search per SAVED_SEARCH_INSTANT_MINUTES
 * (matches meanwhile wait and go together in the next); `daily` and `weekly`, one digest per
 * period, at SAVED_SEARCH_DIGEST_HOUR Libreville time (weekly: on Mondays), of what came before
 * it. Never more than SAVED_SEARCH_MAILS_PER_DAY alert e-mails per member in 24 hours: past the
 * cap matches wait, nothing is lost. The pending rows are the state (PostgreSQL), and a periodic
 * pass (`sendDueSavedSearchMails`) sends what has become due.
 */

export const SAVED_SEARCH_TEMPLATE = 'saved-search-alert';
const HOUR = 3600_000;
/** Libreville is UTC+1 all year. */
const LIBREVILLE_OFFSET_HOURS = 1;

/** The start of the period `now` is in: today's (daily) or this Monday's (weekly) digest hour, or null for instant. */
export function periodStart(frequency: SavedSearchFrequency, now: Date): Date | null {
  if (frequency === 'instant') return null;
  const utcHour = SAVED_SEARCH_DIGEST_HOUR - LIBREVILLE_OFFSET_HOURS;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), utcHour));
  if (start > now) start.setUTCDate(start.getUTCDate() - 1);
  if (frequency === 'weekly') {
    // Back to Monday (getUTCDay: 0 Sunday … 1 Monday).
    start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  }
  return start;
}

async function memberOf(tx: Db, userId: string) {
  const [member] = await tx
    .select({
      name: members.name,
      email: members.email,
      emails: sql<boolean>`coalesce(${notificationPreferences.favouriteEmails}, true) and coalesce(${alertChannels.email}, true)`,
      inApp: sql<boolean>`coalesce(${notificationPreferences.favouriteNotices}, true) and coalesce(${alertChannels.inApp}, true)`,
    })
    .from(members)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, members.id))
    // The channels chosen for saved searches (alert_channels) narrow the older switches.
    .leftJoin(alertChannels, and(eq(alertChannels.userId, members.id), eq(alertChannels.kind, 'saved_searches')))
    .where(eq(members.id, userId));
  return member;
}

export type FlushOutcome = 'sent' | 'not_due' | 'capped' | 'nothing' | 'stopped';

/**
 * Sends the saved search's waiting matches in one e-mail if one is due now (its frequency, its
 * last e-mail, the member's cap), in the caller's transaction. The search's state row is locked
 * first, so the consumer and the periodic pass (or two replicas) never send it twice.
 */
export async function flushSavedSearch(tx: Db, savedSearchId: number, now = new Date()): Promise<FlushOutcome> {
  const [state] = await tx
    .select()
    .from(savedSearchMailState)
    .where(eq(savedSearchMailState.savedSearchId, savedSearchId))
    .for('update');
  if (!state) return 'nothing';
  if (state.stoppedAt) return 'stopped';
  const pending = await tx
    .select()
    .from(savedSearchAlerts)
    .where(and(eq(savedSearchAlerts.savedSearchId, savedSearchId), isNull(savedSearchAlerts.mailedAt)))
    .orderBy(desc(savedSearchAlerts.createdAt), desc(savedSearchAlerts.id));
  if (!pending.length) return 'nothing';
  // The newest match says what the search is now (its name, frequency and token).
  const latest = pending[0]!.data as SavedSearchMatchedEvent;
  const start = periodStart(latest.frequency, now);
  if (start === null) {
    const wait = SAVED_SEARCH_INSTANT_MINUTES * 60_000;
    if (state.lastMailedAt && now.getTime() - state.lastMailedAt.getTime() < wait) return 'not_due';
  } else {
    // One digest per period, of the matches from before it began.
    if (state.lastMailedAt && state.lastMailedAt >= start) return 'not_due';
    if (!pending.some((p) => p.createdAt < start)) return 'not_due';
  }
  const member = await memberOf(tx, state.userId);
  if (!member) return 'nothing';
  const [sent] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(outgoingMails)
    .where(
      and(
        eq(outgoingMails.recipient, member.email),
        eq(outgoingMails.template, SAVED_SEARCH_TEMPLATE),
        gte(outgoingMails.createdAt, new Date(now.getTime() - 24 * HOUR)),
      ),
    );
  if ((sent?.n ?? 0) >= SAVED_SEARCH_MAILS_PER_DAY) return 'capped';
  const books = pending.map((p) => (p.data as SavedSearchMatchedEvent).book);
  const mailId = `saved-search-${savedSearchId}-${pending[0]!.id}`;
  await recordMail(tx, mailId, {
    template: SAVED_SEARCH_TEMPLATE,
    to: member.email,
    data: {
      name: member.name,
      searchName: latest.name,
      summary: latest.summary,
      queryString: latest.query_string,
      frequency: latest.frequency,
      books: books.slice(0, SAVED_SEARCH_MAIL_BOOKS_MAX),
      more: Math.max(0, books.length - SAVED_SEARCH_MAIL_BOOKS_MAX),
      unsubscribeToken: latest.unsubscribe_token,
    },
  });
  // The mail's row takes its time from the database: the cap counts it at `now` in tests too.
  await tx.update(outgoingMails).set({ createdAt: now }).where(eq(outgoingMails.id, mailId));
  await tx
    .update(savedSearchAlerts)
    .set({ mailedAt: now, mailId })
    .where(
      inArray(
        savedSearchAlerts.id,
        pending.map((p) => p.id),
      ),
    );
  await tx
    .update(savedSearchMailState)
    .set({ lastMailedAt: now })
    .where(eq(savedSearchMailState.savedSearchId, savedSearchId));
  return 'sent';
}

async function matched(tx: Db, eventId: string, data: EventData<'catalog.saved_search.matched'>) {
  const member = await memberOf(tx, data.user_id);
  const { title, sentence } = savedSearchMatchText(data.name, data.book);
  if (member?.inApp ?? true)
    await tx
      .insert(notices)
      .values({
        key: `${eventId}:${data.user_id}`,
        userId: data.user_id,
        type: 'saved_search.matched',
        title,
        body: sentence,
        link: `/books/${data.book.id}`,
      })
      .onConflictDoNothing();
  // By SMS (if chosen) at each match: the member's daily SMS cap bounds them, whatever the frequency.
  await recordAlertSms(tx, `${eventId}-sms`, {
    userId: data.user_id,
    kind: 'saved_searches',
    message: {
      template: 'saved-search-match',
      data: { bookId: data.book.id, bookTitle: data.book.title, price: data.book.price, searchName: data.name },
    },
  });
  if (!member?.emails) return;
  // catalog matches active searches only: a match means the search is on (again).
  await tx
    .insert(savedSearchMailState)
    .values({ savedSearchId: data.saved_search_id, userId: data.user_id })
    .onConflictDoUpdate({ target: savedSearchMailState.savedSearchId, set: { stoppedAt: null } });
  await tx
    .insert(savedSearchAlerts)
    .values({ id: eventId, savedSearchId: data.saved_search_id, userId: data.user_id, data })
    .onConflictDoNothing();
  if (data.frequency === 'instant') await flushSavedSearch(tx, data.saved_search_id);
}

/** Unsubscribed, paused or deleted: the matches waiting for a digest are dropped. */
async function stopped(tx: Db, data: EventData<'catalog.saved_search.stopped'>) {
  await tx
    .insert(savedSearchMailState)
    .values({ savedSearchId: data.saved_search_id, userId: data.user_id, stoppedAt: new Date(data.at) })
    .onConflictDoUpdate({ target: savedSearchMailState.savedSearchId, set: { stoppedAt: new Date(data.at) } });
  await tx
    .delete(savedSearchAlerts)
    .where(and(eq(savedSearchAlerts.savedSearchId, data.saved_search_id), isNull(savedSearchAlerts.mailedAt)));
}

export const savedSearchMails: EventHandlers = {
  'catalog.saved_search.matched': (tx, { id, data }) => matched(tx, id, data),
  'catalog.saved_search.stopped': (tx, { data }) => stopped(tx, data),
};

/**
 * The periodic pass: every saved search with waiting matches gets its e-mail if one is due
 * (instant past its 15 minutes or its cap, digests at their hour), each in its own transaction.
 * Answers how many e-mails it wrote.
 */
export async function sendDueSavedSearchMails(db: Db, now = new Date()): Promise<number> {
  const waiting = await db
    .selectDistinct({ id: savedSearchAlerts.savedSearchId })
    .from(savedSearchAlerts)
    .where(and(isNull(savedSearchAlerts.mailedAt), lt(savedSearchAlerts.createdAt, now)))
    .orderBy(asc(savedSearchAlerts.savedSearchId));
  let sent = 0;
  for (const { id } of waiting) {
    if ((await db.transaction((tx) => flushSavedSearch(tx, id, now))) === 'sent') sent++;
  }
  return sent;
}

/** Runs the pass every `intervalMs`; `onSent` (the reconciler) queues what it wrote. */
export function startSavedSearchDigests({
  db,
  log,
  intervalMs,
  onSent,
}: {
  db: Db;
  log: Logger;
  intervalMs: number;
  onSent: () => void;
}) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sendDueSavedSearchMails(db)
      .then((n) => {
        if (n > 0) {
          log.info({ mails: n }, 'saved search alerts written');
          onSent();
        }
      })
      .catch((err) => log.warn({ err }, 'saved search alerts pass failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
