import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import {
  cacheRevokedToken,
  cacheTokenVersion,
  createRedis,
  createTokenVerifier,
  DEVELOPMENT_INTERNAL_SERVICE_TOKEN,
  loadConfig,
  markRevocationCacheIncomplete,
  markRevocationCacheLoaded,
  SERVICE_TOKEN_HEADER,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
} from '@cartable/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet, decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';
import { routeTable, type Upstream, upstreams } from '../src/plugins/app/route-table.ts';

const prefix = `cartable:t${randomBytes(4).toString('hex')}:`;
const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const servers: FastifyInstance[] = [];
let gateway: Awaited<ReturnType<typeof buildGateway>>;
let sign: (claims: { is_admin?: boolean; jti?: string }) => Promise<string>;
let jwks: ReturnType<typeof createLocalJWKSet>;
let urls: Record<Upstream, string>;

/** What the stand-in auth says at /internal/token-status: revoked token ids, calls received. */
const authStatus = { revoked: new Set<string>(), calls: 0 };

/** A stand-in upstream that says who it is, what path it got and whether a token came along. */
async function fakeUpstream(upstream: Upstream) {
  const app = Fastify();
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
  // Signed webhooks: the upstream must get the very bytes that were signed.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
    raw.post('/payments/webhooks/:provider', async (request) => ({
      upstream,
      authorized: Boolean(request.headers.authorization),
      raw: (request.body as Buffer).toString('utf8'),
      signature: request.headers['x-cartable-signature'],
    }));
    // The one-click unsubscribe (RFC 8058): the form body a mail client posts.
    raw.post('/saved-searches/unsubscribe', async (request) => ({
      upstream,
      url: request.url,
      authorized: Boolean(request.headers.authorization),
      raw: (request.body as Buffer).toString('utf8'),
    }));
  });
  if (upstream === 'auth') {
    // As the real one: only with the service credential the gateway holds (the default here).
    app.post('/internal/token-status', async (request, reply) => {
      if (request.headers[SERVICE_TOKEN_HEADER] !== DEVELOPMENT_INTERNAL_SERVICE_TOKEN)
        return reply.code(403).send({ message: 'refused' });
      authStatus.calls++;
      const jti = decodeJwt(request.headers.authorization?.slice('Bearer '.length) ?? '').jti ?? '';
      return { revoked: authStatus.revoked.has(jti) };
    });
  }
  app.all('/*', async (request) => ({
    upstream,
    url: request.url,
    method: request.method,
    authorized: Boolean(request.headers.authorization),
    requestId: request.headers['x-request-id'],
    forwardedFor: request.headers['x-forwarded-for'],
    bodyLength: Buffer.isBuffer(request.body) ? request.body.length : undefined,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(app);
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

beforeAll(async () => {
  urls = Object.fromEntries(await Promise.all(upstreams.map(async (u) => [u, await fakeUpstream(u)])));
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  sign = ({ is_admin = false, jti = crypto.randomUUID() }) =>
    new SignJWT({ email_verified: true, is_admin, roles: [], permissions: [] })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject(crypto.randomUUID())
      .setJti(jti)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setExpirationTime('1h')
      .sign(privateKey);
  const config = loadConfig(gatewayConfigSchema, {
    AUTH_URL: urls.auth,
    CATALOG_URL: urls.catalog,
    MESSAGING_URL: urls.messaging,
    // Nothing listens on port 9: moderation is "down".
    MODERATION_URL: 'http://127.0.0.1:9',
    REDIS_KEY_PREFIX: prefix,
    FRONTENDS_DIR: '/nonexistent',
    DATA_DIR: '/tmp/cartable-gateway-test',
  });
  jwks = createLocalJWKSet({ keys: [jwk] });
  gateway = await buildGateway({ config, redis, verifier: createTokenVerifier(jwks) }, [], false);
  // As auth does once it has loaded the cache.
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  await markRevocationCacheLoaded(redis, prefix);
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(servers.map((u) => u.close()));
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

const get = async (url: string, token?: string) =>
  gateway.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });

/** Another gateway before the same upstreams, with these settings and rate-limit counters of its own. */
async function gatewayWith(env: Record<string, string>) {
  const config = loadConfig(gatewayConfigSchema, {
    AUTH_URL: urls.auth,
    CATALOG_URL: urls.catalog,
    MESSAGING_URL: urls.messaging,
    MODERATION_URL: 'http://127.0.0.1:9',
    REDIS_KEY_PREFIX: `${prefix}${crypto.randomUUID().slice(0, 8)}:`,
    FRONTENDS_DIR: '/nonexistent',
    DATA_DIR: '/tmp/cartable-gateway-test',
    ...env,
  });
  return buildGateway({ config, redis, verifier: createTokenVerifier(jwks) }, [], false);
}
type Gateway = Awaited<ReturnType<typeof gatewayWith>>;

describe('security headers', () => {
  const shared = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': expect.stringContaining('max-age='),
  };

  it('puts the API’s short set on a proxied response and on a refusal alike', async () => {
    const responses = [await get('/api/books'), await get('/api/user/books'), await get('/api/nothing-here')];
    expect(responses.map((a) => a.statusCode)).toEqual([200, 401, 404]);
    for (const response of responses) {
      expect(response.headers).toMatchObject({
        ...shared,
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'cross-origin-resource-policy': 'same-origin',
      });
      // What only a page needs is not sent on each API call.
      expect(response.headers['x-frame-options']).toBeUndefined();
      expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('puts helmet’s whole set, with the frontends’ policy, on what is not the API', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/app-config.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      ...shared,
      'x-frame-options': 'SAMEORIGIN',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).toContain("frame-src 'self' https://www.openstreetmap.org");
    // The barcode reader compiles our WebAssembly; scripts still come from the site alone, never evaluated.
    expect(response.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(response.headers['content-security-policy']).not.toContain("'unsafe-eval'");
    expect(response.headers['x-powered-by']).toBeUndefined();
  });
});

describe('cross-origin calls', () => {
  const fromOrigin = (app: Gateway, origin: string) =>
    app.inject({ method: 'GET', url: '/api/books', headers: { origin } });

  it('by default serves its own origin only: no CORS header for any other site to read a response with', async () => {
    const app = await gatewayWith({});
    const response = await fromOrigin(app, 'https://ailleurs.example');
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    await app.close();
  });

  it('lets the origins CORS_ORIGINS names call it with credentials, and them only', async () => {
    const app = await gatewayWith({ CORS_ORIGINS: 'http://localhost:3000, https://admin.cartable.example' });
    const allowed = await fromOrigin(app, 'http://localhost:3000');
    expect(allowed.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:3000',
      'access-control-allow-credentials': 'true',
    });
    expect(String(allowed.headers.vary)).toMatch(/origin/i);
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/favourites',
      headers: {
        origin: 'https://admin.cartable.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://admin.cartable.example');
    const other = await fromOrigin(app, 'https://ailleurs.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    await app.close();
  });
});

describe('route table: every documented path goes to its upstream (SPEC.md section 7)', () => {
  const cases: Array<[string, string, Upstream]> = [
    ['POST', '/api/register', 'auth'],
    ['POST', '/api/verify-email', 'auth'],
    ['POST', '/api/check-email-verification', 'auth'],
    ['POST', '/api/validate-reset-token', 'auth'],
    ['PUT', '/api/user/profile', 'auth'],
    ['DELETE', '/api/user/profile/image', 'auth'],
    ['GET', '/api/user/recent-activity', 'auth'],
    ['POST', '/api/two-factor/confirm', 'auth'],
    ['POST', '/api/two-factor/resend', 'auth'],
    ['GET', '/api/books', 'catalog'],
    ['GET', '/api/books/search?query=maths', 'catalog'],
    ['GET', '/api/books/featured', 'catalog'],
    ['GET', '/api/books/42', 'catalog'],
    ['PUT', '/api/books/42/status', 'catalog'],
    ['GET', '/api/user/books', 'catalog'],
    ['GET', '/api/users/profile/books', 'catalog'],
    ['GET', '/api/categories/hierarchy/tree', 'catalog'],
    ['GET', '/api/categories/7/descendants', 'catalog'],
    ['GET', '/api/locations/cities/search?q=lib', 'catalog'],
    ['GET', '/api/countries/266/provinces', 'catalog'],
    ['GET', '/api/banners/active', 'catalog'],
    ['POST', '/api/banners/reorder', 'catalog'],
    ['GET', '/api/messages/unread/count', 'messaging'],
    ['POST', '/api/messages/conversation/a/b/mark-read', 'messaging'],
    ['GET', '/api/user/messages/recent', 'messaging'],
    ['GET', '/api/subscription-plans', 'catalog'],
    ['POST', '/api/subscriptions', 'catalog'],
    ['GET', '/api/subscriptions/9b2f0c1e-1111-4a4a-9a9a-000000000001', 'catalog'],
    ['POST', '/api/subscriptions/9b2f0c1e-1111-4a4a-9a9a-000000000001/renew', 'catalog'],
    ['PUT', '/api/subscriptions/9b2f0c1e-1111-4a4a-9a9a-000000000001/books', 'catalog'],
    ['POST', '/api/boosted-books/9b2f0c1e-1111-4a4a-9a9a-000000000001/transfer', 'catalog'],
    ['POST', '/api/payments/9b2f0c1e-1111-4a4a-9a9a-000000000001/declaration', 'catalog'],
    ['GET', '/api/payments/9b2f0c1e-1111-4a4a-9a9a-000000000001/receipt', 'catalog'],
    ['GET', '/api/admin/subscriptions?status=active', 'catalog'],
    ['POST', '/api/admin/subscriptions/9b2f0c1e-1111-4a4a-9a9a-000000000001/extend', 'catalog'],
    ['GET', '/api/admin/boosted-books', 'catalog'],
    ['GET', '/api/admin/payments', 'catalog'],
    ['POST', '/api/admin/payments/9b2f0c1e-1111-4a4a-9a9a-000000000001/refunds', 'catalog'],
    ['GET', '/api/admin/stats/subscriptions', 'catalog'],
    ['GET', '/api/class-lists?level_id=3&school_year=2026-2027', 'catalog'],
    ['GET', '/api/class-lists/12', 'catalog'],
    ['GET', '/api/class-lists/12/availability?city_id=1', 'catalog'],
    ['POST', '/api/class-lists/proposals', 'catalog'],
    ['GET', '/api/class-list-items/search?q=maths', 'catalog'],
    ['GET', '/api/my-class-lists', 'catalog'],
    ['PUT', '/api/my-class-lists/12', 'catalog'],
    ['DELETE', '/api/my-class-lists/12', 'catalog'],
    ['GET', '/api/admin/class-lists?status=proposed', 'catalog'],
    ['POST', '/api/admin/class-lists/12/import?dry_run=true', 'catalog'],
    ['PUT', '/api/admin/class-lists/12/items/3', 'catalog'],
    ['POST', '/api/admin/class-lists/12/approve', 'catalog'],
    ['GET', '/api/admin/class-lists/coverage?school_year=2026-2027', 'catalog'],
    ['GET', '/api/saved-searches', 'catalog'],
    ['POST', '/api/saved-searches', 'catalog'],
    ['PUT', '/api/saved-searches/12', 'catalog'],
    ['DELETE', '/api/saved-searches/12', 'catalog'],
    ['GET', '/api/saved-searches/unsubscribe?token=12.abc', 'catalog'],
  ];

  it.each(cases)('%s %s → %s', async (method, url, upstream) => {
    const token = await sign({});
    const res = await gateway.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ upstream, url: url.slice('/api'.length), method });
  });

  it('sends admin groups to their upstreams for an admin', async () => {
    const token = await sign({ is_admin: true });
    expect((await get('/api/users/all', token)).json().upstream).toBe('auth');
    expect((await get('/api/admin/users/1/promote', token)).json().upstream).toBe('auth');
    expect((await get('/api/admin/categories/stats', token)).json().upstream).toBe('catalog');
    expect((await get('/api/admin/cities/import', token)).json().upstream).toBe('catalog');
  });

  it('refuses a member on every administrators-only path (403) before reading what they sent', async () => {
    const member = await sign({});
    const wrong: string[] = [];
    const admins = routeTable.filter((entry) => entry.access === 'admin');
    expect(admins.length).toBeGreaterThan(0);
    for (const entry of admins) {
      const url = `/api${entry.path.replace(/:\w+/g, 'pas-un-id').replace(/\*$/, 'x')}?page=-1`;
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        // A body no parser could read: refused for who sends it, not for what it is.
        const res = await gateway.inject({
          method,
          url,
          headers: { authorization: `Bearer ${member}`, 'content-type': 'application/json' },
          ...(method === 'GET' ? {} : { payload: '{"pas du json' }),
        });
        if (res.statusCode !== 403) wrong.push(`${method} ${url}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('sends plans to visitors and keeps plan writing for administrators', async () => {
    expect((await get('/api/subscription-plans')).json().upstream).toBe('catalog');
    expect((await get('/api/subscriptions')).statusCode).toBe(401);
    expect((await get('/api/admin/subscription-plans', await sign({}))).statusCode).toBe(403);
    expect((await get('/api/admin/subscription-plans', await sign({ is_admin: true }))).json().upstream).toBe(
      'catalog',
    );
  });

  it('answers visitors on class lists and « Ma liste », members only on proposals and saved lists', async () => {
    expect((await get('/api/class-lists')).json().upstream).toBe('catalog');
    expect((await get('/api/class-lists/12/availability')).json().upstream).toBe('catalog');
    expect((await get('/api/class-list-items/search?q=svt')).json().upstream).toBe('catalog');
    expect((await get('/api/my-class-lists')).statusCode).toBe(401);
    expect((await gateway.inject({ method: 'POST', url: '/api/class-lists/proposals' })).statusCode).toBe(401);
    expect((await get('/api/admin/class-lists')).statusCode).toBe(401);
    // lists.manage is delegable: a member's token reaches catalog, which checks the permission.
    expect((await get('/api/admin/class-lists', await sign({}))).json().upstream).toBe('catalog');
  });

  it('keeps saved searches for members, and lets a mail client post the one-click unsubscribe without a token', async () => {
    expect((await get('/api/saved-searches')).statusCode).toBe(401);
    expect((await gateway.inject({ method: 'POST', url: '/api/saved-searches' })).statusCode).toBe(401);
    expect((await gateway.inject({ method: 'DELETE', url: '/api/saved-searches/3' })).statusCode).toBe(401);
    expect((await get('/api/saved-searches/unsubscribe?token=3.abc')).json().upstream).toBe('catalog');
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/saved-searches/unsubscribe?token=3.abc',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      upstream: 'catalog',
      url: '/saved-searches/unsubscribe?token=3.abc',
      authorized: false,
      raw: 'List-Unsubscribe=One-Click',
    });
  });

  it('passes a webhook without a token and its body byte for byte', async () => {
    // Spaces, key order and an escaped character that re-encoding JSON would change.
    const raw = '{ "event_id":"e1",  "amount": 1000.0, "note":"caf\u00e9" }\n';
    const res = await gateway.inject({
      method: 'POST',
      url: '/api/payments/webhooks/simulated',
      headers: { 'content-type': 'application/json', 'x-cartable-signature': 't=1,v1=ab' },
      payload: raw,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ upstream: 'catalog', authorized: false, raw, signature: 't=1,v1=ab' });
  });

  it('carries its request id to the upstream', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/api/books' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
  });
});

describe('access checks', () => {
  it('refuses a protected group without a token, and an admin group to a non-admin', async () => {
    expect((await get('/api/user')).statusCode).toBe(401);
    // /admin/users/* is delegable (users.view.any) and left to auth; /admin/contacts is admin-only here.
    const res = await get('/api/admin/contacts', await sign({}));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Cette action est réservée aux administrateurs.');
  });

  it('refuses a revoked token on protected groups and drops it on public ones', async () => {
    const jti = crypto.randomUUID();
    const token = await sign({ jti });
    expect((await get('/api/user', token)).statusCode).toBe(200);
    await cacheRevokedToken(redis, prefix, jti, Math.floor(Date.now() / 1000) + 60);
    expect((await get('/api/user', token)).statusCode).toBe(401);
    const pub = await get('/api/books', token);
    expect(pub.statusCode).toBe(200);
    expect(pub.json().authorized).toBe(false);
  });

  it('drops a forged token on public routes and refuses it on protected ones', async () => {
    const forged = `${(await sign({})).slice(0, -4)}AAAA`;
    expect((await get('/api/books', forged)).json().authorized).toBe(false);
    expect((await get('/api/messages', forged)).statusCode).toBe(401);
  });
});

describe('failures', () => {
  it('answers 404 JSON for an unknown /api path', async () => {
    const res = await get('/api/does/not/exist');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Cette adresse de l'API n'existe pas." });
  });

  it('answers 503 JSON when the upstream is down', async () => {
    const res = await gateway.inject({ method: 'POST', url: '/api/contact', payload: { name: 'x' } });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('Service temporairement indisponible. Veuillez réessayer dans quelques instants.');
  });

  it('streams multipart uploads to the upstream and refuses oversized ones with 413', async () => {
    const token = await sign({});
    const boundary = 'x-boundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nMaths 6e\r\n--${boundary}--\r\n`;
    const ok = await gateway.inject({
      method: 'POST',
      url: '/api/books',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(ok.json()).toMatchObject({ upstream: 'catalog', bodyLength: Buffer.byteLength(body) });
    const tooBig = await gateway.inject({
      method: 'POST',
      url: '/api/books',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(50 * 1024 * 1024),
      },
      payload: body,
    });
    expect(tooBig.statusCode).toBe(413);
  });

  it('serves a French page for unknown page paths when the frontends are not built, JSON 404 for assets', async () => {
    const page = await get('/une/page');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('npm run build:frontends');
    expect((await get('/absent.js')).statusCode).toBe(404);
  });
});

describe('revocation of every token of a user', () => {
  it('refuses tokens of an older version (password change, account deletion)', async () => {
    const token = await sign({});
    const sub = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).sub as string;
    expect((await get('/api/user', token)).statusCode).toBe(200);
    await cacheTokenVersion(redis, prefix, sub, 1, 60);
    // The gateway keeps Redis's answer until Redis announces the change (revocation-memo.ts).
    await gateway.revocation.settled();
    expect((await get('/api/user', token)).statusCode).toBe(401);
  });
});

describe('revocation when Redis cannot answer', () => {
  const subOf = (token: string) => decodeJwt(token).sub as string;

  it('never lowers a cached version (a rebuild that read the database before a bump)', async () => {
    const token = await sign({});
    await cacheTokenVersion(redis, prefix, subOf(token), 3, 60);
    await cacheTokenVersion(redis, prefix, subOf(token), 2, 60);
    expect(await redis.get(`${prefix}token-version:${subOf(token)}`)).toBe('3');
  });

  it('asks auth when the cache is not known to be complete, once per token for a few seconds', async () => {
    const live = await sign({});
    const revokedJti = crypto.randomUUID();
    const revoked = await sign({ jti: revokedJti });
    authStatus.revoked.add(revokedJti);
    // Redis restarted empty: no sentinel, nothing cached.
    await markRevocationCacheIncomplete(redis, prefix);
    try {
      const before = authStatus.calls;
      const answers = await Promise.all(Array.from({ length: 20 }, () => get('/api/user', live)));
      expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      expect((await get('/api/user', revoked)).statusCode).toBe(401);
      expect((await get('/api/user', revoked)).statusCode).toBe(401);
      // 21 + 1 requests, two tokens: auth was asked twice.
      expect(authStatus.calls - before).toBe(2);
      // What the cache does know still counts without asking auth.
      const jti = crypto.randomUUID();
      const cachedRevoked = await sign({ jti });
      await cacheRevokedToken(redis, prefix, jti, Math.floor(Date.now() / 1000) + 60);
      expect((await get('/api/user', cachedRevoked)).statusCode).toBe(401);
      expect(authStatus.calls - before).toBe(2);
    } finally {
      await markRevocationCacheLoaded(redis, prefix);
    }
  });

  it('does not reuse auth’s earlier answer once the token’s own logout went through', async () => {
    const jti = crypto.randomUUID();
    const token = await sign({ jti });
    await markRevocationCacheIncomplete(redis, prefix);
    try {
      expect((await get('/api/user', token)).statusCode).toBe(200);
      // The stand-in auth records the logout as the real one does.
      authStatus.revoked.add(jti);
      const logout = await gateway.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(logout.json().upstream).toBe('auth');
      expect((await get('/api/user', token)).statusCode).toBe(401);
    } finally {
      await markRevocationCacheLoaded(redis, prefix);
    }
  });

  it('keeps every route answering with Redis unreachable: rate limits skipped, revocation from auth', async () => {
    // A port where nothing listens: ioredis fails each command at once (no offline queue).
    const deadRedis = createRedis('redis://127.0.0.1:9');
    deadRedis.on('error', () => {});
    const config = loadConfig(gatewayConfigSchema, {
      AUTH_URL: urls.auth,
      CATALOG_URL: urls.catalog,
      MESSAGING_URL: urls.messaging,
      MODERATION_URL: urls.moderation,
      REDIS_KEY_PREFIX: prefix,
      FRONTENDS_DIR: '/nonexistent',
    });
    const app = await buildGateway({ config, redis: deadRedis, verifier: createTokenVerifier(jwks) }, [], false);
    try {
      // /api/login allows 20 a minute per address: with Redis away the limit is skipped, not a 500.
      const logins = await Promise.all(
        Array.from({ length: 25 }, () =>
          app.inject({ method: 'POST', url: '/api/login', payload: { email: 'a@example.ga', password: 'x' } }),
        ),
      );
      expect(new Set(logins.map((r) => r.statusCode))).toEqual(new Set([200]));
      const live = await sign({});
      const jti = crypto.randomUUID();
      const revoked = await sign({ jti });
      authStatus.revoked.add(jti);
      const inject = (url: string, token: string) =>
        app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      expect((await inject('/api/user', live)).statusCode).toBe(200);
      expect((await inject('/api/user', revoked)).statusCode).toBe(401);
      // A revoked token on a public route: dropped, the visitor goes on.
      const pub = await inject('/api/books', revoked);
      expect(pub.statusCode).toBe(200);
      expect(pub.json().authorized).toBe(false);
    } finally {
      await app.close();
      deadRedis.disconnect();
    }
  });

  it('answers 503 JSON to members, and serves visitors, when neither Redis nor auth answers', async () => {
    const deadRedis = createRedis('redis://127.0.0.1:9');
    deadRedis.on('error', () => {});
    const config = loadConfig(gatewayConfigSchema, {
      AUTH_URL: 'http://127.0.0.1:9',
      CATALOG_URL: urls.catalog,
      MESSAGING_URL: urls.messaging,
      MODERATION_URL: urls.moderation,
      REDIS_KEY_PREFIX: prefix,
      FRONTENDS_DIR: '/nonexistent',
    });
    const app = await buildGateway({ config, redis: deadRedis, verifier: createTokenVerifier(jwks) }, [], false);
    try {
      const token = await sign({});
      const headers = { authorization: `Bearer ${token}` };
      const member = await app.inject({ method: 'GET', url: '/api/messages', headers });
      expect(member.statusCode).toBe(503);
      expect(member.json()).toEqual({
        message: 'Service temporairement indisponible. Veuillez réessayer dans quelques instants.',
      });
      const visitor = await app.inject({ method: 'GET', url: '/api/books', headers });
      expect(visitor.statusCode).toBe(200);
      expect(visitor.json().authorized).toBe(false);
    } finally {
      await app.close();
      deadRedis.disconnect();
    }
  });

  it('answers 503 JSON to members, and serves visitors, when the signing keys were never read', async () => {
    const config = loadConfig(gatewayConfigSchema, {
      AUTH_URL: urls.auth,
      CATALOG_URL: urls.catalog,
      REDIS_KEY_PREFIX: prefix,
      FRONTENDS_DIR: '/nonexistent',
    });
    const verifier = createTokenVerifier('http://127.0.0.1:9/.well-known/jwks.json');
    const app = await buildGateway({ config, redis, verifier }, [], false);
    try {
      const headers = { authorization: `Bearer ${await sign({})}` };
      const member = await app.inject({ method: 'GET', url: '/api/user', headers });
      expect(member.statusCode).toBe(503);
      expect(member.json().message).toBe(
        'Service temporairement indisponible. Veuillez réessayer dans quelques instants.',
      );
      const visitor = await app.inject({ method: 'GET', url: '/api/books', headers });
      expect(visitor.json()).toMatchObject({ upstream: 'catalog', authorized: false });
    } finally {
      await app.close();
    }
  });

  it('never exposes the services’ internal routes', async () => {
    const token = await sign({});
    for (const url of ['/api/internal/token-status', '/internal/token-status']) {
      const res = await gateway.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, url).toBe(404);
    }
  });
});

describe('browser settings', () => {
  it('serves /app-config.json with the inactivity limits and currency', async () => {
    const res = await get('/app-config.json');
    expect(res.json()).toEqual({ inactivity_limit_ms: 1_800_000, inactivity_warning_ms: 60_000, currency: 'XOF' });
  });
});

describe('images from an object store', () => {
  it('streams /storage/* from the storage driver, with long caching, and 404 JSON when missing', async () => {
    const { createLocalStorage } = await import('@cartable/service-kit');
    const storage = createLocalStorage('/tmp/cartable-gateway-objects');
    await storage.put('books/x.webp', Buffer.from('webp-bytes'), 'image/webp');
    const config = loadConfig(gatewayConfigSchema, { FRONTENDS_DIR: '/nonexistent', REDIS_KEY_PREFIX: prefix });
    const app = await buildGateway(
      { config, redis, storage, verifier: createTokenVerifier(createLocalJWKSet({ keys: [] })) },
      [],
      false,
    );
    const res = await app.inject({ method: 'GET', url: '/storage/books/x.webp' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toBe('webp-bytes');
    expect((await app.inject({ method: 'GET', url: '/storage/books/absent.webp' })).statusCode).toBe(404);
    await app.close();
  });
});

describe('client addresses and request ids', () => {
  /** Three logins a minute per address, to see the limit reached. */
  const limited = (env: Record<string, string> = {}) => gatewayWith({ RATE_LIMIT_LOGIN: '3/60', ...env });
  const login = (app: Gateway, forwardedFor: string, requestId?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'a@example.ga', password: 'x' },
      headers: { 'x-forwarded-for': forwardedFor, ...(requestId ? { 'x-request-id': requestId } : {}) },
    });

  it('ignores a forged X-Forwarded-For: a new invented address every time still ends in 429', async () => {
    const app = await limited();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(app, `203.0.113.${i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const forwarded = (
      await app.inject({ method: 'GET', url: '/api/books', headers: { 'x-forwarded-for': '6.6.6.6' } })
    ).json();
    // The upstream is told the address the gateway saw, not the one the client claimed.
    expect(forwarded.forwardedFor).toBe('127.0.0.1');
    await app.close();
  });

  it('counts only the methods a limit names: writes to /api/books use up the uploads limit, reads never do', async () => {
    const app = await gatewayWith({ RATE_LIMIT_UPLOADS: '2/60' });
    const token = await sign({});
    const write = () =>
      app.inject({ method: 'POST', url: '/api/books', headers: { authorization: `Bearer ${token}` }, payload: {} });
    const read = () => app.inject({ method: 'GET', url: '/api/books' });
    const statuses: number[] = [];
    statuses.push((await write()).statusCode, (await write()).statusCode);
    for (let i = 0; i < 4; i++) statuses.push((await read()).statusCode);
    statuses.push((await write()).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const reading = await read();
    expect(reading.statusCode).toBe(200);
    expect(reading.headers['x-ratelimit-limit']).toBeUndefined();
    await app.close();
  });

  it("replaces a client's x-request-id with its own", async () => {
    const app = await limited();
    const res = await app.inject({ method: 'GET', url: '/api/books', headers: { 'x-request-id': 'forged-id' } });
    expect(res.headers['x-request-id']).not.toBe('forged-id');
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
    await app.close();
  });

  it('behind a trusted proxy (TRUST_PROXY), limits each real client apart and keeps the proxy request id', async () => {
    const app = await limited({ TRUST_PROXY: '127.0.0.1' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(app, `198.51.100.${i}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    for (let i = 0; i < 4; i++) statuses.push((await login(app, '198.51.100.77')).statusCode);
    expect(statuses.slice(5)).toEqual([200, 200, 200, 429]);
    const res = await app.inject({
      method: 'GET',
      url: '/api/books',
      headers: { 'x-request-id': 'ingress-123', 'x-forwarded-for': '198.51.100.9' },
    });
    expect(res.headers['x-request-id']).toBe('ingress-123');
    expect(res.json().forwardedFor).toBe('198.51.100.9');
    await app.close();
  });
});

describe('uploads', () => {
  it('refuses a chunked upload, which declares no size, and holds declared ones to the limit', async () => {
    const app = await gatewayWith({ UPLOAD_BODY_LIMIT: String(1024 * 1024) });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const token = await sign({});
    /** A chunked upload (no Content-Length) of `bytes`, stopping as soon as the gateway answers. */
    const send = (bytes: number) =>
      new Promise<{ status: number; body: { message?: string } | null }>((resolve, reject) => {
        const url = new URL(`${address}/api/books`);
        const boundary = '----chunked';
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            answered = true;
            let text = '';
            res.on('data', (d) => {
              text += d;
            });
            res.on('end', () => {
              let body: { message?: string } | null = null;
              try {
                body = JSON.parse(text);
              } catch {}
              resolve({ status: res.statusCode ?? 0, body });
            });
          },
        );
        let answered = false;
        req.on('error', (err) => (answered ? undefined : reject(err)));
        const part = Buffer.alloc(64 * 1024, 'a');
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="image1"; filename="x.jpg"\r\n\r\n`);
        let sent = 0;
        const pump = () => {
          while (sent < bytes && !answered) {
            sent += part.length;
            if (!req.write(part)) return void req.once('drain', pump);
          }
          if (!answered) req.end(`\r\n--${boundary}--\r\n`);
        };
        pump();
      });
    try {
      // No declared size: refused at once, whatever it would have weighed.
      const chunked = await send(5 * 1024 * 1024);
      expect(chunked.status).toBe(411);
      expect(chunked.body?.message).toContain('Content-Length');
      const declared = (bytes: number) =>
        fetch(`${address}/api/books`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' },
          body: Buffer.alloc(bytes, 'a'),
        });
      expect((await declared(256 * 1024)).status).toBe(200);
      expect((await declared(2 * 1024 * 1024)).status).toBe(413);
    } finally {
      await app.close();
    }
  });
});

describe('metrics', () => {
  it('are not served on the public port (they are on METRICS_PORT: libs/service-kit)', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/metrics' });
    expect(res.body).not.toContain('http_request_duration_seconds');
    expect(await gateway.metrics.metrics()).toContain('http_request_duration_seconds');
  });
});
