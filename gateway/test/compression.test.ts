import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { messages } from '@cartable/contracts';
import { createRedis, createTokenVerifier, loadConfig } from '@cartable/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';

/**
 * Bytes on the wire: the frontends' files are sent as
 * compressed at build time when the browser accepts it, JSON responses over 1 KiB are compressed on
 * the way, small ones and images are left alone, and caches are told the answer varies.
 */
const prefix = `cartable:t${randomBytes(4).toString('hex')}:`;
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const SCRIPT = `console.log(${JSON.stringify('Cartable '.repeat(500))});`;
let gateway: Awaited<ReturnType<typeof buildGateway>>;
let catalog: FastifyInstance;
/** Requests the stand-in catalog received on POST /books. */
let posted = 0;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cartable-compress-'));
  const shell = join(dir, 'shell', 'dist');
  mkdirSync(shell, { recursive: true });
  writeFileSync(
    join(shell, 'index.html'),
    '<!doctype html><html><head><title>Cartable</title></head><body></body></html>',
  );
  // What scripts/precompress.mjs leaves beside a built file.
  writeFileSync(join(shell, 'main.abc123.js'), SCRIPT);
  writeFileSync(join(shell, 'main.abc123.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(shell, 'main.abc123.js.gz'), gzipSync(SCRIPT));

  catalog = Fastify({ forceCloseConnections: true });
  catalog.get('/books', async () => ({
    data: Array.from({ length: 40 }, (_, i) => ({ id: i, title: `Mathématiques 6e tome ${i}`, price: 2500 })),
    total: 40,
  }));
  catalog.get('/countries', async () => ({ countries: [] }));
  catalog.post('/books', async () => {
    posted++;
    return { ok: true };
  });
  // Over 64 KiB of JSON.
  catalog.get('/categories', async () => ({
    data: Array.from({ length: 1500 }, (_, i) => ({ id: i, name: `Catégorie ${i}`, path: `Lycée › Seconde › ${i}` })),
  }));
  await catalog.listen({ port: 0, host: '127.0.0.1' });
  const address = catalog.server.address();
  const catalogUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const { publicKey } = await generateKeyPair('ES256');
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });
  const config = loadConfig(gatewayConfigSchema, {
    AUTH_URL: 'http://127.0.0.1:9',
    CATALOG_URL: catalogUrl,
    MESSAGING_URL: 'http://127.0.0.1:9',
    MODERATION_URL: 'http://127.0.0.1:9',
    REDIS_KEY_PREFIX: prefix,
    FRONTENDS_DIR: dir,
    DATA_DIR: join(dir, 'data'),
    // A frontend served from elsewhere: CORS on, and its Vary: Origin with it.
    CORS_ORIGINS: 'http://localhost:3000',
  });
  gateway = await buildGateway({ config, redis, verifier: createTokenVerifier(jwks) }, [], false);
});

afterAll(async () => {
  await gateway?.close();
  await catalog?.close();
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  gateway.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('static files', () => {
  it('sends the brotli file to a browser that accepts br, gzip to one that accepts only gzip, the plain file otherwise', async () => {
    const br = await get('/main.abc123.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 5);

    const gz = await get('/main.abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/main.abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('API responses', () => {
  it('compresses JSON over 1 KiB for a browser that accepts it, and leaves small responses alone', async () => {
    const list = await get('/api/books', 'gzip, deflate, br');
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const json = JSON.parse(brotliDecompressSync(list.rawPayload).toString());
    expect(json.total).toBe(40);
    expect(list.rawPayload.length).toBeLessThan(JSON.stringify(json).length / 3);

    const plain = await get('/api/books');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().total).toBe(40);

    const small = await get('/api/countries', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ countries: [] });
  });
});

describe('one compression path (@fastify/compress)', () => {
  const origin = { origin: 'http://localhost:3000' };
  const ask = (url: string, headers: Record<string, string>) => gateway.inject({ method: 'GET', url, headers });

  it('compresses a proxied response as the browser asks, and says it varies', async () => {
    const plain = (await get('/api/books')).body;
    const br = await ask('/api/books', { 'accept-encoding': 'gzip, deflate, br', ...origin });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    // What CORS says varies is kept, and the encoding is added once.
    expect(
      String(br.headers.vary)
        .toLowerCase()
        .split(/\s*,\s*/)
        .sort(),
    ).toEqual(['accept-encoding', 'origin']);

    const gz = await ask('/api/books', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
  });

  it("follows the browser's choice: br refused, x-gzip or « * » give gzip; identity or an unknown coding, the plain response", async () => {
    const encodingFor = async (accept: string) => (await ask('/api/books', { 'accept-encoding': accept })).headers;
    expect((await encodingFor('br;q=0, gzip'))['content-encoding']).toBe('gzip');
    expect((await encodingFor('x-gzip'))['content-encoding']).toBe('gzip');
    expect((await encodingFor('*'))['content-encoding']).toBe('gzip');
    for (const accept of ['identity', 'deflate', 'compress']) {
      const plain = await ask('/api/books', { 'accept-encoding': accept });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.json().total).toBe(40);
    }
    const refused = await ask('/api/books', { 'accept-encoding': 'br', 'x-no-compression': '1' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a large response too', async () => {
    const large = await ask('/api/categories', { 'accept-encoding': 'br' });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    const json = JSON.parse(brotliDecompressSync(large.rawPayload).toString());
    expect(json.data).toHaveLength(1500);
    expect(JSON.stringify(json).length).toBeGreaterThan(64 * 1024);
  });
});

describe('request bodies', () => {
  it('refuses a compressed one (415, in French) rather than inflate it, and passes a plain one on', async () => {
    const json = JSON.stringify({ title: 'Mathématiques 6e' });
    const post = (headers: Record<string, string>, payload: string | Buffer) =>
      gateway.inject({ method: 'POST', url: '/api/books', headers, payload });
    const before = posted;
    for (const [type, body] of [
      ['application/json', json],
      [
        'multipart/form-data; boundary=x',
        `--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nMaths\r\n--x--\r\n`,
      ],
    ] as const) {
      for (const encoding of ['gzip', 'br', 'deflate']) {
        const refused = await post({ 'content-type': type, 'content-encoding': encoding }, gzipSync(body));
        expect(refused.statusCode, `${type}, ${encoding}`).toBe(415);
        expect(refused.json().message).toBe(messages.contentEncodingUnsupported);
      }
    }
    expect(posted).toBe(before);
    // Identity is no encoding at all.
    const plain = await post({ 'content-type': 'application/json', 'content-encoding': 'identity' }, json);
    expect(plain.statusCode).toBe(200);
    expect(posted).toBe(before + 1);
  });
});
