import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../src/data/keys';
import {
  createSseParser,
  LIVE_HIDDEN_GRACE_MS,
  LiveMessagesClient,
  type LiveMessagesEvent,
  type SseMessage,
} from '../src/data/live-messages';

/**
 * The browser side of the live conversations: the event-stream parser, and the client's
 * reconnection rules (Last-Event-ID, backoff, 401 and 429, the hidden tab), on a fake fetch.
 */
describe('createSseParser', () => {
  it('reads events split anywhere, skips heartbeats, keeps ids and retry hints', () => {
    const events: SseMessage[] = [];
    const retries: number[] = [];
    const feed = createSseParser(
      (e) => events.push(e),
      (ms) => retries.push(ms),
    );
    const text =
      'retry: 5000\n: connecté\n\nevent: ready\nid: 17\ndata: {"replayed":0,"complete":false}\n\n: ping\n\n' +
      'event: unread\r\ndata: {"unreadCount":2}\r\n\r\ndata: a\ndata: b\n\n';
    for (let i = 0; i < text.length; i += 7) feed(text.slice(i, i + 7));
    expect(retries).toEqual([5000]);
    expect(events).toEqual([
      { event: 'ready', id: '17', data: '{"replayed":0,"complete":false}' },
      { event: 'unread', data: '{"unreadCount":2}' },
      { event: 'message', data: 'a\nb' },
    ]);
  });
});

/** A fake GET /api/messages/stream: each call gets a stream the test writes to. */
function fakeServer() {
  const calls: Array<{ headers: Record<string, string>; signal: AbortSignal; push(text: string): void; end(): void }> =
    [];
  let answer: () => Response | null = () => null;
  const fetchImpl = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const headers = init?.headers as Record<string, string>;
    const fixed = answer();
    if (fixed) {
      calls.push({ headers, signal: init!.signal!, push: () => {}, end: () => {} });
      return fixed;
    }
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    calls.push({
      headers,
      signal: init!.signal!,
      push: (text) => controller.enqueue(new TextEncoder().encode(text)),
      end: () => controller.close(),
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  });
  return {
    fetchImpl: fetchImpl as unknown as typeof fetch,
    calls,
    answerWith(response: (() => Response | null) | null) {
      answer = response ?? (() => null);
    },
  };
}

function fakeDocument() {
  const listeners = new Set<() => void>();
  const doc = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    set(state: DocumentVisibilityState) {
      doc.visibilityState = state;
      for (const l of listeners) l();
    },
  };
  return doc;
}

const tick = () => vi.advanceTimersByTimeAsync(1);
const USER = '0b8f9c5e-1d2a-4c3b-9e8f-7a6b5c4d3e2f';

afterEach(() => {
  vi.useRealTimers();
});

describe('LiveMessagesClient', () => {
  it('opens with the bearer token, sets the badge from the stream, passes messages on, and replays from the last id', async () => {
    vi.useFakeTimers();
    const server = fakeServer();
    const doc = fakeDocument();
    const client = new LiveMessagesClient(server.fetchImpl, doc as never);
    const queryClient = new QueryClient();
    const seen: LiveMessagesEvent[] = [];
    client.subscribe((e) => seen.push(e));
    const release = client.acquire(USER, 'jeton', queryClient);
    await tick();
    expect(client.status).toBe('connecting');
    expect(server.calls[0]!.headers).toMatchObject({ Authorization: 'Bearer jeton', Accept: 'text/event-stream' });
    expect(server.calls[0]!.headers['Last-Event-ID']).toBeUndefined();

    server.calls[0]!.push('retry: 5000\n\nevent: ready\nid: 1000\ndata: {"replayed":0,"complete":false}\n\n');
    server.calls[0]!.push('event: unread\ndata: {"unreadCount":3}\n\n');
    server.calls[0]!.push(
      `event: message\nid: 2000\ndata: ${JSON.stringify({ conversation_id: 'c1', message: { id: 'm1' } })}\n\n`,
    );
    await tick();
    expect(client.status).toBe('open');
    expect(queryClient.getQueryData(queryKeys.messages.unreadCountOf(USER))).toEqual({ unreadCount: 3 });
    expect(seen.map((e) => e.type)).toEqual(['ready', 'message']);

    // A replica stops: the client comes back after the server's retry hint, from the last id.
    server.calls[0]!.end();
    await tick();
    expect(client.status).toBe('retrying');
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.headers['Last-Event-ID']).toBe('2000');

    release();
    await tick();
    expect(client.status).toBe('off');
    expect(server.calls[1]!.signal.aborted).toBe(true);
  });

  it('gives up on a refused session and on an `end` event, waits Retry-After on a 429, backs off on errors', async () => {
    vi.useFakeTimers();
    const server = fakeServer();
    const client = new LiveMessagesClient(server.fetchImpl, fakeDocument() as never);
    server.answerWith(() => new Response('{"message":"Non authentifié"}', { status: 401 }));
    let release = client.acquire(USER, 'périmé', new QueryClient());
    await tick();
    expect(client.status).toBe('unavailable');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.calls).toHaveLength(1);
    release();
    await tick();

    server.answerWith(() => new Response('{"message":"Trop"}', { status: 429, headers: { 'retry-after': '60' } }));
    release = client.acquire(USER, 'jeton', new QueryClient());
    await tick();
    expect(client.status).toBe('retrying');
    await vi.advanceTimersByTimeAsync(59_000);
    expect(server.calls).toHaveLength(2);
    server.answerWith(() => new Response('oops', { status: 502 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.calls).toHaveLength(3);
    // After a 502, the backoff: 2 s doubling at each failure (here the second: 2 to 4 s with jitter).
    server.answerWith(null);
    await vi.advanceTimersByTimeAsync(1_900);
    expect(server.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(2_100);
    expect(server.calls).toHaveLength(4);
    server.calls[3]!.push('event: ready\ndata: {"replayed":0,"complete":false}\n\n');
    await tick();
    expect(client.status).toBe('open');
    server.calls[3]!.push('event: end\ndata: {"reason":"session","message":"Votre session a pris fin."}\n\n');
    server.calls[3]!.end();
    await tick();
    expect(client.status).toBe('unavailable');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.calls).toHaveLength(4);
    release();
  });

  it('closes the stream when the tab stays hidden, and reopens it when it shows again', async () => {
    vi.useFakeTimers();
    const server = fakeServer();
    const doc = fakeDocument();
    const client = new LiveMessagesClient(server.fetchImpl, doc as never);
    const release = client.acquire(USER, 'jeton', new QueryClient());
    await tick();
    server.calls[0]!.push('event: ready\nid: 1000\ndata: {"replayed":0,"complete":false}\n\n');
    await tick();
    expect(client.status).toBe('open');

    doc.set('hidden');
    await vi.advanceTimersByTimeAsync(LIVE_HIDDEN_GRACE_MS - 1000);
    expect(client.status).toBe('open');
    await vi.advanceTimersByTimeAsync(1000);
    expect(client.status).toBe('paused');
    expect(server.calls[0]!.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.calls).toHaveLength(1);

    doc.set('visible');
    await tick();
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.headers['Last-Event-ID']).toBe('1000');
    release();
  });
});
