import type { EventData, EventType } from '@cartable/contracts';
import type { Db, EventHandler, EventHandlers } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';

type BookEvent = EventData<'catalog.book.created'>;

/**
 * Keeps the book at its latest version, then recounts the member's counters from their books:
 * events that arrive late, twice or out of order cannot make the counters drift.
 */
async function keepBook(tx: Db, data: BookEvent, deleted: boolean) {
  await queries.keepMemberBook(tx, {
    bookId: data.book_id,
    userId: data.user_id,
    status: data.status,
    deleted,
    version: data.version,
  });
  await queries.recountBooks(tx, data.user_id);
}

/** A line of the member's activity, dated when it happened (the list is read newest first). */
const activity = (tx: Db, data: BookEvent, type: string, title: string, link: string | null) =>
  queries.insertActivity(tx, { userId: data.user_id, type, title, link, occurredAt: new Date(data.occurred_at) });

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
      if (await queries.memberExists(tx, (event.data as { user_id: string }).user_id))
        await (handle as EventHandler<EventType>)(tx, event);
    }) satisfies EventHandler<EventType>,
  ]),
);

/** Adds to a member's counters; skipped for a member not (or no longer) here. */
async function addToStats(tx: Db, userId: string, change: { messagesReceived?: number; comments?: number }) {
  if (await queries.memberExists(tx, userId)) await queries.addToStats(tx, userId, change);
}

/** Counts the member's conversations again from the pairs held (a late or repeated message adds none). */
async function recountConversations(tx: Db, userId: string, conversationId: string) {
  if (await queries.memberExists(tx, userId)) await queries.recountConversations(tx, userId, conversationId);
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

/** Blocks from messaging: neither member of a blocked pair reads the other's e-mail and phone. */
export { memberBlocksProjection } from '@cartable/service-kit';
