import type { Readable } from 'node:stream';
import { type AccessClaims, messages } from '@cartable/contracts';
import {
  bearerToken,
  encodedBodyRefusal,
  forbidden,
  HttpError,
  type RevocationChecker,
  type TokenVerifier,
  unauthorized,
} from '@cartable/service-kit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { errors as joseErrors } from 'jose';
import type { Registry } from 'prom-client';
import { Agent, type Dispatcher } from 'undici';
import { ZodError } from 'zod';
import type { LimitName, Owner, RouteEntry } from '../route-table.ts';
import { askOwner, type OwnerAnswer } from './owner-answer.ts';
import { HIT_USER_AGENT_MAX, SharedAnswers } from './shared-answers.ts';

export interface ProxyOptions {
  routeTable: readonly RouteEntry[];
  upstreams: Record<Owner, string>;
  verifier: TokenVerifier;
  /** Redis cache first, auth's database when the cache cannot answer. */
  revocation: RevocationChecker;
  uploadBodyLimit: number;
  upstreamTimeoutMs: number;
  /** The value of each named limit of the route table. */
  limits: Record<LimitName, { max: number; windowMs: number }>;
  /** For the owners' word that the answers kept for visitors changed (plugins/shared-answers.ts). */
  redis: Redis;
  keyPrefix: string;
  /** The gateway's metrics registry (its /metrics port). */
  metrics?: Registry;
}

/** What each limit counts: the captcha is fetched, everything else is a write. */
const COUNTED: Record<LimitName, readonly string[]> = {
  register: ['POST'],
  login: ['POST'],
  verificationResend: ['POST'],
  checkEmailVerification: ['POST'],
  forgotPassword: ['POST'],
  resetPassword: ['POST'],
  validateResetToken: ['POST'],
  twoFactorResend: ['POST'],
  contact: ['POST'],
  captcha: ['GET'],
  // Listing and profile photos: reading a book or a list is never limited here.
  uploads: ['POST', 'PUT', 'PATCH'],
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * An event stream (route table `stream: true`) is cut only after this long without a byte from
 * its owner: three of messaging's 25 s heartbeats (MESSAGE_STREAM_HEARTBEAT_MS). The same value
 * bounds the wait for its headers.
 */
export const STREAM_IDLE_TIMEOUT_MS = 90_000;

/** Connection-level failures: the owner is down or unreachable. */
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ECONNRESET',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/**
 * Headers about one connection (RFC 9110, section 7.6.1), never passed on; the owner's Host is
 * its own, and a client's `Expect: 100-continue` was answered by this server already.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'expect',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** The header names a request's Connection header lists: they are for this hop only. */
function connectionHeaders(connection: string | undefined): string[] | undefined {
  if (!connection || connection === 'keep-alive' || connection === 'close') return undefined;
  return connection.split(',').map((name) => name.trim().toLowerCase());
}

/** Proxied answers of a known size up to this are read whole before they are sent on. */
const WHOLE_ANSWER_MAX = 256 * 1024;

/**
 * The body to send on: a stream (an upload, a signed webhook) as it came, with its declared
 * size; a parsed JSON body written again, with its new size; none for a request without one.
 */
function requestBody(
  parsed: unknown,
  headers: Record<string, string | string[]>,
): Readable | string | Buffer | undefined {
  if (parsed === undefined || parsed === null) return undefined;
  if (typeof (parsed as Readable).pipe === 'function') return parsed as Readable;
  const text = Buffer.isBuffer(parsed) || typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
  headers['content-length'] = String(Buffer.byteLength(text));
  return text;
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.code) codes.push(current.code);
    current = current.cause as typeof current;
  }
  return codes;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    owner?: Owner;
    access?: RouteEntry['access'];
  }
}

/**
 * Registers every route of the table under /api and forwards it to its owner, after the
 * token checks its access level asks for.
 */
export const proxyPlugin: FastifyPluginAsync<ProxyOptions> = async (app, options) => {
  const { verifier, revocation, upstreams } = options;

  // Multipart uploads are streamed to their owner untouched; the owner parses and checks them.
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const refused = encodedBodyRefusal(request.headers);
    if (refused) {
      done(refused, undefined);
      return;
    }
    // An upload must say its size (every browser's form does): a chunked one, which does not,
    // could otherwise stream past the limit. Node's parser holds a declared size to its word.
    if (request.headers['content-length'] === undefined) {
      done(Object.assign(new Error(messages.lengthRequired), { statusCode: 411 }), undefined);
      return;
    }
    const length = Number(request.headers['content-length']);
    if (length > options.uploadBodyLimit) {
      done(Object.assign(new Error(messages.payloadTooLarge), { statusCode: 413 }), undefined);
      return;
    }
    done(null, payload as Readable);
  });

  // An HttpError, so that the French message reaches the client (a bare 503 error would read
  // as an internal error).
  const serviceUnavailable = () => new HttpError(503, messages.serviceUnavailable);
  /** jose's JWKSTimeout, or fetch failing: the keys could not be read, the token may be fine. */
  const keysUnreachable = (err: unknown) =>
    (err instanceof joseErrors.JOSEError && err.code === 'ERR_JWKS_TIMEOUT') ||
    (!(err instanceof joseErrors.JOSEError) && !(err instanceof ZodError));

  /**
   * Checks the bearer token as the route's access level asks; throws 401, 403 or 503. Returns
   * the claims of a token passed on to the owner.
   */
  async function authorize(request: FastifyRequest, access: RouteEntry['access']): Promise<AccessClaims | undefined> {
    const token = bearerToken(request);
    if (!token) {
      if (access === 'public') return undefined;
      throw unauthorized();
    }
    // A visitor's stale token must not lock them out of public pages: drop it and go on.
    const dropToken = (): undefined => {
      delete request.headers.authorization;
      return undefined;
    };
    let claims: Awaited<ReturnType<TokenVerifier['verify']>>;
    try {
      claims = await verifier.verify(token);
    } catch (err) {
      if (keysUnreachable(err)) {
        request.log.warn({ err: (err as Error).message }, 'cannot read the signing keys');
        // Unchecked (nor its revocation): a public route goes on as a visitor.
        if (access === 'public') return dropToken();
        throw serviceUnavailable();
      }
      if (access === 'public') return dropToken();
      throw unauthorized(messages.tokenInvalid);
    }
    let current: typeof claims | null;
    try {
      // Revoked, or its rights replaced by the member's current ones (a promotion since it was issued).
      current = await revocation.currentClaims(token, claims);
    } catch (err) {
      // Neither Redis nor auth answers: visitors go on as visitors, members get a clear 503.
      request.log.warn({ err: (err as Error).message }, 'cannot check token revocation');
      if (access === 'public') return dropToken();
      throw serviceUnavailable();
    }
    if (!current) {
      if (access === 'public') return dropToken();
      throw unauthorized(messages.tokenInvalid);
    }
    if (access === 'admin' && !current.is_admin) throw forbidden(messages.adminOnly);
    return current;
  }

  /** Open event streams: ended when the gateway stops, or they would hold its shutdown. */
  const openStreams = new Set<FastifyReply>();
  app.addHook('preClose', async () => {
    for (const reply of openStreams) reply.raw.destroy();
  });

  // One pool of kept-alive connections per owner.
  const owners = new Agent({ connections: 128, pipelining: 1, connect: { timeout: 1000 } });
  const shared = new SharedAnswers({
    upstreams,
    dispatcher: owners,
    log: app.log,
    redis: options.redis,
    keyPrefix: options.keyPrefix,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  app.addHook('onClose', async () => {
    await shared.close();
    await owners.close();
  });

  const sharedOwners = new Set(options.routeTable.filter((entry) => entry.sharedAnswers).map((entry) => entry.owner));

  /** A visitor's request that a kept answer serves: sent from memory, and noted for its owner. */
  function sendShared(request: FastifyRequest, reply: FastifyReply, owner: Owner): FastifyReply | undefined {
    const kept = shared.get(request.url);
    if (!kept) return undefined;
    shared.hit(owner, {
      path: request.url.slice('/api'.length),
      ip: request.ip,
      user_agent: (request.headers['user-agent'] ?? '').slice(0, HIT_USER_AGENT_MAX),
    });
    reply.code(kept.statusCode).headers(kept.headers).header('age', shared.age(kept));
    return reply.send(kept.body);
  }

  /** The error answer when the owner could not give one. */
  function upstreamFailed(request: FastifyRequest, reply: FastifyReply, owner: Owner, error: unknown) {
    const codes = errorCodes(error);
    const timedOut = codes.some((c) => c === 'UND_ERR_HEADERS_TIMEOUT' || c === 'UND_ERR_BODY_TIMEOUT');
    const unavailable = codes.some((c) => UNAVAILABLE.has(c));
    request.log.warn({ owner, codes }, 'upstream error');
    // Called before any of the answer is sent (a stream failing later is Fastify's to cut).
    return reply.status(timedOut ? 504 : unavailable ? 503 : 502).send({ message: messages.serviceUnavailable });
  }

  async function forward(request: FastifyRequest, reply: FastifyReply, owner: Owner, stream = false, keep = false) {
    const headers: Record<string, string | string[]> = {};
    const declared = connectionHeaders(request.headers.connection);
    for (const name in request.headers) {
      const value = request.headers[name];
      if (value !== undefined && !HOP_BY_HOP.has(name) && !declared?.includes(name)) headers[name] = value;
    }
    // The owner trusts the gateway (TRUST_PROXY): it learns the client the gateway saw, never
    // what the client claimed in its own X-Forwarded-For.
    headers['x-request-id'] = request.id;
    headers['x-forwarded-for'] = request.ip;
    const body = requestBody(request.body, headers);
    if (stream) {
      openStreams.add(reply);
      reply.raw.once('close', () => openStreams.delete(reply));
    }
    const timeout = stream ? STREAM_IDLE_TIMEOUT_MS : options.upstreamTimeoutMs;
    const generation = shared.generation;
    // An answer of a known, ordinary size is read whole and leaves in one write; a stream piped
    // through costs several, and most of a proxied request's time is its socket writes. Read
    // before any of the owner's headers is set, so that a failure here answers cleanly.
    let answer: OwnerAnswer;
    try {
      answer = await askOwner(
        owners,
        {
          origin: upstreams[owner],
          path: request.url.slice('/api'.length),
          method: request.method as Dispatcher.HttpMethod,
          headers,
          body,
          headersTimeout: timeout,
          bodyTimeout: timeout,
        },
        { wholeMax: WHOLE_ANSWER_MAX, stream },
      );
    } catch (error) {
      return upstreamFailed(request, reply, owner, error);
    }
    // A write through this gateway may change what it keeps: dropped before its author reads
    // again (the owner's word on Redis reaches the other gateways, and covers the events).
    if (request.method !== 'GET' && request.method !== 'HEAD' && sharedOwners.has(owner)) shared.clear();
    reply.code(answer.statusCode);
    // The owner answered before reading all of the client's body (a refusal): the rest of the
    // upload would still be on the client's connection, which cannot serve another request.
    if (!request.raw.complete) reply.header('connection', 'close');
    for (const name in answer.headers) {
      const value = answer.headers[name];
      if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
    }
    // Whatever the owner said, no proxy on the way (nginx) may buffer or transform a stream.
    if (stream) reply.header('x-accel-buffering', 'no').header('cache-control', 'no-cache, no-transform');
    if (keep && Buffer.isBuffer(answer.body))
      shared.keep(request.url, generation, answer.statusCode, answer.headers, answer.body);
    return reply.send(answer.body);
  }

  /** Raw-body routes (signed webhooks): the request stream goes to the owner as it came. */
  const RAW_BODY_LIMIT = 64 * 1024;
  const rawRoutes = options.routeTable.filter((entry) => entry.rawBody);
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (request, payload, done) => {
      const refused = encodedBodyRefusal(request.headers);
      if (refused) {
        done(refused, undefined);
        return;
      }
      const length = Number(request.headers['content-length'] ?? Number.NaN);
      if (!Number.isFinite(length)) {
        done(Object.assign(new Error(messages.lengthRequired), { statusCode: 411 }), undefined);
        return;
      }
      if (length > RAW_BODY_LIMIT) {
        done(Object.assign(new Error(messages.payloadTooLarge), { statusCode: 413 }), undefined);
        return;
      }
      done(null, payload as Readable);
    });
    for (const entry of rawRoutes) addRoute(raw, entry);
  });
  for (const entry of options.routeTable) if (!entry.rawBody) addRoute(app, entry);

  function addRoute(scope: typeof app, entry: RouteEntry) {
    // A limited entry is two routes: the methods its limit counts, with the limit's hook, and the
    // others without it (reading a book never pays for the uploads' counter).
    const counted = entry.rateLimit ? COUNTED[entry.rateLimit] : [];
    const free = METHODS.filter((method) => !counted.includes(method));
    if (entry.rateLimit) addMethods(scope, entry, counted, entry.rateLimit);
    if (free.length) addMethods(scope, entry, free);
  }

  function addMethods(scope: typeof app, entry: RouteEntry, methods: readonly string[], limit?: LimitName) {
    scope.route({
      method: [...methods],
      url: `/api${entry.path}`,
      config: {
        owner: entry.owner,
        access: entry.access,
        ...(limit ? { rateLimit: { max: options.limits[limit].max, timeWindow: options.limits[limit].windowMs } } : {}),
      },
      // An event stream is never compressed: the compressor would hold each event until its
      // buffer fills (and the events are small; the bytes saved are the polls not made).
      ...(entry.stream ? { compress: false as const } : {}),
      handler: async (request, reply) => {
        // A visitor's read of a shared answer (a book page): kept answers serve it, and a new
        // answer is kept if its owner says it may be.
        const visitorRead = entry.sharedAnswers === true && request.method === 'GET' && !request.headers.authorization;
        if (visitorRead) {
          const served = sendShared(request, reply, entry.owner);
          if (served) return served;
        }
        const claims = await authorize(request, entry.access);
        if (claims && entry.owner === 'auth' && request.method !== 'GET') {
          // A logout, password change or account deletion may revoke this very token: once
          // auth has answered, the gateway must not reuse an earlier "valid" for it.
          reply.raw.once('close', () => revocation.forget(claims.jti));
        }
        return forward(request, reply, entry.owner, entry.stream === true, visitorRead);
      },
    });
  }
};
