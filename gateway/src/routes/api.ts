import type { Readable } from 'node:stream';
import { messages } from '@cartable/contracts';
import { encodedBodyRefusal } from '@cartable/service-kit';
import replyFrom, { type FastifyReplyFromHooks } from '@fastify/reply-from';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { LimitName, RouteEntry, Upstream } from '../plugins/app/route-table.ts';
import { apiHelmet } from '../plugins/external/helmet.ts';

export interface ApiOptions {
  routeTable: readonly RouteEntry[];
  /** Each upstream's base URL. */
  upstreams: Record<Upstream, string>;
  uploadBodyLimit: number;
  /** An upstream that accepted the connection but does not respond: given up after this. */
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
 * its upstream: three of messaging's 25 s heartbeats (MESSAGE_STREAM_HEARTBEAT_MS).
 */
export const STREAM_IDLE_TIMEOUT_MS = 90_000;

/** Responses of a declared size up to this are read whole before they are sent on (sendBody). */
const WHOLE_BODY_MAX = 256 * 1024;

/** Signed webhooks and the one-click unsubscribe: small bodies, passed on byte for byte. */
const RAW_BODY_LIMIT = 64 * 1024;

/**
 * Request headers about this connection only (RFC 9110, section 7.6.1) that @fastify/reply-from
 * leaves in place: undici refuses to send most of them, and none is the upstream's business.
 */
const HOP_BY_HOP = ['expect', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade'];

/** Connection-level failures: the upstream is down, stopping or unreachable. */
const UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);
const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'FST_REPLY_FROM_GATEWAY_TIMEOUT']);

interface UndiciResponse {
  headers: Record<string, string | string[] | undefined>;
  stream: Readable & { arrayBuffer(): Promise<ArrayBuffer> };
}

/** The codes of an error and of its causes (undici's error wrapped by @fastify/reply-from's). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current = error as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.code) codes.push(current.code);
    current = current.cause as typeof current;
  }
  return codes;
}

/** A request body that is a stream: what it is, unread, goes on to the upstream. */
function streamed(limit: number | null, request: FastifyRequest, payload: Readable) {
  const refused = encodedBodyRefusal(request.headers);
  if (refused) return refused;
  // It must say its size (every browser's form does): a chunked one, which does not, could
  // otherwise stream past the limit. Node's parser holds a declared size to its word.
  const declared = request.headers['content-length'];
  if (declared === undefined) return Object.assign(new Error(messages.lengthRequired), { statusCode: 411 });
  if (limit !== null && Number(declared) > limit)
    return Object.assign(new Error(messages.payloadTooLarge), { statusCode: 413 });
  return payload;
}

/**
 * Every route of the table, under /api, sent to its upstream (@fastify/reply-from on an undici
 * pool per upstream) once its access is checked (plugins/app/authentication.ts). The upstream's
 * status, headers and body come back as they are; when it cannot respond, the French 503 (504
 * after UPSTREAM_TIMEOUT_MS).
 */
export const apiRoutes: FastifyPluginAsync<ApiOptions> = async (app, options) => {
  await app.register(replyFrom, {
    // Kept-alive connections to each upstream; a connection that cannot be made in a second
    // means the upstream is away.
    undici: { connections: 128, pipelining: 1, connect: { timeout: 1000 } },
    destroyAgent: true,
    // One line per request is the access log's (libs/service-kit/src/app.ts).
    disableRequestLogging: true,
  });

  // Uploads are streamed to their upstream untouched; the upstream parses and checks them.
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const body = streamed(options.uploadBodyLimit, request, payload);
    if (body instanceof Error) done(body, undefined);
    else done(null, body);
  });

  /** Open event streams: ended when the gateway stops, or they would hold its shutdown. */
  const openStreams = new Set<FastifyReply>();
  app.addHook('preClose', async () => {
    for (const reply of openStreams) reply.raw.destroy();
  });

  /** The upstream could not respond: the French error, never the proxy's English one. */
  const upstreamFailed: FastifyReplyFromHooks['onError'] = (reply, { error }) => {
    const codes = errorCodes(error);
    const status = codes.some((c) => TIMED_OUT.has(c)) ? 504 : codes.some((c) => UNAVAILABLE.has(c)) ? 503 : 502;
    reply.log.warn({ upstream: reply.request.routeOptions.config.upstream, codes }, 'upstream error');
    reply.code(status).send({ message: messages.serviceUnavailable });
  };

  const forwardedHeaders: NonNullable<FastifyReplyFromHooks['rewriteRequestHeaders']> = (request, headers) => {
    for (const name of HOP_BY_HOP) delete headers[name];
    // The upstream trusts the gateway (TRUST_PROXY): it learns the client the gateway saw, never
    // what the client claimed in its own X-Forwarded-For.
    headers['x-request-id'] = request.id;
    headers['x-forwarded-for'] = request.ip;
    return headers;
  };

  /**
   * The upstream's body: one that declares an ordinary size (up to WHOLE_BODY_MAX) is read whole
   * first and leaves in one write, with its length; any other (an image, an event stream, one of
   * unknown size) is streamed with back-pressure. Read whole, a failure of the upstream is still
   * answered cleanly, and a body under the compression threshold leaves as it is
   * (@fastify/compress would compress a stream whatever its size).
   */
  const sendBody: FastifyReplyFromHooks['onResponse'] = (_request, reply, res) => {
    // What reply-from hands over with undici (its types say otherwise): the headers, undici's body.
    const { headers, stream: body } = res as unknown as UndiciResponse;
    if (!(Number(headers['content-length']) <= WHOLE_BODY_MAX)) return reply.send(body);
    body.arrayBuffer().then(
      (bytes) => reply.send(Buffer.from(bytes)),
      (error: unknown) => {
        // Cut short: none of the upstream's headers (its caching above all) go with the error.
        for (const name in headers) reply.removeHeader(name);
        upstreamFailed(reply, { error: error as Error });
      },
    );
  };

  function hop(entry: RouteEntry): FastifyReplyFromHooks {
    return {
      onResponse: sendBody,
      timeout: entry.stream ? STREAM_IDLE_TIMEOUT_MS : options.upstreamTimeoutMs,
      // A request is sent once: an upstream's 503 is its response, not a reason to ask again.
      retryDelay: () => null,
      onError: upstreamFailed,
      rewriteRequestHeaders: forwardedHeaders,
      rewriteHeaders: (headers) => {
        delete headers.connection;
        delete headers['keep-alive'];
        // Whatever the upstream said, no proxy on the way (nginx) may buffer or transform a stream.
        if (entry.stream) return { ...headers, 'x-accel-buffering': 'no', 'cache-control': 'no-cache, no-transform' };
        return headers;
      },
    };
  }

  function addMethods(scope: FastifyInstance, entry: RouteEntry, methods: readonly string[], limit?: LimitName) {
    const base = options.upstreams[entry.upstream];
    const hooks = hop(entry);
    const route: RouteOptions = {
      method: [...methods],
      url: entry.path,
      helmet: apiHelmet,
      config: {
        upstream: entry.upstream,
        access: entry.access,
        ...(limit ? { rateLimit: { max: options.limits[limit].max, timeWindow: options.limits[limit].windowMs } } : {}),
      },
      // After the rate limit, before the body is read.
      preParsing: async (request, _reply, payload) => {
        await app.verifyAccess(request);
        return payload;
      },
      handler: (request, reply) => {
        const query = request.url.indexOf('?');
        // reply-from adds the query string of the request.
        const path = request.url.slice('/api'.length, query < 0 ? undefined : query);
        // It passes no body for a JSON null, false, 0 or "": those are written again here.
        const scalar = request.body !== undefined && (request.body === null || typeof request.body !== 'object');
        const json = scalar && /^application\/json/i.test(request.headers['content-type'] ?? '');
        return reply.from(
          `${base}${path}`,
          json ? { ...hooks, body: JSON.stringify(request.body), contentType: 'application/json' } : hooks,
        );
      },
    };
    // An event stream is never compressed: the compressor would hold each event until its buffer
    // fills (and the events are small; the bytes saved are the polls not made).
    if (entry.stream) {
      route.compress = false;
      route.onRequest = (_request, reply, done) => {
        openStreams.add(reply);
        reply.raw.once('close', () => openStreams.delete(reply));
        done();
      };
    }
    // A logout, password change or account deletion may revoke this very token: once auth has
    // responded, the gateway must not reuse an earlier "valid" for it.
    if (entry.upstream === 'auth' && !methods.every((m) => m === 'GET')) {
      route.onResponse = (request, _reply, done) => {
        if (request.claims && request.method !== 'GET') app.revocation.forget(request.claims.jti);
        done();
      };
    }
    scope.route(route);
  }

  function addRoute(scope: FastifyInstance, entry: RouteEntry) {
    // A limited entry is two routes: the methods its limit counts, with the limit's hook, and the
    // others without it (reading a book never pays for the uploads' counter).
    const counted = entry.rateLimit ? COUNTED[entry.rateLimit] : [];
    const free = METHODS.filter((method) => !counted.includes(method));
    if (entry.rateLimit) addMethods(scope, entry, counted, entry.rateLimit);
    if (free.length) addMethods(scope, entry, free);
  }

  // Raw-body routes (signed webhooks): the request stream goes to the upstream as it came.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (request, payload, done) => {
      const body = streamed(RAW_BODY_LIMIT, request, payload);
      if (body instanceof Error) done(body, undefined);
      else done(null, body);
    });
    for (const entry of options.routeTable) if (entry.rawBody) addRoute(raw, entry);
  });
  for (const entry of options.routeTable) if (!entry.rawBody) addRoute(app, entry);

  // Any other /api path: a 404 JSON with the API's headers (a route, so that it wins over the
  // frontends' files at /*, which would fall back to a page).
  app.route({
    method: METHODS,
    url: '/*',
    helmet: apiHelmet,
    handler: (_request, reply) => reply.status(404).send({ message: messages.routeNotFound }),
  });
};

declare module 'fastify' {
  interface FastifyContextConfig {
    upstream?: Upstream;
  }
}
