import type { EventData, EventType } from '@cartable/contracts';
import { type Db, type EventHandler, type EventHandlers, isNewer } from '@cartable/service-kit';
import { and, eq, sql } from 'drizzle-orm';
import { memberBooks, memberConversations, userActivities, userStats, users } from '../db/schema.ts';

type BookEvent = EventData<'catalog.book.created'>;

/**
 * Keeps the book at its latest version, then recounts the member's counters from their books:
 * events that arrive late, twice or out of order cannot make the counters drift.
 */
async function keepBook(tx: Db, data: BookEvent, deleted: boolean) {
  const row = { userId: data.user_id, status: data.status, deleted, version: data.version };
  await tx
    .insert(memberBooks)
    .values({ bookId: data.book_id, ...row })
    .onConflictDoUpdate({ target: memberBooks.bookId, set: row, setWhere: isNewer(memberBooks.version) });
  const [counts] = await tx
    .select({
      total: sql<number>`count(*)::int`,
      // « Manuels disponibles »: what a buyer can still get, not the reserved ones.
      available: sql<number>`count(*) filter (where ${memberBooks.status} = 'disponible')::int`,
      sold: sql<number>`count(*) filter (where ${memberBooks.status} = 'vendu')::int`,
    })
    .from(memberBooks)
    .where(and(eq(memberBooks.userId, data.user_id), eq(memberBooks.deleted, false)));
  const values = {
    booksTotal: counts?.total ?? 0,
    booksAvailable: counts?.available ?? 0,
    booksSold: counts?.sold ?? 0,
  };
  await tx
    .insert(userStats)
    .values({ userId: data.user_id, ...values })
    .onConflictDoUpdate({ target: userStats.userId, set: { ...values, updatedAt: new Date() } });
}

/** A line of the member's activity, dated when it happened (the list is read newest first). */
async function activity(tx: Db, data: BookEvent, type: string, title: string, link: string | null) {
  await tx
    .insert(userActivities)
    .values({ userId: data.user_id, type, title, link, occurredAt: new Date(data.occurred_at) });
}

const statusLabel = (status: string) =>
  status === 'vendu' ? 'vendu' : status === 'réservé' ? 'réservé' : 'de nouveau disponible';

/**
 * Projection of catalog's events for the member's dashboard (/user/stats, /user/recent-activity):
 * auth never asks catalog on the request path.
 */
const handlers: EventHandlers = {
  'catalog.book.created': async (tx, { data }) => {
    await keepBook(tx, data, false);
    await activity(tx, data, 'book.created', `Annonce publiée : ${data.title}`, `/books/${data.book_id}`);
  },
  'catalog.book.updated': async (tx, { data }) => {
    await keepBook(tx, data, false);
  },
  'catalog.book.status_changed': async (tx, { data }) => {
    await keepBook(tx, data, false);
    await activity(
      tx,
      data,
      'book.status_changed',
      `${data.title} : ${statusLabel(data.status)}`,
      `/books/${data.book_id}`,
    );
  },
  'catalog.book.deleted': async (tx, { data }) => {
    await keepBook(tx, data, true);
    await activity(tx, data, 'book.deleted', `Annonce supprimée : ${data.title}`, null);
  },
};

/** An event about a member who has deleted their account since is simply skipped. */
export const memberActivity: EventHandlers = Object.fromEntries(
  Object.entries(handlers).map(([type, handle]) => [
    type,
    (async (tx, event) => {
      const [member] = await tx
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, (event.data as { user_id: string }).user_id));
      if (member) await (handle as EventHandler<EventType>)(tx, event);
    }) satisfies EventHandler<EventType>,
  ]),
);

/** Adds to a member's counters (a row is created at 0 first); skipped for a member not (or no longer) here. */
async function addToStats(tx: Db, userId: string, change: { messagesReceived?: number; comments?: number }) {
  const [member] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!member) return;
  await tx
    .insert(userStats)
    .values({ userId, messagesReceived: change.messagesReceived ?? 0, comments: change.comments ?? 0 })
    .onConflictDoUpdate({
      target: userStats.userId,
      set: {
        messagesReceived: sql`${userStats.messagesReceived} + ${change.messagesReceived ?? 0}`,
        comments: sql`${userStats.comments} + ${change.comments ?? 0}`,
        updatedAt: new Date(),
      },
    });
}

/** Counts the member's conversations again from the pairs held (a late or repeated message adds none). */
async function recountConversations(tx: Db, userId: string, conversationId: string) {
  const [member] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!member) return;
  await tx.insert(memberConversations).values({ userId, conversationId }).onConflictDoNothing();
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(memberConversations)
    .where(eq(memberConversations.userId, userId));
  await tx
    .insert(userStats)
    .values({ userId, conversations: row?.n ?? 0 })
    .onConflictDoUpdate({ target: userStats.userId, set: { conversations: row?.n ?? 0, updatedAt: new Date() } });
}

/**
 * The dashboard's conversations, messages received and comments (/user/stats), from messaging's
 * and moderation's events. The consumer handles each event once (processed events, in this
 * transaction), so adding one per message or comment cannot count twice.
 */
export const memberExchanges: { messaging: EventHandlers; moderation: EventHandlers } = {
  messaging: {
    'messaging.message.sent': async (tx, { data }) => {
      await recountConversations(tx, data.sender_id, data.conversation_id);
      await recountConversations(tx, data.receiver_id, data.conversation_id);
      await addToStats(tx, data.receiver_id, { messagesReceived: 1 });
    },
  },
  moderation: {
    'moderation.comment.created': async (tx, { data }) => {
      await addToStats(tx, data.author_id, { comments: 1 });
    },
  },
};
