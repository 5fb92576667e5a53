import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import {
  createRedis,
  createTokenVerifier,
  loadConfig,
  markRevocationCacheLoaded,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
} from '@cartable/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';

/**
 * GET /api/messages/stream through the gateway:
 * each event reaches the browser when the upstream writes it, uncompressed even to a browser that
 * accepts brotli, past UPSTREAM_TIMEOUT_MS, and the upstream learns at once when the browser leaves.
 */
const prefix = `cartable:t${randomBytes(4).toString('hex')}:`;
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const GAP_MS = 1500;
let messaging: FastifyInstance;
let gateway: Awaited<ReturnType<typeof buildGateway>>;
let base = '';
let token = '';
/** What the stand-in messaging saw of each stream: when it opened and when its client left. */
const streams: Array<{
  openedAt: number;
  closedAt?: number;
  /** When the stand-in wrote its second event (after the silence). */
  unreadWrittenAt?: number;
  headers: Record<string, unknown>;
}> = [];

beforeAll(async () => {
  messaging = Fastify();
  messaging.get('/messages/stream', async (request, reply) => {
    const seen: (typeof streams)[number] = { openedAt: Date.now(), headers: request.headers };
    streams.push(seen);
    const body = new PassThrough();
    reply.raw.once('close', () => {
      seen.closedAt = Date.now();
    });
    reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-cache').send(body);
    body.write(`retry: 5000\nevent: ready\ndata: ${JSON.stringify({ replayed: 0, complete: false })}\n\n`);
    // A silence longer than UPSTREAM_TIMEOUT_MS (500 ms here), then a small event.
    setTimeout(() => {
      seen.unreadWrittenAt = Date.now();
      body.write(`event: unread\ndata: ${JSON.stringify({ unreadCount: 3 })}\n\n`);
    }, GAP_MS);
    setTimeout(() => body.write(': ping\n\n'), GAP_MS * 2);
    return reply;
  });
  messaging.get('/messages/unread/count', async () => ({ unreadCount: 3, padding: 'x'.repeat(4000) }));
  await messaging.listen({ port: 0, host: '127.0.0.1' });
  const address = messaging.server.address();
  const messagingUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  token = await new SignJWT({ email_verified: true, is_admin: false, roles: [], permissions: [] })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setSubject(crypto.randomUUID())
    .setJti(crypto.randomUUID())
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setExpirationTime('1h')
    .sign(privateKey);
  const config = loadConfig(gatewayConfigSchema, {
    AUTH_URL: 'http://127.0.0.1:9',
    CATALOG_URL: 'http://127.0.0.1:9',
    MESSAGING_URL: messagingUrl,
    MODERATION_URL: 'http://127.0.0.1:9',
    REDIS_KEY_PREFIX: prefix,
    UPSTREAM_TIMEOUT_MS: '500',
    FRONTENDS_DIR: '/nonexistent',
    DATA_DIR: '/tmp/cartable-gateway-stream-test',
  });
  gateway = await buildGateway(
    { config, redis, verifier: createTokenVerifier(createLocalJWKSet({ keys: [jwk] })) },
    [],
    false,
  );
  base = await gateway.listen({ port: 0, host: '127.0.0.1' });
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  await markRevocationCacheLoaded(redis, prefix);
});

afterAll(async () => {
  // The last test stops it already.
  await gateway?.close().catch(() => {});
  await messaging?.close();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

/** Opens the stream as a phone's browser would (accepting brotli), noting when each chunk arrives. */
function open(headers: Record<string, string> = {}) {
  return new Promise<{ response: IncomingMessage; chunks: Array<{ text: string; at: number }>; startedAt: number }>(
    (resolve, reject) => {
      const startedAt = Date.now();
      const req = httpRequest(
        `${base}/api/messages/stream`,
        {
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'text/event-stream',
            'accept-encoding': 'gzip, deflate, br',
            ...headers,
          },
        },
        (response) => {
          const chunks: Array<{ text: string; at: number }> = [];
          response.on('data', (chunk: Buffer) => chunks.push({ text: chunk.toString('utf8'), at: Date.now() }));
          resolve({ response, chunks, startedAt });
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

async function until(condition: () => boolean, timeoutMs = 3000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('GET /api/messages/stream through the gateway', () => {
  it('passes each event through as it is written, uncompressed, unbuffered and past UPSTREAM_TIMEOUT_MS', async () => {
    const before = streams.length;
    const { response, chunks } = await open();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['cache-control']).toBe('no-cache, no-transform');
    // The long-lived connection is not counted against a per-address limit.
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();

    // The first event arrives alone, long before the second is written: nothing held it back.
    await until(() => chunks.some((c) => c.text.includes('event: ready')));
    const ready = chunks.find((c) => c.text.includes('event: ready'))!;
    // It reached the client before the upstream had written anything else.
    expect(streams[before]!.unreadWrittenAt ?? Number.POSITIVE_INFINITY).toBeGreaterThan(ready.at);
    expect(ready.text).not.toContain('event: unread');
    // After a silence longer than UPSTREAM_TIMEOUT_MS, the next small event still comes, on its own.
    await until(() => chunks.some((c) => c.text.includes('event: unread')), GAP_MS * 3);
    const unread = chunks.find((c) => c.text.includes('event: unread'))!;
    // The upstream was silent longer than UPSTREAM_TIMEOUT_MS (500 ms) before writing it.
    expect(streams[before]!.unreadWrittenAt! - streams[before]!.openedAt).toBeGreaterThan(500);
    expect(unread.text).toBe(`event: unread\ndata: ${JSON.stringify({ unreadCount: 3 })}\n\n`);
    expect(response.complete).toBe(false);
    response.destroy();
  });

  it('hands the token and the Last-Event-ID to messaging, and tells it at once when the browser leaves', async () => {
    const before = streams.length;
    const { response, chunks } = await open({ 'last-event-id': '1764140000000' });
    await until(() => chunks.length > 0);
    const seen = streams[before]!;
    expect(seen.headers.authorization).toBe(`Bearer ${token}`);
    expect(seen.headers['last-event-id']).toBe('1764140000000');
    response.destroy();
    await until(() => seen.closedAt !== undefined);
    // Told before its next write: a proxy that kept the upstream open would learn of the leave
    // only when the stream ended, which this one never does.
    expect(seen.unreadWrittenAt ?? Number.POSITIVE_INFINITY).toBeGreaterThan(seen.closedAt!);
  });

  it('refuses a visitor before reaching messaging, and still compresses ordinary JSON', async () => {
    const before = streams.length;
    const anonymous = await fetch(`${base}/api/messages/stream`);
    expect(anonymous.status).toBe(401);
    expect(streams.length).toBe(before);
    const json = await gateway.inject({
      method: 'GET',
      url: '/api/messages/unread/count',
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br' },
    });
    expect(json.headers['content-encoding']).toBe('br');
  });

  it('ends open streams when the gateway stops, instead of waiting for them', async () => {
    const { response } = await open();
    const ended = new Promise<void>((resolve) => {
      response.once('close', () => resolve());
    });
    // The stand-in never ends its stream: a close that waited for it would never return.
    await gateway.close();
    await ended;
  });
});
