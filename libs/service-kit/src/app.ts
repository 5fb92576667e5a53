import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerErrorHandler } from './errors.ts';
import { registerMetrics } from './metrics.ts';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<unknown>;
  /**
   * false: reported in /ready but never makes the pod unready (NATS, Redis: the outbox and the
   * fallbacks absorb their outages, and failing every pod at once on a blip helps nobody).
   */
  critical?: boolean;
}

export interface HttpAppOptions {
  /** Service name, in logs and metrics. */
  name: string;
  logLevel?: string;
  /** What /ready verifies: database, NATS, Redis… */
  readiness?: ReadinessCheck[];
  bodyLimit?: number;
  /** false when the app answers unknown paths itself (the gateway's page fallback). */
  defaultNotFound?: boolean;
  /** Tests pass false to keep their output quiet. */
  logger?: FastifyServerOptions['logger'];
}

export type App = FastifyInstance & { markShuttingDown(): void };

const READY_CHECK_TIMEOUT_MS = 1000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The Fastify app every deployable starts from: zod schemas, the French error handler,
 * request ids (taken from `x-request-id` so one id follows a request across the gateway),
 * /health, /ready and /metrics.
 */
export function createHttpApp(options: HttpAppOptions): App {
  const app = Fastify({
    logger: options.logger ?? {
      level: options.logLevel ?? 'info',
      base: { service: options.name },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // Pagination and filters arrive as query strings: keep ?a=1&a=2 as arrays.
    routerOptions: { maxParamLength: 200 },
    trustProxy: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, { notFound: options.defaultNotFound ?? true });
  registerMetrics(app, options.name);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  let shuttingDown = false;
  const checks = options.readiness ?? [];

  app.get('/health', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/ready', { logLevel: 'warn' }, async (_request, reply) => {
    if (shuttingDown) return reply.status(503).send({ status: 'stopping', message: 'Arrêt en cours.' });
    const results = await Promise.all(
      checks.map(async ({ name, check, critical = true }) => {
        try {
          await withTimeout(check(), READY_CHECK_TIMEOUT_MS);
          return [name, 'ok', critical] as const;
        } catch (err) {
          return [name, (err as Error).message || 'indisponible', critical] as const;
        }
      }),
    );
    const ready = results.every(([, state, critical]) => state === 'ok' || !critical);
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not ready',
      checks: Object.fromEntries(results.map(([n, state]) => [n, state])),
    });
  });

  return Object.assign(app as unknown as FastifyInstance, {
    markShuttingDown: () => {
      shuttingDown = true;
    },
  });
}
