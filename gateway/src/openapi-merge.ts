import FindMyWay from 'find-my-way';
import type { RouteEntry, Upstream } from './plugins/app/route-table.ts';

/**
 * The services' OpenAPI documents (each at GET /openapi.json, generated from the zod schemas of
 * libs/contracts) merged into one document of the gateway's API: every operation a service
 * implements and the route table sends to it, under its /api path, with the access the gateway
 * asks for. Served under /api/docs in development (gateway/src/plugins/api-docs.ts).
 */

// A loose view of an OpenAPI 3.1 document: only what the merge reads or writes.
type Json = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  info: Json & { title: string; version: string };
  paths?: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> } & Json;
  tags?: Json[];
  [key: string]: unknown;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const PROXIED = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** `/books/{id}/comments` → `/books/1/comments`: a concrete path to ask the route table about. */
export const samplePath = (openApiPath: string) => openApiPath.replace(/\{[^}]+\}/g, '1');

/**
 * Which route-table entry the gateway uses for a concrete /api path, with the same router as Fastify
 * (find-my-way): static segments beat parameters, parameters beat wildcards.
 */
export function routeFinder(routeTable: readonly RouteEntry[]) {
  const router = FindMyWay();
  for (const entry of routeTable) router.on(PROXIED as never, `/api${entry.path}`, () => {}, entry);
  return (method: string, path: string): RouteEntry | undefined => {
    const found = router.find(method.toUpperCase() as never, path);
    return (found?.store as RouteEntry | undefined) ?? undefined;
  };
}

const isOperation = (key: string) => (HTTP_METHODS as readonly string[]).includes(key);

/**
 * One document for the gateway: `/api` + each service path the route table sends to that
 * service (other paths, such as auth's /internal/token-status or the JWKS, are not public),
 * tagged with its upstream, `security` set from the route's access. Schemas of the services share
 * one namespace (they come from the same contracts); two different schemas under one name keep
 * both, the later one renamed after its upstream.
 */
export function mergeOpenApi(
  documents: ReadonlyArray<{ upstream: Upstream; document: OpenApiDocument }>,
  routeTable: readonly RouteEntry[],
  info: { title: string; version: string; description?: string } = { title: 'Cartable API', version: '1.0.0' },
): OpenApiDocument {
  const find = routeFinder(routeTable);
  const paths: Record<string, Record<string, Json>> = {};
  const schemas: Record<string, unknown> = {};
  const tags = new Map<string, Json>();

  for (const { upstream, document } of documents) {
    // Component names already taken by another service with another content are renamed.
    const renames = new Map<string, string>();
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema))
        renames.set(name, `${upstream}_${name}`);
    }
    const rename = <T>(value: T): T =>
      renames.size
        ? (JSON.parse(JSON.stringify(value), (key, v) =>
            key === '$ref' && typeof v === 'string'
              ? v.replace(/^#\/components\/schemas\/(.+)$/, (ref, name: string) =>
                  renames.has(name) ? `#/components/schemas/${renames.get(name)}` : ref,
                )
              : v,
          ) as T)
        : value;
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      schemas[renames.get(name) ?? name] = rename(schema);
    }

    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(item)) {
        if (!isOperation(method)) continue;
        const entry = find(method, `/api${samplePath(path)}`);
        if (entry?.upstream !== upstream) continue;
        const ownTags = ((operation.tags as string[] | undefined) ?? []).map((t) => `${upstream}: ${t}`);
        const operationTags = ownTags.length ? ownTags : [upstream];
        for (const tag of operationTags) tags.set(tag, { name: tag });
        const { security: _own, ...rest } = rename(operation);
        paths[`/api${path}`] ??= {};
        paths[`/api${path}`]![method] = {
          ...rest,
          tags: operationTags,
          // What the gateway checks before the upstream sees the request; finer rules are the upstream's.
          ...(entry.access === 'public' ? {} : { security: [{ bearer: [] }] }),
          'x-upstream': upstream,
          'x-access': entry.access,
        };
      }
    }
  }

  return {
    openapi: '3.1.0',
    info,
    tags: [...tags.values()].sort((a, b) => String(a.name).localeCompare(String(b.name))),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}
