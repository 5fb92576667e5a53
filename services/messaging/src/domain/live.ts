import { type Envelope, type LiveEvent, messages as m } from '@cartable/contracts';
import { type Db, tooManyRequests } from '@cartable/service-kit';
import type { Logger } from 'pino';
import { countUnread, findConversationById, messagesOfMemberSince } from '../db/queries.ts';
import { toMessage } from './conversations.ts';

/**
 * Live conversations (GET /messages/stream): who is connected to this replica, and what each
 * connected member is told when messaging's events go by. Every replica sees every event
 * (src/events/live-feed.ts), and tells only its own connections; nothing here polls the
 * database per connection: a query runs only when an event concerns a connected member.
 */

/** One open stream, as the hub sees it (src/routes/stream.ts writes it to the socket). */
export interface LiveConnection {
  readonly memberId: string;
  send(event: LiveEvent): void;
  /** Ends the stream (the replica stops): the client reconnects, to another replica. */
  close(): void;
}

export interface LiveLimits {
  perMember: number;
  total: number;
}

/** A message's event id: its creation time in ms, which the replay after a reconnection starts from. */
export const liveEventId = (createdAt: Date | string) => String(new Date(createdAt).getTime());

/**
 * A message's `created_at` is its transaction's start; a transaction that started earlier may
 * commit later. The replay reaches this far before the last id the client saw (the client drops
 * the messages it already has, by id).
 */
export const REPLAY_MARGIN_MS = 5_000;
/** Past this many missed messages, or this long, the client fetches its conversations instead. */
export const REPLAY_LIMIT = 100;
export const REPLAY_MAX_AGE_MS = 24 * 3600_000;

/** The last ids seen, so that an event the relay published twice is told once. */
class RecentIds {
  readonly #ids = new Set<string>();
  constructor(readonly max: number) {}
  /** True the first time an id is seen. */
  add(id: string) {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.max) this.#ids.delete(this.#ids.values().next().value as string);
    return true;
  }
}

export class LiveHub {
  readonly #byMember = new Map<string, Set<LiveConnection>>();
  #total = 0;
  /** Unread counts being computed, per member: a burst of events costs one or two queries. */
  readonly #unread = new Map<string, { again: boolean }>();
  readonly #seen = new RecentIds(2000);

  constructor(
    readonly db: Db,
    readonly limits: LiveLimits,
    readonly log: Pick<Logger, 'warn'>,
  ) {}

  /**
   * Registers a connection; 429 in French beyond the member's or the replica's limit. Returns
   * its removal (safe to call twice).
   */
  admit(connection: LiveConnection): () => void {
    const mine = this.#byMember.get(connection.memberId);
    if ((mine?.size ?? 0) >= this.limits.perMember) throw tooManyRequests(m.messaging.tooManyStreams);
    if (this.#total >= this.limits.total) throw tooManyRequests(m.messaging.streamsFull);
    const set = mine ?? new Set<LiveConnection>();
    set.add(connection);
    this.#byMember.set(connection.memberId, set);
    this.#total++;
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      set.delete(connection);
      if (set.size === 0 && this.#byMember.get(connection.memberId) === set) this.#byMember.delete(connection.memberId);
      this.#total--;
    };
  }

  /** Open streams on this replica (all, or one member's). */
  connections(memberId?: string) {
    return memberId === undefined ? this.#total : (this.#byMember.get(memberId)?.size ?? 0);
  }

  #send(memberId: string, event: LiveEvent) {
    for (const connection of this.#byMember.get(memberId) ?? []) connection.send(event);
  }

  /** The member's unread count, computed once for a burst of events, sent to each of their streams. */
  refreshUnread(memberId: string) {
    const running = this.#unread.get(memberId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.#unread.set(memberId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          if (!this.connections(memberId)) return;
          const unreadCount = await countUnread(this.db, memberId);
          this.#send(memberId, { event: 'unread', data: { unreadCount } });
        } while (state.again);
      } catch (err) {
        // The database is away: the client's own fetches will say so; the next event tries again.
        this.log.warn({ err: (err as Error).message }, 'live unread count failed');
      } finally {
        this.#unread.delete(memberId);
      }
    })();
  }

  /** An event of messaging's stream: each party connected here is told what concerns them. */
  async dispatch(envelope: Envelope) {
    if (this.#total === 0 || !this.#seen.add(envelope.id)) return;
    if (envelope.type === 'messaging.message.sent') {
      const data = (envelope as Envelope<'messaging.message.sent'>).data;
      const row = {
        id: data.message_id,
        conversationId: data.conversation_id,
        senderId: data.sender_id,
        receiverId: data.receiver_id,
        content: data.content,
        readAt: null,
        createdAt: new Date(data.created_at),
      };
      const id = liveEventId(data.created_at);
      for (const party of [data.sender_id, data.receiver_id]) {
        if (!this.connections(party)) continue;
        this.#send(party, {
          event: 'message',
          id,
          data: { conversation_id: data.conversation_id, message: toMessage(row, party, data.book_id) },
        });
      }
      this.refreshUnread(data.receiver_id);
    } else if (envelope.type === 'messaging.message.read') {
      const data = (envelope as Envelope<'messaging.message.read'>).data;
      this.refreshUnread(data.reader_id);
      // The receipt goes to both parties (the writer's « Vu », the reader's other tabs).
      const conversation = await findConversationById(this.db, data.conversation_id);
      if (!conversation) return;
      const receipt = {
        conversation_id: data.conversation_id,
        book_id: conversation.bookId,
        reader_id: data.reader_id,
        count: data.count,
        read_at: envelope.occurred_at,
      };
      for (const party of [conversation.memberA, conversation.memberB]) {
        if (this.connections(party)) this.#send(party, { event: 'read', data: receipt });
      }
    }
  }

  /** NATS came back after an outage: events may have been missed, every client fetches once. */
  resync() {
    for (const [memberId] of this.#byMember) {
      this.#send(memberId, { event: 'resync', data: { replayed: 0, complete: false } });
      this.refreshUnread(memberId);
    }
  }

  /** The replica stops: every stream ends, and the clients reconnect elsewhere. */
  closeAll() {
    for (const set of [...this.#byMember.values()]) for (const connection of [...set]) connection.close();
  }
}

/**
 * What a reconnecting client missed since `lastEventId` (the creation time of the last message
 * it was told of): the messages since, as `message` events, and whether that is all of it.
 */
export async function replaySince(db: Db, me: string, lastEventId: string | undefined) {
  const since = lastEventId && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : null;
  if (since === null || Date.now() - since > REPLAY_MAX_AGE_MS) return { events: [], complete: false };
  const rows = await messagesOfMemberSince(db, me, new Date(since - REPLAY_MARGIN_MS), REPLAY_LIMIT + 1);
  // Too many to be worth a replay: one fetch of the conversations costs less.
  if (rows.length > REPLAY_LIMIT) return { events: [], complete: false };
  const events: LiveEvent[] = rows.map(({ message, bookId }) => ({
    event: 'message',
    id: liveEventId(message.createdAt),
    data: { conversation_id: message.conversationId, message: toMessage(message, me, bookId) },
  }));
  return { events, complete: true };
}
