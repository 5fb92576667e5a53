import SwaggerParser from '@apidevtools/swagger-parser';
import { createRedis, type Db, loadConfig, UnitOfWork } from '@cartable/service-kit';
import { testTokens } from '@cartable/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuthApp } from '../../services/auth/src/app.ts';
import { authConfigSchema } from '../../services/auth/src/config.ts';
import { buildCatalogApp } from '../../services/catalog/src/app.ts';
import { createCatalog } from '../../services/catalog/src/catalog.ts';
import { catalogConfigSchema } from '../../services/catalog/src/config.ts';
import { buildMessagingApp } from '../../services/messaging/src/app.ts';
import { messagingConfigSchema } from '../../services/messaging/src/config.ts';
import { buildModerationApp } from '../../services/moderation/src/app.ts';
import { moderationConfigSchema } from '../../services/moderation/src/config.ts';
import { buildNotificationsApp } from '../../services/notifications/src/app.ts';
import { notificationsConfigSchema } from '../../services/notifications/src/config.ts';
import { buildGateway } from '../src/app.ts';
import { gatewayConfigSchema } from '../src/config.ts';
import { HTTP_METHODS, type OpenApiDocument, routeFinder, samplePath } from '../src/openapi-merge.ts';
import { routeTable, type Upstream, upstreams } from '../src/plugins/app/route-table.ts';

/**
 * The OpenAPI documents: each service's GET /openapi.json (generated from the zod schemas of
 * libs/contracts) is valid OpenAPI 3.1, and the gateway's /api/docs/openapi.json holds every
 * route of its route table that a service implements, under its /api path. The four services
 * run for real (their apps, on ports of their own) with stand-ins for what they never touch
 * while describing themselves: database, storage, signing keys.
 */

/** Service paths the gateway never routes, on purpose. */
const NOT_PUBLIC = ['/internal/token-status', '/.well-known/jwks.json'];
const PROXIED = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const services = {} as Record<Upstream, FastifyInstance>;
const documents = {} as Record<Upstream, OpenApiDocument>;
let gateway: Awaited<ReturnType<typeof buildGateway>>;
let merged: OpenApiDocument;

/** Nothing a service reads while it starts or describes itself. */
const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not in this test')) });

async function startServices() {
  const { guards } = await testTokens();
  const db = unused as Db;
  const relay = { kick: () => {} };
  const env = { DATA_DIR: '/tmp/cartable-api-docs-test' };
  const silent = pino({ level: 'silent' });
  services.auth = await buildAuthApp(
    {
      config: loadConfig(authConfigSchema, env),
      uow: new UnitOfWork({ db, relay, log: silent }),
      guards,
      signer: unused as never,
      throttle: unused as never,
      revocation: unused as never,
      storage: unused as never,
    },
    [],
    false,
  );
  const catalog = createCatalog({
    config: loadConfig(catalogConfigSchema, env),
    uow: new UnitOfWork({ db, relay, log: silent }),
    guards,
    storage: unused as never,
    redis: undefined,
    log: silent,
  });
  services.catalog = await buildCatalogApp(catalog, [], false);
  await catalog.listings.views.stop();
  services.messaging = await buildMessagingApp(
    { config: loadConfig(messagingConfigSchema, env), uow: new UnitOfWork({ db, relay, log: silent }), guards },
    [],
    false,
  );
  services.moderation = await buildModerationApp(
    { config: loadConfig(moderationConfigSchema, env), uow: new UnitOfWork({ db, relay, log: silent }), guards },
    [],
    false,
  );
  services.notifications = await buildNotificationsApp(
    { config: loadConfig(notificationsConfigSchema, env), db, guards },
    [],
    false,
  );
  const urls = {} as Record<Upstream, string>;
  for (const upstream of upstreams) {
    await services[upstream].listen({ port: 0, host: '127.0.0.1' });
    const address = services[upstream].server.address();
    urls[upstream] = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }
  return urls;
}

const gatewayConfig = (urls: Record<Upstream, string>, NODE_ENV: string) =>
  loadConfig(gatewayConfigSchema, {
    NODE_ENV,
    AUTH_URL: urls.auth,
    CATALOG_URL: urls.catalog,
    MESSAGING_URL: urls.messaging,
    MODERATION_URL: urls.moderation,
    NOTIFICATIONS_URL: urls.notifications,
    FRONTENDS_DIR: '/nonexistent',
    DATA_DIR: '/tmp/cartable-api-docs-test',
    INTERNAL_SERVICE_TOKEN: 'a-service-credential-of-this-test-only',
  });

const verifier = { verify: () => Promise.reject(new Error('no token in this test')) } as never;

beforeAll(async () => {
  const urls = await startServices();
  for (const upstream of upstreams) {
    const response = await services[upstream].inject({ url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    documents[upstream] = response.json();
  }
  gateway = await buildGateway({ config: gatewayConfig(urls, 'development'), redis, verifier }, [], false);
  const response = await gateway.inject({ url: '/api/docs/openapi.json' });
  expect(response.statusCode).toBe(200);
  merged = response.json();
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all(upstreams.map((o) => services[o]?.close()));
  redis.disconnect();
});

/** `/books/:id/comments/:commentId` → `/books/{id}/comments/{commentId}`. */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationsOf = (document: OpenApiDocument, path: string) =>
  Object.keys(document.paths?.[path] ?? {}).filter((k) => (HTTP_METHODS as readonly string[]).includes(k));

describe("each service's OpenAPI document", () => {
  it.each(upstreams)(
    '%s: GET /openapi.json is valid OpenAPI 3.1 and documents every answer it sends',
    async (upstream) => {
      const document = documents[upstream];
      expect(document.openapi).toBe('3.1.0');
      await SwaggerParser.validate(structuredClone(document) as never);
      // Every operation says what a success answers (a schema of libs/contracts), multipart uploads included.
      for (const [path, item] of Object.entries(document.paths ?? {})) {
        for (const method of operationsOf(document, path)) {
          const responses = (item[method] as { responses: Record<string, { content?: unknown }> }).responses;
          const success = Object.entries(responses).filter(([code]) => code.startsWith('2'));
          expect(success.length, `${upstream} ${method} ${path}`).toBeGreaterThan(0);
          for (const [, answer] of success) expect(answer.content, `${upstream} ${method} ${path}`).toBeDefined();
        }
      }
    },
  );
});

describe('the merged document at /api/docs/openapi.json', () => {
  it('is valid OpenAPI 3.1, its references resolved', async () => {
    expect(merged.info['x-unavailable']).toBeUndefined();
    await SwaggerParser.validate(structuredClone(merged) as never);
  });

  it('holds every route of the route table that a service implements, under its /api path', () => {
    const find = routeFinder(routeTable);
    let checked = 0;
    for (const entry of routeTable) {
      const service = services[entry.upstream];
      if (!entry.path.includes('*')) {
        const implemented = PROXIED.filter((method) => service.hasRoute({ method: method as 'GET', url: entry.path }));
        const documented = operationsOf(merged, `/api${toOpenApiPath(entry.path)}`);
        expect(documented, `${entry.upstream} ${entry.path}`).toEqual(
          expect.arrayContaining(implemented.map((m) => m.toLowerCase())),
        );
        checked += implemented.length;
        continue;
      }
      // A wildcard: every path of the upstream's own document that the gateway sends through it.
      for (const path of Object.keys(documents[entry.upstream].paths ?? {})) {
        for (const method of operationsOf(documents[entry.upstream], path)) {
          if (find(method, `/api${samplePath(path)}`) !== entry) continue;
          expect(operationsOf(merged, `/api${path}`), `${entry.upstream} ${method} ${path}`).toContain(method);
          checked++;
        }
      }
    }
    // The route table reaches well over a hundred operations of the four services.
    expect(checked).toBeGreaterThan(100);
  });

  it('leaves out nothing a service documents, except what the gateway never routes', () => {
    const find = routeFinder(routeTable);
    const missing: string[] = [];
    for (const upstream of upstreams) {
      for (const path of Object.keys(documents[upstream].paths ?? {})) {
        if (NOT_PUBLIC.includes(path)) continue;
        for (const method of operationsOf(documents[upstream], path)) {
          // Routed to this upstream by the gateway, and in the merged document.
          if (find(method, `/api${samplePath(path)}`)?.upstream !== upstream)
            missing.push(`${upstream} ${method} ${path} (not routed)`);
          else if (!operationsOf(merged, `/api${path}`).includes(method)) missing.push(`${upstream} ${method} ${path}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("marks what needs a token, as the route table's access says", () => {
    const operation = (path: string, method: string) => merged.paths?.[path]?.[method] as Record<string, unknown>;
    expect(operation('/api/books', 'get').security).toBeUndefined();
    expect(operation('/api/messages', 'get').security).toEqual([{ bearer: [] }]);
    expect(operation('/api/admin/contacts', 'get')['x-access']).toBe('admin');
    expect(operation('/api/books/{id}/comments', 'get')['x-upstream']).toBe('moderation');
    expect(operation('/api/books/{id}', 'get')['x-upstream']).toBe('catalog');
  });

  it('shows it in swagger-ui, under the gateway’s own CSP (no inline script)', async () => {
    const pageResponse = await gateway.inject({ url: '/api/docs' });
    expect(pageResponse.statusCode).toBe(200);
    expect(pageResponse.headers['content-security-policy']).toContain("script-src 'self'");
    expect(pageResponse.body).not.toMatch(/<script>(?!<\/script>)/);
    for (const asset of [
      '/api/docs/assets/swagger-ui-bundle.js',
      '/api/docs/assets/swagger-ui.css',
      '/api/docs/init.js',
    ]) {
      expect((await gateway.inject({ url: asset })).statusCode, asset).toBe(200);
    }
  });

  it('is not served in production', async () => {
    const urls = Object.fromEntries(upstreams.map((o) => [o, 'http://127.0.0.1:9'])) as Record<Upstream, string>;
    const production = await buildGateway({ config: gatewayConfig(urls, 'production'), redis, verifier }, [], false);
    try {
      expect((await production.inject({ url: '/api/docs/openapi.json' })).statusCode).toBe(404);
      expect((await production.inject({ url: '/api/docs' })).statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});
