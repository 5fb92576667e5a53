import { messages } from '@cartable/contracts';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  baseConfigSchema,
  ConfigError,
  conflict,
  createHttpApp,
  DEVELOPMENT_INTERNAL_SERVICE_TOKEN,
  HttpError,
  hasPermission,
  internalServiceConfigSchema,
  loadConfig,
  notFound,
  serveMetrics,
  unprocessable,
} from '../src/index.ts';

function appWithRoutes() {
  const app = createHttpApp({
    name: 'test',
    logger: false,
    readiness: [{ name: 'database', check: async () => {} }],
  });
  app.post(
    '/echo',
    { schema: { body: z.object({ email: z.string().email("Format d'email invalide") }) } },
    async (r) => r.body,
  );
  app.get('/boom', async () => {
    throw new Error('secret internal detail');
  });
  app.get('/teapot', async () => {
    throw new HttpError(409, 'Déjà pris', { email: ['Déjà pris'] });
  });
  app.get('/domain/:kind', async (request) => {
    const { kind } = request.params as { kind: string };
    if (kind === 'conflict') throw conflict('Déjà réservé');
    if (kind === 'missing') throw notFound('Ce manuel est introuvable.');
    throw unprocessable({ price: ['Prix invalide'] });
  });
  return app;
}

describe('createHttpApp', () => {
  it('answers validation failures with 422 and French field errors', async () => {
    const res = await appWithRoutes().inject({ method: 'POST', url: '/echo', payload: { email: 'nope' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Les données envoyées sont invalides.',
      errors: { email: ["Format d'email invalide"] },
    });
  });

  it('answers malformed JSON with 400 in French, not a 5xx', async () => {
    const res = await appWithRoutes().inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Le corps de la requête doit être un JSON valide.');
  });

  it('hides internal errors behind a French 500 without a stack trace', async () => {
    const res = await appWithRoutes().inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(res.json()).toEqual({ message: 'Une erreur interne est survenue. Veuillez réessayer plus tard.' });
  });

  it('passes HttpError status, message and field errors through', async () => {
    const res = await appWithRoutes().inject({ method: 'GET', url: '/teapot' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Déjà pris', errors: { email: ['Déjà pris'] } });
  });

  it('maps each kind of domain error to its status, once, with its French message', async () => {
    const app = appWithRoutes();
    const answers = await Promise.all(
      ['conflict', 'missing', 'invalid'].map((kind) => app.inject({ method: 'GET', url: `/domain/${kind}` })),
    );
    expect(answers.map((res) => [res.statusCode, res.json()])).toEqual([
      [409, { message: 'Déjà réservé' }],
      [404, { message: 'Ce manuel est introuvable.' }],
      [422, { message: 'Les données envoyées sont invalides.', errors: { price: ['Prix invalide'] } }],
    ]);
  });

  it('answers unknown paths with 404 JSON, and keeps a request id only from a trusted proxy', async () => {
    const res = await appWithRoutes().inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'abc-123' } });
    expect(res.statusCode).toBe(404);
    // No proxy is trusted by default: a client's own id is replaced.
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const behindGateway = createHttpApp({ name: 'test', logger: false, trustProxy: ['loopback'] });
    const passed = await behindGateway.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'abc-123' } });
    expect(passed.headers['x-request-id']).toBe('abc-123');
    const hostile = await behindGateway.inject({
      method: 'GET',
      url: '/nope',
      headers: { 'x-request-id': 'bad id\nforged log line' },
    });
    expect(hostile.headers['x-request-id']).not.toContain('forged');
  });

  it("takes the client's address from a trusted proxy only, however many addresses it has seen", async () => {
    const app = createHttpApp({ name: 'test', logger: false, trustProxy: ['loopback'] });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    const ipOf = async (remoteAddress: string, forwarded: string) =>
      (await app.inject({ method: 'GET', url: '/ip', remoteAddress, headers: { 'x-forwarded-for': forwarded } })).json()
        .ip;
    expect(await ipOf('127.0.0.1', '203.0.113.5')).toBe('203.0.113.5');
    // A client claiming to be forwarded is itself the client.
    expect(await ipOf('198.51.100.7', '203.0.113.5')).toBe('198.51.100.7');
    // Along a chain, the first address no trusted proxy vouches for.
    expect(await ipOf('127.0.0.1', '203.0.113.5, 10.0.0.1, 127.0.0.2')).toBe('10.0.0.1');
    // More invented addresses than the trust check remembers: each still answered for itself.
    for (let i = 0; i < 1200; i++) {
      const client = `198.18.${i >> 8}.${i & 255}`;
      expect(await ipOf('127.0.0.1', `${client}, 127.0.0.3`)).toBe(client);
    }
    expect(await ipOf('198.51.100.7', '203.0.113.5')).toBe('198.51.100.7');
    expect(await ipOf('127.0.0.1', '203.0.113.5')).toBe('203.0.113.5');
  });

  it('reports readiness from its checks and turns not ready when shutting down', async () => {
    const app = createHttpApp({
      name: 'test',
      logger: false,
      readiness: [
        { name: 'database', check: async () => {} },
        { name: 'nats', check: () => Promise.reject(new Error('injoignable')) },
      ],
    });
    const res = await app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json().checks).toEqual({ database: 'ok', nats: 'injoignable' });
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);

    const ok = appWithRoutes();
    expect((await ok.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    ok.markShuttingDown();
    expect((await ok.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
  });

  it('exposes Prometheus metrics on a port of their own, never on the app’s', async () => {
    const app = appWithRoutes();
    await app.inject({ method: 'GET', url: '/health' });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const metrics = await serveMetrics(app.metrics, { port: 0, host: '127.0.0.1' });
    try {
      const text = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
      expect(text).toContain('http_request_duration_seconds');
      expect((await fetch(`http://127.0.0.1:${metrics.port}/other`)).status).toBe(404);
    } finally {
      await metrics.close();
    }
  });

  it('answers the French 503, and closes the connection, to requests that arrive while it closes', async () => {
    const app = createHttpApp({ name: 'test', logger: false });
    let release: () => void = () => {};
    app.get('/slow', () => new Promise((resolve) => (release = () => resolve({ ok: true }))));
    app.get('/fast', async () => ({ ok: true }));
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    // One kept-alive connection, as a gateway's pool holds: a request in progress keeps it open
    // while the app closes, and the next one on it is read once the close has begun.
    const agent = new Agent({ connections: 1, pipelining: 2 });
    try {
      const slow = request(`${base}/slow`, { dispatcher: agent });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const pending = request(`${base}/fast`, { dispatcher: agent });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const closed = app.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      const late = await pending;
      expect(late.statusCode).toBe(503);
      expect(late.headers.connection).toBe('close');
      expect(await late.body.json()).toEqual({ message: messages.serviceUnavailable });
      expect((await slow).statusCode).toBe(200);
      await closed;
    } finally {
      await agent.close();
    }
  });
});

describe('loadConfig', () => {
  const schema = baseConfigSchema.extend({ PORT: z.coerce.number().int(), SECRET: z.string().min(8) });

  it('names every missing or invalid variable', () => {
    expect(() => loadConfig(schema, { PORT: 'abc', REDIS_URL: 'not a url' })).toThrow(ConfigError);
    try {
      loadConfig(schema, { PORT: 'abc', REDIS_URL: 'not a url' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/SECRET/);
      expect((err as Error).message).toMatch(/REDIS_URL/);
    }
  });

  it('applies defaults and treats empty strings as unset', () => {
    const config = loadConfig(schema, { PORT: '4000', SECRET: 'abcdefgh', LOG_LEVEL: '' });
    expect(config).toMatchObject({ PORT: 4000, LOG_LEVEL: 'info', NODE_ENV: 'development' });
  });

  it('requires the service credential in production: set, of 32 characters at least, not the development one', () => {
    const withCredential = baseConfigSchema.extend(internalServiceConfigSchema.shape);
    expect(loadConfig(withCredential, {}).INTERNAL_SERVICE_TOKEN).toBe(DEVELOPMENT_INTERNAL_SERVICE_TOKEN);
    expect(() => loadConfig(withCredential, { NODE_ENV: 'production' })).toThrow(/INTERNAL_SERVICE_TOKEN/);
    expect(() => loadConfig(withCredential, { NODE_ENV: 'production', INTERNAL_SERVICE_TOKEN: 'court' })).toThrow(
      /INTERNAL_SERVICE_TOKEN: 32 caractères au moins/,
    );
    const secret = 'k'.repeat(40);
    expect(loadConfig(withCredential, { NODE_ENV: 'production', INTERNAL_SERVICE_TOKEN: secret })).toMatchObject({
      INTERNAL_SERVICE_TOKEN: secret,
    });
  });
});

describe('hasPermission (SPEC.md section 6)', () => {
  it('passes when held, with the wildcard, or for an admin', () => {
    expect(hasPermission({ is_admin: false, permissions: ['cities.manage'] }, 'cities.manage')).toBe(true);
    expect(hasPermission({ is_admin: false, permissions: ['cities.manage'] }, 'banners.manage')).toBe(false);
    expect(hasPermission({ is_admin: false, permissions: ['*'] }, 'banners.manage')).toBe(true);
    expect(hasPermission({ is_admin: true, permissions: [] }, 'banners.manage')).toBe(true);
  });
});
