import { PassThrough } from 'node:stream';
import { type LiveEvent, messages as m } from '@cartable/contracts';
import { bearerToken, type Db, DomainError, type Guards, HttpError } from '@cartable/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type LiveConnection, type LiveHub, replaySince } from '../domain/live.ts';

type HookArgs = Parameters<Guards['requireVerified']>;

/** How long the browser waits before reconnecting after the stream drops (the `retry:` field). */
export const STREAM_RETRY_MS = 5_000;
/** A 429's Retry-After: the client polls meanwhile. */
const RETRY_AFTER_SECONDS = 60;
/** A client this far behind (bytes not yet taken by the socket) is cut; it reconnects and replays. */
const MAX_BACKLOG_BYTES = 64 * 1024;
/** Revocation checks that could not be answered (Redis and auth both away) before the stream ends. */
const MAX_UNKNOWN_CHECKS = 3;

/** One server-sent event: JSON on one `data:` line (JSON.stringify never writes a line break). */
export function formatEvent(event: LiveEvent): string {
  const id = 'id' in event && event.id ? `id: ${event.id}\n` : '';
  return `${id}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * One member's live stream on an open response: the messages since `Last-Event-ID` replayed,
 * then what the hub sends, a ping every heartbeat, and the token checked again at each one (a
 * logout, a password change, a deactivation or a deletion ends the stream within a heartbeat).
 */
export function openLiveStream(
  {
    app,
    guards,
    live,
    db,
    heartbeatMs,
  }: {
    app: FastifyInstance;
    guards: Guards;
    live: LiveHub;
    db: Db;
    heartbeatMs: number;
  },
  request: FastifyRequest,
  reply: FastifyReply,
) {
  /** The stream's token as it stands now: still good, ended (revoked, expired), or unknown. */
  async function sessionState(request: HookArgs[0], reply: HookArgs[1], token: string) {
    const probe = { headers: { authorization: `Bearer ${token}` }, log: request.log } as unknown as HookArgs[0];
    try {
      await guards.requireVerified.call(app, probe, reply);
      return 'valid' as const;
    } catch (err) {
      return err instanceof HttpError && err.statusCode === 503 ? ('unknown' as const) : ('ended' as const);
    }
  }

  const me = request.claims!.sub;
  const token = bearerToken(request)!;
  const body = new PassThrough();
  let ready = false;
  let ended = false;
  const pending: LiveEvent[] = [];
  let timer: NodeJS.Timeout | undefined;

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    remove();
    body.end();
  };
  const write = (text: string) => {
    if (ended) return;
    if (body.writableLength > MAX_BACKLOG_BYTES) {
      request.log.warn('live stream client too far behind; closing it');
      end();
      return;
    }
    body.write(text);
  };
  const connection: LiveConnection = {
    memberId: me,
    send: (event) => (ready ? write(formatEvent(event)) : pending.push(event)),
    close: end,
  };

  let remove: () => void;
  // From now on every event concerning the member reaches this connection (kept in `pending`
  // until the replay is written): a later reconnection replays from this instant.
  const registeredAt = Date.now();
  try {
    remove = live.admit(connection);
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'too_many') {
      return reply.status(429).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ message: err.message });
    }
    throw err;
  }
  // The client went away (or the gateway closed the upstream): nothing stays registered.
  reply.raw.once('close', end);

  reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    // Never cached nor transformed (compressed) on the way; nginx must not buffer it.
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no')
    // A stream is sent as it is (the schema above documents it; nothing is serialised).
    .send(body as unknown as string);
  // The headers leave with this first chunk: the client knows the stream is open.
  write(`retry: ${STREAM_RETRY_MS}\n: connecté\n\n`);

  void (async () => {
    const lastEventId = request.headers['last-event-id'];
    const replay = await replaySince(db, me, typeof lastEventId === 'string' ? lastEventId : undefined).catch(
      (err: unknown) => {
        request.log.warn({ err: (err as Error).message }, 'live stream replay failed');
        return { events: [] as LiveEvent[], complete: false };
      },
    );
    if (ended) return;
    for (const event of replay.events) write(formatEvent(event));
    write(
      formatEvent({
        event: 'ready',
        id: String(registeredAt),
        data: { replayed: replay.events.length, complete: replay.complete },
      }),
    );
    ready = true;
    // Live events that came in during the replay, minus the messages it already sent.
    const seen = new Set(replay.events.flatMap((e) => (e.event === 'message' ? [e.data.message.id] : [])));
    for (const event of pending.splice(0)) {
      if (event.event === 'message' && seen.has(event.data.message.id)) continue;
      write(formatEvent(event));
    }
    live.refreshUnread(me);

    let unknown = 0;
    timer = setInterval(() => {
      write(': ping\n\n');
      void sessionState(request, reply, token).then((state) => {
        if (ended) return;
        unknown = state === 'unknown' ? unknown + 1 : 0;
        if (state === 'ended' || unknown >= MAX_UNKNOWN_CHECKS) {
          if (state === 'ended') {
            write(formatEvent({ event: 'end', data: { reason: 'session', message: m.messaging.streamSessionEnded } }));
          }
          end();
        }
      });
    }, heartbeatMs);
  })();
  return reply;
}
