import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import { mergeOpenApi, type OpenApiDocument } from '../openapi-merge.ts';
import { type RouteEntry, type Upstream, upstreams as upstreamNames } from '../plugins/app/route-table.ts';

export interface ApiDocsOptions {
  routeTable: readonly RouteEntry[];
  upstreams: Record<Upstream, string>;
  /** How long to wait for each service's document. */
  timeoutMs?: number;
}

/** swagger-ui's files, served as they are: no inline script, so the gateway's CSP holds. */
const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="fr">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Cartable · API</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>
`;

const init = `window.ui = SwaggerUIBundle({
  url: '/api/docs/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  // The document stays here: no call to the public validator.
  validatorUrl: null,
});
`;

/**
 * Development only (gateway/src/app.ts registers it unless NODE_ENV=production):
 * GET /api/docs/openapi.json merges the services' GET /openapi.json (generated from the zod
 * schemas of libs/contracts) under the gateway's /api paths; GET /api/docs shows it in swagger-ui.
 * A service that does not answer is named in `x-unavailable` and left out.
 */
export const apiDocsRoutes: FastifyPluginAsync<ApiDocsOptions> = async (app, options) => {
  const timeoutMs = options.timeoutMs ?? 3000;

  async function documentOf(upstream: Upstream): Promise<OpenApiDocument | null> {
    try {
      const response = await fetch(`${options.upstreams[upstream]}/openapi.json`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      return response.ok ? ((await response.json()) as OpenApiDocument) : null;
    } catch {
      return null;
    }
  }

  app.get('/api/docs/openapi.json', async (_request, reply) => {
    const fetched = await Promise.all(
      upstreamNames.map(async (upstream) => ({ upstream, document: await documentOf(upstream) })),
    );
    const documents = fetched.flatMap(({ upstream, document }) => (document ? [{ upstream, document }] : []));
    const unavailable = fetched.filter((f) => !f.document).map((f) => f.upstream);
    const merged = mergeOpenApi(documents, options.routeTable, {
      title: 'Cartable API',
      version: '1.0.0',
      description:
        "L'API de Cartable derrière la passerelle : chaque chemin /api et le service qui y répond. " +
        'Generated from the zod schemas of libs/contracts.',
    });
    reply.header('cache-control', 'no-store');
    return unavailable.length ? { ...merged, info: { ...merged.info, 'x-unavailable': unavailable } } : merged;
  });

  app.get('/api/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(page));
  app.get('/api/docs/init.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(init),
  );
  await app.register(fastifyStatic, {
    root: swaggerUiDir,
    prefix: '/api/docs/assets/',
    decorateReply: false,
    index: false,
  });
};
