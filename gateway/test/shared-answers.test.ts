import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SHARED_ANSWERS_CHANNEL } from '@cartable/contracts';
import { createRedis, createTokenVerifier, loadConfig, type Redis } from '@cartable/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type OwnServer, redisServer } from '../../e2e/support/servers.ts';
import { freePort } from '../../scripts/stack/ports.ts';
import { buildGateway } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';
import { SHARED_ANSWER_MAX_SECONDS, type SharedHit, sharedSeconds } from '../src/plugins/shared-answers.ts';
import { compressOnce, compressWholeAnswer } from '../src/plugins/whole-answer-compression.ts';
import type { RouteEntry } from '../src/route-table.ts';

/**
 * Answers the gateway keeps for visitors (gateway/src/plugins/shared-answers.ts), over real
 * sockets to a real owner and a real Redis: what is kept and what never is, when it expires or is
 * dropped, and that the owner hears of every visitor it did not serve, once, even when it could
 * not listen for a while.
 */
const prefix = `cartable:t${randomBytes(4).toString('hex')}:`;
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
let owner: FastifyInstance;
let ownerUrl: string;
const calls = new Map<string, number>();
/** The hits the owner took, and how many reports it refused. */
const reported: SharedHit[] = [];
let refuseReports = false;
let refusedReports = 0;

const shared = (path: string): RouteEntry => ({ path, owner: 'catalog', access: 'public', sharedAnswers: true });
const routeTable: RouteEntry[] = [
  shared('/shared/:id'),
  shared('/short/:id'),
  shared('/plain/:id'),
  shared('/cookie/:id'),
  shared('/vary/:id'),
  shared('/large/:id'),
  shared('/gone/:id'),
  shared('/slow/:id'),
  // The owner says it may be kept, but the route table does not offer it.
  { path: '/unmarked/:id', owner: 'catalog', access: 'public' },
];

async function startGateway(redisClient: Redis = redis) {
  const config = loadConfig(gatewayConfigSchema, {
    AUTH_URL: ownerUrl,
    CATALOG_URL: ownerUrl,
    MESSAGING_URL: ownerUrl,
    MODERATION_URL: ownerUrl,
    NOTIFICATIONS_URL: ownerUrl,
    REDIS_KEY_PREFIX: prefix,
    FRONTENDS_DIR: '/nonexistent',
    DATA_DIR: '/tmp/cartable-gateway-test',
  });
  return buildGateway(
    { config, redis: redisClient, verifier: createTokenVerifier(createLocalJWKSet({ keys: [] })), routeTable },
    [],
    false,
  );
}
let gateway: Awaited<ReturnType<typeof startGateway>>;
let releaseSlow: (() => void) | undefined;
let slowAsked: (() => void) | undefined;

beforeAll(async () => {
  owner = Fastify();
  const count = (url: string) => {
    const n = (calls.get(url) ?? 0) + 1;
    calls.set(url, n);
    return n;
  };
  for (const [path, cacheControl] of [
    ['/shared/:id', 'public, max-age=0, s-maxage=5'],
    ['/short/:id', 'public, max-age=0, s-maxage=1'],
    ['/unmarked/:id', 'public, s-maxage=5'],
    ['/plain/:id', undefined],
  ] as const) {
    owner.get(path, async (request, reply) => {
      if (cacheControl) reply.header('cache-control', cacheControl);
      return { path: request.url, call: count(request.url) };
    });
  }
  owner.get('/cookie/:id', async (request, reply) => {
    reply.header('cache-control', 'public, s-maxage=5').header('set-cookie', 'session=abc');
    return { call: count(request.url) };
  });
  // Over the gateway's compression threshold (1 KiB).
  owner.get('/large/:id', async (request, reply) => {
    reply.header('cache-control', 'public, s-maxage=5');
    return { call: count(request.url), description: 'Manuel de mathématiques, programme du Gabon. '.repeat(60) };
  });
  owner.get('/vary/:id', async (request, reply) => {
    reply.header('cache-control', 'public, s-maxage=5').header('vary', 'accept-language');
    return { call: count(request.url) };
  });
  owner.get('/gone/:id', async (request, reply) => {
    count(request.url);
    return reply.status(404).header('cache-control', 'public, s-maxage=5').send({ message: 'Manuel introuvable' });
  });
  // Answers once the test says so: a read in flight while the kept answers are dropped.
  owner.get('/slow/:id', async (request, reply) => {
    const n = count(request.url);
    await new Promise<void>((resolve) => {
      releaseSlow = resolve;
      slowAsked?.();
    });
    reply.header('cache-control', 'public, s-maxage=5');
    return { call: n };
  });
  owner.post('/shared/:id', async () => ({ message: 'Annonce modifiée avec succès' }));
  owner.post('/internal/shared-hits', async (request, reply) => {
    if (refuseReports) {
      refusedReports++;
      return reply.status(503).send({ message: 'Service indisponible' });
    }
    reported.push(...(request.body as { hits: SharedHit[] }).hits);
    return reply.status(204).send();
  });
  await owner.listen({ port: 0, host: '127.0.0.1' });
  ownerUrl = `http://127.0.0.1:${(owner.server.address() as AddressInfo).port}`;
  gateway = await startGateway();
  await untilServedFromMemory(gateway);
});

afterAll(async () => {
  await gateway?.close();
  await owner?.close();
  await redis.quit();
});

const visit = (path: string, headers: Record<string, string> = {}) =>
  gateway.inject({
    method: 'GET',
    url: `/api${path}`,
    remoteAddress: '198.51.100.7',
    headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14)', ...headers },
  });
/** The gateway listens for its owners' changes once its subscription is confirmed: until then it keeps nothing. */
async function untilServedFromMemory(app: Awaited<ReturnType<typeof startGateway>>) {
  let probe = 0;
  await vi.waitFor(
    async () => {
      const path = `/api/shared/probe-${++probe}`;
      await app.inject({ method: 'GET', url: path });
      expect((await app.inject({ method: 'GET', url: path })).headers.age).toBeDefined();
    },
    { timeout: 10_000, interval: 100 },
  );
}
const hitsOf = (path: string) => reported.filter((hit) => hit.path === path);
const waitForReports = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

describe('answers kept for visitors', () => {
  it('serves the next visitors the kept answer, with its Age, and tells the owner who they were', async () => {
    const first = await visit('/shared/1');
    expect(first.statusCode).toBe(200);
    const again = await visit('/shared/1', { 'user-agent': 'Mozilla/5.0 (iPhone)' });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(JSON.parse(again.body)).toEqual({ path: '/shared/1', call: 1 });
    expect(again.headers['cache-control']).toBe('public, max-age=0, s-maxage=5');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers.age).toBe('0');
    expect(calls.get('/shared/1')).toBe(1);
    // The first visitor reached the owner itself; the second is reported.
    await waitForReports(() =>
      expect(hitsOf('/shared/1')).toEqual([
        { path: '/shared/1', ip: '198.51.100.7', user_agent: 'Mozilla/5.0 (iPhone)' },
      ]),
    );
    // Each path is its own answer: another query string is another request to the owner.
    await visit('/shared/1?as=visitor');
    expect(calls.get('/shared/1?as=visitor')).toBe(1);
  });

  it('never serves a kept answer to a request with a token, nor keeps the answer it gets', async () => {
    await visit('/shared/2');
    const bearer = { authorization: 'Bearer not-a-valid-token' };
    // A public route drops a token it cannot verify, then asks the owner as for a visitor.
    expect((await visit('/shared/2', bearer)).statusCode).toBe(200);
    expect((await visit('/shared/2', bearer)).statusCode).toBe(200);
    expect(calls.get('/shared/2')).toBe(3);
    expect(JSON.parse((await visit('/shared/2')).body).call).toBe(1);
  });

  it('keeps nothing its owner does not mark shared, no error, no answer setting a cookie or varying, and only on marked routes', async () => {
    for (const path of ['/plain/1', '/gone/1', '/cookie/1', '/vary/1', '/unmarked/1']) {
      await visit(path);
      await visit(path);
      expect(calls.get(path), path).toBe(2);
    }
  });

  it('asks the owner again once the answer is older than its s-maxage', async () => {
    await visit('/short/1');
    expect(JSON.parse((await visit('/short/1')).body).call).toBe(1);
    // Served from memory until it expires, then the owner's new answer.
    await vi.waitFor(async () => expect(JSON.parse((await visit('/short/1')).body).call).toBe(2), {
      timeout: 5_000,
      interval: 100,
    });
  });

  it('holds the hits while the owner refuses them, then delivers each once', async () => {
    refuseReports = true;
    await visit('/shared/3');
    const agents = Array.from({ length: 5 }, (_, i) => `Mozilla/5.0 (Android ${i})`);
    for (const agent of agents) expect((await visit('/shared/3', { 'user-agent': agent })).statusCode).toBe(200);
    await waitForReports(() => expect(refusedReports).toBeGreaterThan(0));
    expect(hitsOf('/shared/3')).toEqual([]);
    refuseReports = false;
    await waitForReports(() => expect(hitsOf('/shared/3').map((hit) => hit.user_agent)).toEqual(agents));
  });

  it('cuts a User-Agent longer than the report allows rather than lose its hit', async () => {
    await visit('/shared/4');
    await visit('/shared/4', { 'user-agent': 'x'.repeat(5000) });
    await waitForReports(() => expect(hitsOf('/shared/4').map((hit) => hit.user_agent.length)).toEqual([1024]));
  });

  it('drops what it keeps when the owner says so on Redis, or when a write goes through it', async () => {
    await visit('/shared/6');
    expect(JSON.parse((await visit('/shared/6')).body).call).toBe(1);
    await redis.publish(`${prefix}${SHARED_ANSWERS_CHANNEL}`, 'catalog');
    await vi.waitFor(async () => expect(JSON.parse((await visit('/shared/6')).body).call).toBe(2), {
      timeout: 5_000,
      interval: 20,
    });
    // Kept again; a write of the same owner through the gateway drops it before its answer leaves.
    expect(JSON.parse((await visit('/shared/6')).body).call).toBe(2);
    expect((await gateway.inject({ method: 'POST', url: '/api/shared/6', payload: { price: 2000 } })).statusCode).toBe(
      200,
    );
    expect(JSON.parse((await visit('/shared/6')).body).call).toBe(3);
  });

  it('does not keep an answer asked for before a drop', async () => {
    const asked = new Promise<void>((resolve) => (slowAsked = resolve));
    const inFlight = visit('/slow/1');
    await asked;
    await gateway.inject({ method: 'POST', url: '/api/shared/6', payload: {} });
    releaseSlow?.();
    expect(JSON.parse((await inFlight).body).call).toBe(1);
    // What it read may be older than the write: asked again.
    const again = visit('/slow/1');
    await vi.waitFor(() => expect(calls.get('/slow/1')).toBe(2));
    releaseSlow?.();
    expect(JSON.parse((await again).body).call).toBe(2);
  });

  it('sends a kept answer compressed as each browser accepts it, compressed once per encoding', async () => {
    const plain = await visit('/large/1');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = JSON.parse(plain.body);
    const br = await visit('/large/1', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.age).toBeDefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(json);
    const brAgain = await visit('/large/1', { 'accept-encoding': 'br' });
    expect(brAgain.rawPayload.equals(br.rawPayload)).toBe(true);
    const gzip = await visit('/large/1', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(json);
    expect(calls.get('/large/1')).toBe(1);
  });

  it('counts hits, misses and the hits waiting for their report on /metrics', async () => {
    const counted = async () => {
      const text = await gateway.metrics.metrics();
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
      return {
        hit: value(/^gateway_shared_answers_total\{result="hit"[^}]*\} (\d+)/m),
        miss: value(/^gateway_shared_answers_total\{result="miss"[^}]*\} (\d+)/m),
        pending: value(/^gateway_shared_hits_pending\{[^}]*\} (\d+)/m),
      };
    };
    const before = await counted();
    await visit('/shared/9');
    await visit('/shared/9');
    await visit('/shared/9');
    const after = await counted();
    expect(after.miss - before.miss).toBe(1);
    expect(after.hit - before.hit).toBe(2);
    expect(after.pending).toBeGreaterThanOrEqual(0);
  });

  it('reports the hits it holds when it stops', async () => {
    const stopping = await startGateway();
    await untilServedFromMemory(stopping);
    const visitStopping = (agent: string) =>
      stopping.inject({
        method: 'GET',
        url: '/api/shared/5',
        remoteAddress: '203.0.113.9',
        headers: { 'user-agent': agent },
      });
    await visitStopping('first');
    await visitStopping('second');
    await visitStopping('third');
    await stopping.close();
    expect(hitsOf('/shared/5').map((hit) => hit.user_agent)).toEqual(['second', 'third']);
  });
});

describe('Redis away', () => {
  let own: OwnServer | undefined;
  afterAll(() => own?.remove());

  it('serves nothing from memory while it cannot hear of changes, and again once it can', async () => {
    own = redisServer(await freePort());
    // Redis is not there yet: the gateway starts, and every visitor goes to the owner.
    const away = createRedis(own.url);
    away.on('error', () => {});
    const alone = await startGateway(away);
    try {
      const get = () => alone.inject({ method: 'GET', url: '/api/shared/8' });
      await get();
      await get();
      expect(calls.get('/shared/8')).toBe(2);
      await own.start();
      await untilServedFromMemory(alone);
      const before = calls.get('/shared/8') ?? 0;
      await get();
      expect((await get()).headers.age).toBeDefined();
      expect(calls.get('/shared/8')).toBe(before + 1);
      // Killed: a change published now would not reach it, so it stops serving from memory.
      await own.kill();
      await vi.waitFor(async () => expect((await get()).headers.age).toBeUndefined(), { timeout: 5_000, interval: 50 });
    } finally {
      await alone.close();
      away.disconnect();
    }
  });
});

describe('compressing a payload sent many times', () => {
  it('makes each compressed form once for a payload marked so, and anew for any other', () => {
    const hook = compressWholeAnswer({
      threshold: 1024,
      maxBytes: 64 * 1024,
      brotliQuality: 4,
      compressible: () => true,
    });
    const headers = new Map<string, unknown>([['content-type', 'application/json']]);
    const reply = {
      getHeader: (name: string) => headers.get(name),
      hasHeader: (name: string) => headers.has(name),
      header: (name: string, value: unknown) => headers.set(name, value),
    };
    const send = (payload: Buffer) => {
      headers.delete('content-encoding');
      let sent: unknown;
      hook({ headers: { 'accept-encoding': 'br' } } as never, reply as never, payload, (_err, body) => {
        sent = body;
      });
      return sent as Buffer;
    };
    const kept = Buffer.from(JSON.stringify({ text: 'Cartable '.repeat(300) }));
    compressOnce(kept);
    const first = send(kept);
    expect(send(kept)).toBe(first);
    const fresh = Buffer.from(kept);
    expect(send(fresh)).not.toBe(send(fresh));
  });
});

describe('what a shared cache may keep', () => {
  it('reads s-maxage only from a public answer, and never longer than the gateway allows', () => {
    expect(sharedSeconds('public, max-age=0, s-maxage=5')).toBe(5);
    expect(sharedSeconds('Public, S-MaxAge=3')).toBe(3);
    expect(sharedSeconds('public, s-maxage=3600')).toBe(SHARED_ANSWER_MAX_SECONDS);
    for (const value of [
      's-maxage=5',
      'public, max-age=60',
      'public, s-maxage=5, private',
      'public, s-maxage=5, no-store',
      'public, s-maxage=0',
      'public, s-maxage=abc',
      undefined,
      ['public', 's-maxage=5'],
    ])
      expect(sharedSeconds(value), String(value)).toBe(0);
  });
});
