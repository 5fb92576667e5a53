import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { messages } from '@cartable/contracts';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions, LogController } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { type GuardRequirement, guardRequirement } from './auth.ts';
import type { TrustProxy } from './config.ts';
import { HttpError, registerErrorHandler } from './errors.ts';
import { accessLineRedaction, lazyRequestLogger, loggerOptions } from './logging.ts';
import { registerMetrics } from './metrics.ts';
import { responseSerializerCompiler } from './serialization.ts';

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
  /** Proxies whose X-Forwarded-For and x-request-id are believed (TRUST_PROXY); none by default. */
  trustProxy?: TrustProxy;
  /** Deepest JSON body accepted (objects and lists within each other); 32 by default. */
  jsonMaxDepth?: number;
  /** Check every answer against its zod schema (tests, development: `checksResponses`); true by default. */
  checkResponses?: boolean;
}

/** No request of the API nests deeper than a few levels: 32 leaves room and stops a 5,000-level bomb. */
export const JSON_MAX_DEPTH = 32;

/**
 * Whether a JSON text nests objects and lists deeper than `max`, read in one pass before it is
 * parsed: JSON.parse takes 5,000 levels, but what handles the value next (a serialiser, a
 * validator, a proxy's JSON.stringify) may recurse and overflow the stack.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  // Each level costs at least one character: a shorter text cannot be deeper.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** What Node's HTTP parser refuses before Fastify sees a request, answered in French JSON too. */
function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, messages.headersTooLarge]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, messages.requestTimeout]
        : [400, messages.badRequest];
  const body = JSON.stringify({ message });
  socket.on('error', () => {});
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // What the client is still sending (the rest of a 1 MB address) is read and dropped: closing
  // on unread data would reset the connection before the client reads the answer.
  socket.resume();
  setTimeout(() => socket.destroy(), 5000).unref();
}

/** A route as it was registered, with the guards it runs (at onRequest). */
export interface RegisteredRoute {
  method: string;
  url: string;
  guards: GuardRequirement[];
}

/**
 * A deployable's app: its metrics registry, the switch /ready turns false on at shutdown, and its
 * routes as registered (the tests walk them).
 */
export type App = FastifyInstance & { markShuttingDown(): void; metrics: Registry; routeList: RegisteredRoute[] };

const hooksOf = (hook: unknown): unknown[] => (Array.isArray(hook) ? hook : hook ? [hook] : []);

const READY_CHECK_TIMEOUT_MS = 1000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`pas de réponse en ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The 415 for a body sent compressed (Content-Encoding other than identity), for a body parser to
 * answer with; undefined for any other. No browser sends one, and none of the project's servers
 * inflates one (an inflated upload would no longer match its declared size).
 */
export function encodedBodyRefusal(headers: IncomingHttpHeaders): HttpError | undefined {
  const encoding = headers['content-encoding'];
  if (encoding === undefined || encoding.trim().toLowerCase() === 'identity') return undefined;
  return new HttpError(415, messages.contentEncodingUnsupported);
}

type Trusted = (address: string, hop: number) => boolean;

/** Addresses whose trust is remembered at most: those of a forwarded chain are the client's to invent. */
const REMEMBERED_ADDRESSES = 1000;

/**
 * The proxies believed, as a function: a hop count, or a list of addresses (proxy-addr's check,
 * remembered per address). proxy-addr parses the address at each call, and a service asks two or
 * three times a request (its id, then `request.ip` for the log line and the view counter): 2 % of
 * catalog's time under load. A list's check does not depend on the hop.
 */
function trustFunction(trust: TrustProxy): Trusted {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  if (typeof trust === 'boolean') return () => trust;
  if (!trust.length) return () => false;
  const check = proxyAddr.compile(trust);
  const known = new Map<string, boolean>();
  return (address, hop) => {
    let trusted = known.get(address);
    if (trusted === undefined) {
      trusted = check(address, hop);
      if (known.size >= REMEMBERED_ADDRESSES) known.clear();
      known.set(address, trusted);
    }
    return trusted;
  };
}

/**
 * Request ids: the one a trusted proxy sent (the gateway, for a service), so that one id follows
 * a request across the stack; a new one otherwise.
 */
function requestIdFrom(trust: TrustProxy, trustedProxy: Trusted) {
  const trusted = trust === true || (typeof trust === 'number' && trust > 0) ? () => true : trustedProxy;
  return (req: IncomingMessage) => {
    const header = req.headers['x-request-id'];
    const peer = req.socket.remoteAddress ?? '';
    if (typeof header === 'string' && /^[\w.:-]{1,100}$/.test(header) && trusted(peer, 0)) return header;
    return randomUUID();
  };
}

/**
 * The Fastify app every deployable starts from: zod schemas, the French error handler,
 * request ids, /health and /ready; its metrics registry, served on a port of its own
 * (`serve`, lifecycle.ts).
 */
export function createHttpApp(options: HttpAppOptions): App {
  const trust = options.trustProxy ?? false;
  const trustedProxy = trustFunction(trust);
  const app = Fastify({
    logger: options.logger ?? loggerOptions(options.name, options.logLevel),
    // A client's own x-request-id is not believed: it would let anyone forge log lines.
    requestIdHeader: false,
    genReqId: requestIdFrom(trust, trustedProxy),
    // One line per request (below), not Fastify's two: logging was the gateway's largest cost.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // Pagination and filters arrive as query strings: keep ?a=1&a=2 as arrays.
    routerOptions: { maxParamLength: 200 },
    // No proxy believed: Fastify then reads the peer's address as it is, without proxy-addr.
    trustProxy: trust === false || (Array.isArray(trust) && !trust.length) ? false : trustedProxy,
    clientErrorHandler,
    // While it closes, the app says so in French (below), not in Fastify's English.
    return503OnClosing: false,
    // The router's own refusals (a malformed %-encoding or an over-long segment in the path).
    frameworkErrors: (error, _request, reply) => {
      const long = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      (reply as FastifyReply).status(long ? 414 : 400).send({ message: long ? messages.urlTooLong : messages.badUrl });
    },
  }).withTypeProvider<ZodTypeProvider>();

  // The request's one line, when it is answered: method, path, status, time, request id; at the
  // route's log level (/health and /ready write none).
  const accessLog = app.log.child({}, { redact: accessLineRedaction });
  app.addHook('onResponse', (request, reply, done) => {
    if ((request.log as Logger).isLevelEnabled?.('info') !== false) {
      accessLog.info(
        { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime },
        'request completed',
      );
    }
    done();
  });

  // JSON bodies: Fastify's parser (prototype poisoning refused), after a depth check.
  const maxDepth = options.jsonMaxDepth ?? JSON_MAX_DEPTH;
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const refused = encodedBodyRefusal(request.headers);
    if (refused) {
      done(refused, undefined);
      return;
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepthExceeds(text, maxDepth)) {
      done(new HttpError(400, messages.jsonTooDeep(maxDepth)), undefined);
      return;
    }
    parseJson(request, text, done);
  });
  // A malformed percent-encoding (%ZZ, a lone surrogate) names nothing: 400 before any route
  // decodes it (a proxy decoding it would throw). Like every hook on each request's path here, a
  // callback one: an async hook costs a promise per request for nothing.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.includes('%')) return done();
    try {
      decodeURIComponent(request.url);
    } catch {
      return done(new HttpError(400, messages.badUrl));
    }
    done();
  });

  // Who may call a route is answered before anything of what they sent is read or judged: a guard
  // runs at onRequest, so a member without the right gets 403, never the 415, 413 or 422 of a body
  // they may not send anyway. A guard placed later is a mistake this refuses at start-up.
  const routeList: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const late of ['preParsing', 'preValidation', 'preHandler'] as const) {
      if (hooksOf(route[late]).some((fn) => guardRequirement(fn)))
        throw new Error(`${route.method} ${route.url}: a guard runs at onRequest, not at ${late}`);
    }
    const guards = hooksOf(route.onRequest)
      .map((fn) => guardRequirement(fn))
      .filter((g): g is GuardRequirement => g !== undefined);
    for (const method of [route.method].flat()) routeList.push({ method, url: route.url, guards });
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checkContract: options.checkResponses ?? true }));
  registerErrorHandler(app, { notFound: options.defaultNotFound ?? true });
  const metrics = registerMetrics(app, options.name);

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  let shuttingDown = false;
  const checks = options.readiness ?? [];

  // Closing (SIGTERM, or app.close()): requests still arriving on kept-alive connections get the
  // French 503, and their connection closes, so that a client (the gateway's pool) opens a new
  // one, to another replica. Requests already in progress finish.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.code(503).header('connection', 'close').send({ message: messages.serviceUnavailable });
  });

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
    metrics,
    routeList,
    markShuttingDown: () => {
      shuttingDown = true;
    },
  });
}
