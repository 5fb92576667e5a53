import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { streamName } from '@cartable/contracts';
import {
  cacheRevokedToken,
  connectNats,
  createGuards,
  createRedis,
  createRevocationChecker,
  jetstreamManager,
  loadConfig,
  markRevocationCacheLoaded,
  type OutboxRelay,
  openDatabase,
  startOutboxRelay,
  type TokenVerifier,
  UnitOfWork,
} from '@cartable/service-kit';
import { testTokens } from '@cartable/service-kit/testing';
import { testDatabase } from '@cartable/stack/databases';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMessagingApp } from '../src/app.ts';
import { messagingConfigSchema } from '../src/config.ts';
import * as schema from '../src/db/schema.ts';
import { LiveHub } from '../src/domain/live.ts';
import { type LiveFeed, startLiveFeed } from '../src/events/live-feed.ts';

/**
 * Live conversations on real processes: two
 * replicas of messaging on one PostgreSQL database, the outbox relay publishing to a real NATS
 * JetStream, each replica fed by the events and serving GET /messages/stream over HTTP; tokens
 * checked against a real Redis revocation cache, as auth writes it at logout.
 */
const HEARTBEAT_MS = 300;
const BOOK = 7;
const log = pino({ level: 'silent' });
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
let namespace = '';
let prefix = '';
let cleanup: Array<() => Promise<unknown>> = [];
let tokens: Awaited<ReturnType<typeof testTokens>>;
let relay: OutboxRelay;
const replicas: Array<{ url: string; live: LiveHub; app: Awaited<ReturnType<typeof buildMessagingApp>> }> = [];
const seller = { sub: randomUUID(), token: '' };
const buyer = { sub: randomUUID(), token: '' };
const stranger = { sub: randomUUID(), token: '' };
let feeds: LiveFeed[] = [];

beforeAll(async () => {
  const database = await testDatabase('messaging');
  namespace = database.id;
  prefix = `cartable:${database.id}:`;
  const opened = await openDatabase({
    name: 'messaging',
    url: database.url,
    dataDir: database.dataDir,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  const db = opened.db;
  const nc = await connectNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'messaging-stream-test');
  relay = startOutboxRelay({ db, nats: nc, namespace, log, pollMs: 60_000 });

  tokens = await testTokens();
  // The service's guards as in production: signature, then the revocation cache (Redis).
  const verifier: TokenVerifier = {
    verify: (token) => tokens.guards.authenticate({ headers: { authorization: `Bearer ${token}` } } as never),
  };
  await markRevocationCacheLoaded(redis, prefix);
  const guards = createGuards(verifier, {
    revocation: createRevocationChecker({
      redis,
      prefix,
      authUrl: 'http://127.0.0.1:9',
      internalServiceToken: 'x'.repeat(32),
      statusCacheMs: 0,
      log,
    }),
  });

  for (const member of [seller, buyer, stranger]) member.token = (await tokens.token({ sub: member.sub })).token;
  await db.insert(schema.members).values([
    { id: seller.sub, name: 'Aïcha Mboumba', username: 'aicha' },
    { id: buyer.sub, name: 'Jean Ndong', username: 'jean' },
    { id: stranger.sub, name: 'Ulrich Moussavou', username: 'ulrich' },
  ]);
  await db
    .insert(schema.books)
    .values({ id: BOOK, ownerId: seller.sub, title: 'Physique-Chimie 2nde', price: 4000, status: 'disponible' });

  // Two replicas, the second with small limits for the 429 tests.
  for (const limits of [
    { perMember: 2, total: 100 },
    { perMember: 5, total: 3 },
  ]) {
    const config = loadConfig(messagingConfigSchema, {
      MESSAGING_DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      EVENT_NAMESPACE: namespace,
      MESSAGE_STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS),
      MESSAGE_STREAM_MAX_PER_MEMBER: String(limits.perMember),
      MESSAGE_STREAM_MAX_CONNECTIONS: String(limits.total),
    });
    const live = new LiveHub(db, limits, log);
    const app = await buildMessagingApp({ config, uow: new UnitOfWork({ db, relay, log }), guards, live }, [], false);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const feed = startLiveFeed({ nc, namespace, hub: live, log });
    await feed.ready();
    feeds.push(feed);
    replicas.push({ url, live, app });
  }

  cleanup = [
    async () => {
      for (const r of replicas) {
        // fetch (undici) in this same process keeps a socket to each server after an aborted
        // stream, which Node's close would wait for: the clients are done, cut them.
        r.app.server.closeAllConnections();
        await r.app.close();
      }
    },
    async () => {
      for (const f of feeds) f.stop();
      feeds = [];
    },
    () => relay.stop(),
    async () => {
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(streamName('messaging', namespace)).catch(() => false);
    },
    () => nc.drain(),
    async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
    () => opened.close(),
    () => database.drop(),
  ];
});

afterAll(async () => {
  for (const step of cleanup) await step().catch(() => {});
});

interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
  at: number;
}

/** A client of the stream: fetch with the bearer header (as the browser does), events parsed as they come. */
async function openStream(base: string, who: { token: string }, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${base}/messages/stream`, {
    headers: { authorization: `Bearer ${who.token}`, accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  let raw = '';
  let closed = false;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of waiters) w();
  };
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(chunk, { stream: true });
          raw += text;
          buffer += text;
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':') || !line.includes(':')) continue;
              const at = line.indexOf(':');
              fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
            }
            if (fields.event) {
              events.push({
                event: fields.event,
                ...(fields.id ? { id: fields.id } : {}),
                data: JSON.parse(fields.data ?? 'null'),
                at: Date.now(),
              });
            }
            cut = buffer.indexOf('\n\n');
          }
          notify();
        }
      } catch {
        // aborted
      }
      closed = true;
      notify();
    })();
  }
  return {
    response,
    events,
    raw: () => raw,
    closed: () => closed,
    /** The first event (from `from` on) that matches, or a failure after `timeoutMs`. */
    next(match: (e: SseEvent) => boolean, timeoutMs = 3000, from = 0): Promise<SseEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (found) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms: ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    /** Resolves when the server has ended the stream. */
    ended(timeoutMs = 3000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (closed) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => reject(new Error('the stream did not end')), timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

async function send(base: string, from: { token: string }, to: { sub: string }, content: string) {
  const response = await fetch(`${base}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${from.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ receiver_id: to.sub, book_id: BOOK, content }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { data: { id: string; created_at: string } };
}

async function until(condition: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('GET /messages/stream', () => {
  it('is an unbuffered event stream that starts with a retry hint, ready and the unread count', async () => {
    const stream = await openStream(replicas[0]!.url, seller);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(stream.response.headers.get('x-accel-buffering')).toBe('no');
    const ready = await stream.next((e) => e.event === 'ready');
    // No Last-Event-ID: the client fetches its conversations once.
    expect(ready.data).toEqual({ replayed: 0, complete: false });
    expect((await stream.next((e) => e.event === 'unread')).data).toEqual({ unreadCount: 0 });
    expect(stream.raw()).toMatch(/^retry: 5000\n/);
    // Heartbeats keep mobile proxies from cutting it.
    await until(() => stream.raw().includes(': ping'), HEARTBEAT_MS * 4);
    stream.close();
  });

  it('refuses a visitor and a bad token in French JSON', async () => {
    const anonymous = await fetch(`${replicas[0]!.url}/messages/stream`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { message: string }).message).toMatch(/[a-zé]/);
    const bad = await fetch(`${replicas[0]!.url}/messages/stream`, { headers: { authorization: 'Bearer abc' } });
    expect(bad.status).toBe(401);
    await bad.body?.cancel();
  });

  it('delivers a message sent through the other replica to both parties, and nothing to a third member', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const sellerStream = await openStream(b.url, seller);
    const buyerStream = await openStream(a.url, buyer);
    const strangerStream = await openStream(b.url, stranger);
    for (const s of [sellerStream, buyerStream, strangerStream]) await s.next((e) => e.event === 'unread');
    const from = sellerStream.events.length;

    const sentAt = Date.now();
    const sent = await send(a.url, buyer, seller, 'Bonjour, le livre est-il encore disponible ?');
    // How fast is a figure of bench/ and of the live journey; here, that it comes at all.
    const received = await sellerStream.next((e) => e.event === 'message', 15_000, from);
    console.info(
      `live message delivered ${received.at - sentAt} ms after POST /messages (outbox → NATS → other replica)`,
    );
    expect(received.id).toBe(String(Date.parse(sent.data.created_at)));
    expect(received.data).toMatchObject({
      message: { id: sent.data.id, content: 'Bonjour, le livre est-il encore disponible ?', is_mine: false },
    });
    expect((await sellerStream.next((e) => e.event === 'unread', 2000, from)).data).toEqual({ unreadCount: 1 });
    // The sender's own stream (another tab) has it too, as theirs.
    expect((await buyerStream.next((e) => e.event === 'message')).data).toMatchObject({
      message: { id: sent.data.id, is_mine: true },
    });

    // Read receipts: the seller opens the thread; their badge drops, the buyer learns it was read.
    const beforeRead = sellerStream.events.length;
    const opened = await fetch(`${a.url}/messages/conversation/${BOOK}/${buyer.sub}`, {
      headers: { authorization: `Bearer ${seller.token}` },
    });
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    expect((await sellerStream.next((e) => e.event === 'unread', 2000, beforeRead)).data).toEqual({ unreadCount: 0 });
    expect((await buyerStream.next((e) => e.event === 'read')).data).toMatchObject({
      book_id: BOOK,
      reader_id: seller.sub,
      count: 1,
    });

    // The third member heard nothing of it.
    await new Promise((r) => setTimeout(r, 300));
    expect(strangerStream.events.map((e) => e.event)).toEqual(['ready', 'unread']);
    for (const s of [sellerStream, buyerStream, strangerStream]) s.close();
  });

  it('replays the messages since Last-Event-ID after a reconnection', async () => {
    const base = replicas[0]!.url;
    const first = await send(base, seller, buyer, 'Oui, il est disponible.');
    const lastSeen = String(Date.parse(first.data.created_at) + 1);
    await new Promise((r) => setTimeout(r, 20));
    const missed = await send(base, seller, buyer, 'Je suis à Libreville, quartier Louis.');
    const stream = await openStream(base, buyer, { 'last-event-id': lastSeen });
    const ready = await stream.next((e) => e.event === 'ready');
    const replayed = stream.events
      .filter((e) => e.event === 'message')
      .map((e) => (e.data as { message: { id: string } }).message.id);
    // Within the margin the client may see one it had already (it keeps messages by id); the missed one is there.
    expect(replayed).toContain(missed.data.id);
    expect(ready.data).toMatchObject({ complete: true });
    stream.close();

    const garbage = await openStream(base, buyer, { 'last-event-id': 'pas-un-id' });
    expect((await garbage.next((e) => e.event === 'ready')).data).toEqual({ replayed: 0, complete: false });
    garbage.close();
  });

  it('ends the stream within a heartbeat when the session is revoked (logout)', async () => {
    const session = await tokens.token({ sub: stranger.sub });
    const stream = await openStream(replicas[0]!.url, { token: session.token });
    await stream.next((e) => e.event === 'ready');
    const claims = JSON.parse(Buffer.from(session.token.split('.')[1]!, 'base64url').toString()) as {
      jti: string;
      exp: number;
    };
    // What auth writes at logout (after its database).
    await cacheRevokedToken(redis, prefix, claims.jti, claims.exp);
    const end = await stream.next((e) => e.event === 'end', HEARTBEAT_MS * 4);
    expect(end.data).toEqual({
      reason: 'session',
      message: 'Votre session a pris fin. Reconnectez-vous pour recevoir vos messages.',
    });
    await stream.ended();
    await until(() => replicas[0]!.live.connections(stranger.sub) === 0);
    // And it cannot come back.
    const again = await fetch(`${replicas[0]!.url}/messages/stream`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(again.status).toBe(401);
    await again.body?.cancel();
  });

  it('bounds the connections per member and per replica with a French 429, and frees them when clients leave', async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    await until(() => a.live.connections() === 0 && b.live.connections() === 0);
    const one = await openStream(a.url, seller);
    const two = await openStream(a.url, seller);
    const three = await openStream(a.url, seller);
    expect([one.response.status, two.response.status]).toEqual([200, 200]);
    expect(three.response.status).toBe(429);
    expect(three.response.headers.get('retry-after')).toBe('60');
    expect(await three.response.json()).toEqual({
      message:
        'Trop de connexions en direct sont ouvertes sur ce compte. Fermez un onglet : vos messages restent disponibles.',
    });
    // Another member is not concerned.
    const other = await openStream(a.url, buyer);
    expect(other.response.status).toBe(200);

    const full = [await openStream(b.url, seller), await openStream(b.url, buyer), await openStream(b.url, stranger)];
    expect(full.map((s) => s.response.status)).toEqual([200, 200, 200]);
    const refused = await openStream(b.url, buyer);
    expect(refused.response.status).toBe(429);
    expect(((await refused.response.json()) as { message: string }).message).toBe(
      'Le direct des messages est saturé. Vos messages restent disponibles ; réessayez dans un instant.',
    );

    // Clients leave: nothing stays registered, and the places are free again.
    for (const s of [one, two, other, ...full]) s.close();
    await until(() => a.live.connections() === 0 && b.live.connections() === 0);
    const back = await openStream(a.url, seller);
    expect(back.response.status).toBe(200);
    back.close();
    await until(() => a.live.connections() === 0);
  });

  it('ends open streams when the replica stops, so that it stops at once', async () => {
    const config = loadConfig(messagingConfigSchema, { EVENT_NAMESPACE: namespace });
    const live = new LiveHub(replicas[0]!.live.db, { perMember: 5, total: 10 }, log);
    const guards = tokens.guards;
    const app = await buildMessagingApp(
      { config, uow: new UnitOfWork({ db: replicas[0]!.live.db, relay, log }), guards, live },
      [],
      false,
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(url, seller);
    await stream.next((e) => e.event === 'ready');
    // The stream never ends by itself: a close that waited for it would never return.
    await app.close();
    await stream.ended();
    expect(live.connections()).toBe(0);
  });
});
