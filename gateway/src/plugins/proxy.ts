import type { Readable } from 'node:stream';
import { type AccessClaims, messages } from '@cartable/contracts';
import {
  bearerToken,
  forbidden,
  HttpError,
  type RevocationChecker,
  type TokenVerifier,
  unauthorized,
} from '@cartable/service-kit';
import replyFrom from '@fastify/reply-from';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { errors as joseErrors } from 'jose';
import { ZodError } from 'zod';
import type { LimitName, Owner, RouteEntry } from '../route-table.ts';

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
  'FST_REPLY_FROM_SERVICE_UNAVAILABLE',
  'FST_REPLY_FROM_CONNECT_TIMEOUT',
  'FST_REPLY_FROM_CONNECTION_RESET_ERROR',
  'FST_REPLY_FROM_UNDICI_SOCKET_ERROR',
]);

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

  await app.register(replyFrom, {
    undici: { connections: 128, pipelining: 1, connect: { timeout: 1000 } },
    disableRequestLogging: true,
  });

  // Multipart uploads are streamed to their owner untouched; the owner parses and checks them.
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
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

  function forward(request: FastifyRequest, reply: FastifyReply, owner: Owner, stream = false) {
    const target = `${upstreams[owner]}${request.url.slice('/api'.length)}`;
    if (stream) {
      openStreams.add(reply);
      reply.raw.once('close', () => openStreams.delete(reply));
    }
    return reply.from(target, {
      timeout: stream ? STREAM_IDLE_TIMEOUT_MS : options.upstreamTimeoutMs,
      // Whatever the owner said, no proxy on the way (nginx) may buffer or transform a stream.
      ...(stream
        ? {
            rewriteHeaders: (headers: Record<string, string | string[] | undefined>) => ({
              ...headers,
              'x-accel-buffering': 'no',
              'cache-control': 'no-cache, no-transform',
            }),
          }
        : {}),
      // The owner trusts the gateway (TRUST_PROXY): it learns the client the gateway saw, never
      // what the client claimed in its own X-Forwarded-For.
      rewriteRequestHeaders: (_req, headers) => ({
        ...headers,
        'x-request-id': request.id,
        'x-forwarded-for': request.ip,
      }),
      onError: (rep, { error }) => {
        const codes = errorCodes(error);
        const timedOut = codes.some((c) => c === 'FST_REPLY_FROM_GATEWAY_TIMEOUT' || c === 'UND_ERR_HEADERS_TIMEOUT');
        const unavailable = codes.some((c) => UNAVAILABLE.has(c));
        request.log.warn({ owner, codes }, 'upstream error');
        const status = timedOut ? 504 : unavailable ? 503 : 502;
        rep.status(status).send({ message: messages.serviceUnavailable });
      },
    });
  }

  const rateLimitOf = (name: LimitName) => ({
    max: options.limits[name].max,
    timeWindow: options.limits[name].windowMs,
    allowList: (request: FastifyRequest) => !COUNTED[name].includes(request.method),
  });

  /** Raw-body routes (signed webhooks): the request stream goes to the owner as it came. */
  const RAW_BODY_LIMIT = 64 * 1024;
  const rawRoutes = options.routeTable.filter((entry) => entry.rawBody);
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (request, payload, done) => {
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
    scope.route({
      method: METHODS,
      url: `/api${entry.path}`,
      config: {
        owner: entry.owner,
        access: entry.access,
        ...(entry.rateLimit ? { rateLimit: rateLimitOf(entry.rateLimit) } : {}),
      },
      // An event stream is never compressed: the compressor would hold each event until its
      // buffer fills (and the events are small; the bytes saved are the polls not made).
      ...(entry.stream ? { compress: false as const } : {}),
      handler: async (request, reply) => {
        const claims = await authorize(request, entry.access);
        if (claims && entry.owner === 'auth' && request.method !== 'GET') {
          // A logout, password change or account deletion may revoke this very token: once
          // auth has answered, the gateway must not reuse an earlier "valid" for it.
          reply.raw.once('close', () => revocation.forget(claims.jti));
        }
        return forward(request, reply, entry.owner, entry.stream === true);
      },
    });
  }
};
