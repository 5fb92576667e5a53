import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages } from '@cartable/contracts';
import { createRedis, createTokenVerifier, loadConfig } from '@cartable/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';

/**
 * The hop from the gateway to an upstream (gateway/src/routes/api.ts), over real sockets: what is
 * passed on and what is not, a slow upstream, one that dies mid-response, and an upload the
 * upstream refuses before reading it.
 */
const prefix = `cartable:t${randomBytes(4).toString('hex')}:`;
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
let upstream: FastifyInstance;
let gateway: Awaited<ReturnType<typeof buildGateway>>;
let port: number;
let releaseSlow: (() => void) | undefined;
const large = randomBytes(3 * 1024 * 1024);

/** The stand-in upstream, on `port` (any free one at first, the same one when started again). */
async function startUpstream(port: number) {
  const app = Fastify();
  // Uploads: refused on their declared size before a byte of them is read.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 1024 }, (_r, body, done) =>
    done(null, body),
  );
  app.post('/hop/echo', async (request) => ({ headers: request.headers, body: request.body }));
  // Responds only once the test has seen the gateway give up on it.
  app.get('/hop/slow', async () => {
    await new Promise<void>((resolve) => (releaseSlow = resolve));
    return { late: true };
  });
  app.post('/hop/upload', async () => ({ stored: true }));
  // Large: it goes through as a stream.
  app.get('/hop/large', (_request, reply) => reply.type('application/octet-stream').send(large));
  // Dies in the middle of its response: the headers promised 100 bytes, 5 came.
  app.get('/hop/cut', (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'application/json',
      'content-length': '100',
      'cache-control': 'public, max-age=600',
    });
    reply.raw.write('{"a":', () => reply.raw.destroy());
  });
  await app.listen({ port, host: '127.0.0.1' });
  return app;
}
let upstreamPort = 0;

beforeAll(async () => {
  upstream = await startUpstream(0);
  upstreamPort = (upstream.server.address() as AddressInfo).port;
  const upstreamUrl = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  const config = loadConfig(gatewayConfigSchema, {
    AUTH_URL: upstreamUrl,
    CATALOG_URL: upstreamUrl,
    MESSAGING_URL: upstreamUrl,
    MODERATION_URL: upstreamUrl,
    NOTIFICATIONS_URL: upstreamUrl,
    UPSTREAM_TIMEOUT_MS: '300',
    REDIS_KEY_PREFIX: prefix,
    FRONTENDS_DIR: '/nonexistent',
    DATA_DIR: '/tmp/cartable-gateway-test',
  });
  gateway = await buildGateway(
    {
      config,
      redis,
      verifier: createTokenVerifier(createLocalJWKSet({ keys: [] })),
      routeTable: [{ path: '/hop/*', upstream: 'catalog', access: 'public' }],
    },
    [],
    false,
  );
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  await redis.quit();
});

interface Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request over a real connection; `body` is sent after the server's 100 Continue if asked. */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    if (headers.expect) req.on('continue', () => req.end(body));
    else req.end(body);
  });
}

describe('the hop to the upstream', () => {
  it('passes the request on without its hop-by-hop headers, with a JSON body written again at its size', async () => {
    const body = JSON.stringify({ titre: 'Maths 6e', prix: 2500 }, null, 4);
    const res = await send(
      'POST',
      '/api/hop/echo',
      {
        'content-type': 'application/json',
        connection: 'keep-alive, x-for-this-hop',
        'x-for-this-hop': 'secret',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        // curl sends it for any body over 1 KiB; undici would refuse to pass it on.
        expect: '100-continue',
        'x-forwarded-for': '6.6.6.6',
        'x-request-id': 'forged',
        'x-cartable-ok': 'passed',
      },
      body,
    );
    expect(res.status).toBe(200);
    const seen = JSON.parse(res.body) as { headers: Record<string, string>; body: unknown };
    expect(seen.body).toEqual({ titre: 'Maths 6e', prix: 2500 });
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(seen.body))));
    expect(seen.headers['x-cartable-ok']).toBe('passed');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-request-id']).not.toBe('forged');
    for (const name of ['x-for-this-hop', 'keep-alive', 'te', 'expect']) expect(seen.headers[name]).toBeUndefined();
    expect(seen.headers.host).toBe(new URL(`http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`).host);
  });

  it('streams a large response byte for byte to a client that reads slowly', async () => {
    const received = await new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/api/hop/large' }, (res) => {
        const chunks: Buffer[] = [];
        // A phone on a slow line: the gateway must hold the upstream back, not lose bytes.
        res.pause();
        setTimeout(() => res.resume(), 200);
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(received.status).toBe(200);
    expect(received.body.equals(large)).toBe(true);
  });

  it('answers 504 in French when the upstream is slower than UPSTREAM_TIMEOUT_MS', async () => {
    const res = await send('GET', '/api/hop/slow', {});
    releaseSlow?.();
    expect(res.status).toBe(504);
    expect(JSON.parse(res.body)).toEqual({ message: messages.serviceUnavailable });
  });

  it('answers a clean French error, none of the upstream’s headers, when a small response is cut short', async () => {
    // Small bodies are read whole before they are sent (routes/api.ts): the failure is seen in time.
    const res = await send('GET', '/api/hop/cut', {});
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toEqual({ message: messages.serviceUnavailable });
    // A shared cache must not keep the error for the upstream's ten minutes.
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('answers 503 in French when the upstream is not listening', async () => {
    await upstream.close();
    try {
      const res = await send('GET', '/api/hop/large', {});
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toEqual({ message: messages.serviceUnavailable });
    } finally {
      upstream = await startUpstream(upstreamPort);
    }
  });

  it('closes the client’s connection when the upstream refuses an upload before reading all of it', async () => {
    const boundary = 'x-boundary';
    const status = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/hop/upload',
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(100 * 1024),
          },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
          req.destroy();
        },
      );
      req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
      // The first bytes only: the rest would follow once the upstream had asked for them.
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="image1"\r\n\r\n`);
    });
    expect(status).toEqual({ status: 413, connection: 'close' });
  });
});
