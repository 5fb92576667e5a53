// Types only: the live stream must not load the contracts (and zod) into the first chunk.
import type { LiveMessageEvent, LiveReadEvent, LiveReadyEvent, LiveUnreadEvent } from '@cartable/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { API_BASE } from '../api/client';
import { useSession } from '../session/session';
import { queryKeys } from './keys';

/**
 * Live conversations: one server-sent event stream per browser tab (GET /api/messages/stream)
 * brings new messages, the unread count and read receipts, so that the screens stop polling
 * while it is open and poll again (the header badge every 30 s) while it is not.
 *
 * Why fetch and not EventSource: the API takes the session as a bearer token in a header
 * (localStorage, SPEC section 3), which EventSource cannot send; a token in the URL would end up
 * in logs. A response body read as a stream does it in about a hundred lines, with our own
 * reconnection (backoff, Last-Event-ID, paused while the tab is hidden), so no library is needed.
 */

export type LiveStatus =
  /** No member signed in, or nothing asked for the stream. */
  | 'off'
  | 'connecting'
  | 'open'
  /** Dropped; a new attempt is scheduled (the screens poll meanwhile). */
  | 'retrying'
  /** The tab is hidden: closed to save data, reopened when it shows again. */
  | 'paused'
  /** Refused for good (session ended, no streaming in this browser): polling only. */
  | 'unavailable';

export type LiveMessagesEvent =
  | { type: 'message'; data: LiveMessageEvent }
  | { type: 'read'; data: LiveReadEvent }
  /** The stream is open again after a gap; `complete` false: what was missed is being refetched. */
  | { type: 'ready'; data: LiveReadyEvent };

/** First wait after a failure; doubles up to the maximum (with jitter so phones do not return together). */
export const LIVE_RETRY_MIN_MS = 2_000;
export const LIVE_RETRY_MAX_MS = 60_000;
/** A tab hidden this long closes its stream (a quick look at another app keeps it). */
export const LIVE_HIDDEN_GRACE_MS = 10_000;

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * Server-sent events parser (the WHATWG format): feed it text as it arrives, it calls `onEvent`
 * for each complete event and `onRetry` for a `retry:` field. Comments (heartbeats) are skipped.
 */
export function createSseParser(onEvent: (message: SseMessage) => void, onRetry?: (ms: number) => void) {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  return (chunk: string) => {
    buffer += chunk;
    // A chunk ending in \r may be half of a \r\n: that \r waits for the next chunk.
    const held = buffer.endsWith('\r') ? '\r' : '';
    const lines = (held ? buffer.slice(0, -1) : buffer).split(/\r\n|\r|\n/);
    buffer = (lines.pop() ?? '') + held;
    for (const line of lines) {
      if (line === '') {
        if (data.length) onEvent({ event: event || 'message', data: data.join('\n'), ...(id ? { id } : {}) });
        event = '';
        data = [];
        id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id' && !value.includes('\0')) id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) onRetry?.(Number(value));
    }
  };
}

/** Every query of conversations except the unread count (which the stream itself sends). */
const conversationQueries = (since?: number) => ({
  queryKey: queryKeys.messages.all,
  predicate: (query: { queryKey: readonly unknown[]; state: { dataUpdatedAt: number } }) =>
    query.queryKey[1] !== queryKeys.messages.unreadCount[1] &&
    (since === undefined || query.state.dataUpdatedAt < since),
});

type Fetch = typeof fetch;
interface LiveSession {
  userId: string;
  token: string;
  queryClient: QueryClient;
}

export class LiveMessagesClient {
  #status: LiveStatus = 'off';
  readonly #statusListeners = new Set<() => void>();
  readonly #listeners = new Set<(event: LiveMessagesEvent) => void>();
  #holders = 0;
  #session: LiveSession | null = null;
  #controller: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  #attempt = 0;
  #lastEventId = '';
  #everReady = false;
  #retryMs = 5_000;
  #openedAt = 0;

  constructor(
    private readonly fetchImpl: Fetch = (...args) => fetch(...args),
    private readonly doc: Pick<
      Document,
      'visibilityState' | 'addEventListener' | 'removeEventListener'
    > | null = typeof document === 'undefined' ? null : document,
  ) {}

  get status() {
    return this.#status;
  }

  /** Open and sending events: the screens stop polling. */
  get isOpen() {
    return this.#status === 'open';
  }

  subscribeStatus = (listener: () => void) => {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  };

  /** Messages and read receipts as they come (the conversation screens update their caches). */
  subscribe(listener: (event: LiveMessagesEvent) => void) {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #setStatus(status: LiveStatus) {
    if (status === this.#status) return;
    this.#status = status;
    for (const listener of this.#statusListeners) listener();
  }

  /**
   * Asks for the stream for this member and token (several screens may: one stream); returns
   * its release. Another member or token replaces the stream.
   */
  acquire(userId: string, token: string, queryClient: QueryClient): () => void {
    const same = this.#session?.userId === userId && this.#session.token === token;
    this.#holders++;
    if (!same) {
      this.#stop();
      this.#session = { userId, token, queryClient };
      this.#lastEventId = '';
      this.#everReady = false;
      this.#attempt = 0;
      this.doc?.addEventListener('visibilitychange', this.#onVisibility);
      if (typeof window !== 'undefined') window.addEventListener('online', this.#onOnline);
      this.#connect();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holders--;
      // A screen replacing another releases and acquires in one render: wait a tick.
      setTimeout(() => {
        if (this.#holders === 0) {
          this.#stop();
          this.#session = null;
        }
      }, 0);
    };
  }

  #stop() {
    clearTimeout(this.#timer);
    clearTimeout(this.#hiddenTimer);
    this.#controller?.abort();
    this.#controller = null;
    this.doc?.removeEventListener('visibilitychange', this.#onVisibility);
    if (typeof window !== 'undefined') window.removeEventListener('online', this.#onOnline);
    this.#setStatus('off');
  }

  #onVisibility = () => {
    if (!this.#session || this.#status === 'unavailable') return;
    if (this.doc?.visibilityState === 'hidden') {
      clearTimeout(this.#hiddenTimer);
      this.#hiddenTimer = setTimeout(() => {
        clearTimeout(this.#timer);
        this.#controller?.abort();
        this.#controller = null;
        this.#setStatus('paused');
      }, LIVE_HIDDEN_GRACE_MS);
    } else {
      clearTimeout(this.#hiddenTimer);
      if (this.#status === 'paused' || this.#status === 'retrying') {
        this.#attempt = 0;
        this.#connect();
      }
    }
  };

  #onOnline = () => {
    if (this.#status === 'retrying') {
      this.#attempt = 0;
      this.#connect();
    }
  };

  #retryLater(delayMs?: number) {
    if (!this.#session) return;
    this.#attempt++;
    const backoff = Math.min(LIVE_RETRY_MAX_MS, LIVE_RETRY_MIN_MS * 2 ** (this.#attempt - 1));
    const delay = delayMs ?? backoff * (0.5 + Math.random() / 2);
    this.#setStatus('retrying');
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#connect(), delay);
  }

  #connect() {
    const session = this.#session;
    if (!session) return;
    clearTimeout(this.#timer);
    this.#controller?.abort();
    if (this.doc?.visibilityState === 'hidden') {
      this.#setStatus('paused');
      return;
    }
    if (typeof ReadableStream === 'undefined') {
      this.#setStatus('unavailable');
      return;
    }
    const controller = new AbortController();
    this.#controller = controller;
    if (this.#status !== 'retrying') this.#setStatus('connecting');
    void this.#run(session, controller).catch(() => {
      if (!controller.signal.aborted) this.#retryLater();
    });
  }

  async #run(session: LiveSession, controller: AbortController) {
    const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${session.token}` };
    if (this.#lastEventId) headers['Last-Event-ID'] = this.#lastEventId;
    const response = await this.fetchImpl(`${API_BASE}/messages/stream`, {
      headers,
      signal: controller.signal,
      cache: 'no-store',
    });
    if (response.status === 401 || response.status === 403) {
      // The session is over or not allowed: the ordinary calls (polling) will say so.
      this.#setStatus('unavailable');
      return;
    }
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after'));
      this.#retryLater(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined);
      return;
    }
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !response.body || !type.startsWith('text/event-stream')) {
      this.#retryLater();
      return;
    }
    this.#openedAt = Date.now();
    let ended = false;
    const parse = createSseParser(
      (message) => {
        if (message.id) this.#lastEventId = message.id;
        if (message.event === 'end') ended = true;
        this.#handle(session, message);
      },
      (ms) => {
        this.#retryMs = ms;
      },
    );
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parse(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Cut (network change, proxy): reconnect below.
    }
    if (controller.signal.aborted || this.#session !== session) return;
    if (ended) {
      this.#setStatus('unavailable');
      return;
    }
    // The server closed it (a replica stopping): back after its retry hint, then the backoff.
    this.#retryLater(this.#attempt === 0 ? this.#retryMs : undefined);
  }

  #handle(session: LiveSession, message: SseMessage) {
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    const { queryClient } = session;
    switch (message.event) {
      case 'ready':
      case 'resync': {
        const ready = data as LiveReadyEvent;
        this.#attempt = 0;
        this.#setStatus('open');
        if (!this.#everReady) {
          // First connection: what was fetched before the stream listened may lack a message.
          // (A fetch still in flight is kept, not started again.)
          void queryClient.invalidateQueries(conversationQueries(this.#openedAt), { cancelRefetch: false });
        } else if (!ready.complete) {
          void queryClient.invalidateQueries(conversationQueries(), { cancelRefetch: false });
        }
        this.#everReady = true;
        this.#emit({ type: 'ready', data: ready });
        return;
      }
      case 'unread':
        queryClient.setQueryData(queryKeys.messages.unreadCountOf(session.userId), data as LiveUnreadEvent);
        return;
      case 'message':
      case 'read':
        // Screens not on display fetch again when they show; those on display update from the event.
        void queryClient.invalidateQueries({ ...conversationQueries(), type: 'inactive', refetchType: 'none' });
        this.#emit({ type: message.event, data } as LiveMessagesEvent);
        return;
      case 'end':
        this.#setStatus('unavailable');
        return;
    }
  }

  #emit(event: LiveMessagesEvent) {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A screen's cache update failing must not stop the stream.
      }
    }
  }
}

/** The tab's one stream, shared by the shell and the remotes (libs/ui is a federated singleton). */
export const liveMessages = new LiveMessagesClient();

/** Whether the stream is open now (outside React: a mutation deciding whether to refetch). */
export const isLiveMessagesOpen = () => liveMessages.isOpen;

/**
 * Keeps the stream open for the signed-in member while the calling component is mounted (the
 * header's envelope); returns whether it is open, for the screens to stop polling meanwhile.
 */
export function useLiveMessages(userId: string | null | undefined): boolean {
  const queryClient = useQueryClient();
  const { token } = useSession();
  useEffect(() => {
    if (!userId || !token) return;
    return liveMessages.acquire(userId, token, queryClient);
  }, [userId, token, queryClient]);
  return useLiveMessagesOpen();
}

/** Whether the stream is open, without asking for it. */
export function useLiveMessagesOpen(): boolean {
  return useSyncExternalStore(
    liveMessages.subscribeStatus,
    () => liveMessages.isOpen,
    () => false,
  );
}

/** Calls `listener` for each message and read receipt of the stream while mounted. */
export function useLiveMessageEvents(listener: (event: LiveMessagesEvent) => void) {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => liveMessages.subscribe((event) => latest.current(event)), []);
}
