import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export interface OpenApiOptions {
  /** The service's name, the document's title. */
  title: string;
  description?: string;
}

/** Paths that are the service's plumbing, not its API. */
const PLUMBING = ['/health', '/ready', '/metrics', '/openapi.json'];

/**
 * The service's OpenAPI 3.1 document, generated from the zod schemas of its routes (the ones in
 * libs/contracts) and served at GET /openapi.json. Register it before the routes: it lists the
 * routes declared after it. The gateway merges the services' documents under /api/docs.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title,
        version: '1.0.0',
        ...(options.description ? { description: options.description } : {}),
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: createJsonSchemaTransform({ skipList: PLUMBING }),
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/openapi.json', { schema: { hide: true }, logLevel: 'warn' }, async () => app.swagger());
}
