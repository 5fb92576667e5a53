import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { constants as zlibConstants } from 'node:zlib';
import { messages } from '@cartable/contracts';
import {
  checksResponses,
  createHttpApp,
  createRevocationChecker,
  type ReadinessCheck,
  type Storage,
  type TokenVerifier,
} from '@cartable/service-kit';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from './config.ts';
import { createBookPreviews } from './link-preview.ts';
import { apiDocsPlugin } from './plugins/api-docs.ts';
import { frontendsPlugin } from './plugins/frontends.ts';
import { proxyPlugin } from './plugins/proxy.ts';
import { compressWholeAnswer } from './plugins/whole-answer-compression.ts';
import { routeTable as defaultRouteTable, type RouteEntry } from './route-table.ts';

export interface GatewayDeps {
  config: GatewayConfig;
  redis: Redis;
  verifier: TokenVerifier;
  routeTable?: readonly RouteEntry[];
  /** Set with the S3 driver: images are streamed from the bucket. */
  storage?: Storage;
}

/** Answers smaller than this go uncompressed: the headers would cost more than the saving. */
const COMPRESS_THRESHOLD = 1024;
/** Brotli at a low quality: fast enough for every answer, most of the saving. */
const BROTLI_QUALITY = 4;

/**
 * A small answer's stream read into one buffer. Not node:stream/consumers' buffer(), which goes
 * through a Blob: it cost the gateway a tenth of its time on small answers.
 */
function readSmall(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    stream.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** The headers a middleware sets on an answer, read once from a stand-in answer. */
function recordHeaders(middleware: Middleware): [string, string][] {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  middleware({} as IncomingMessage, res as unknown as ServerResponse, (err) => {
    if (err) throw err;
  });
  return [...headers];
}

/** The API's own answers: under /api/, except the documentation's pages (development only). */
const isApiAnswer = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

/** Server-sent events (GET /api/messages/stream): each event must leave as soon as it is written. */
const isEventStream = (contentType: unknown) => /^\s*text\/event-stream/i.test(String(contentType ?? ''));
/** What @fastify/compress compresses by default (text, JSON, XML), never an event stream. */
const COMPRESSIBLE = /^text\/|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/u;

export async function buildGateway(deps: GatewayDeps, readiness: ReadinessCheck[] = [], logger?: false) {
  const { config, redis } = deps;
  const app = createHttpApp({
    name: 'gateway',
    logLevel: config.LOG_LEVEL,
    trustProxy: config.TRUST_PROXY,
    checkResponses: checksResponses(config),
    readiness,
    bodyLimit: config.JSON_BODY_LIMIT,
    defaultNotFound: false,
    ...(logger === false ? { logger } : {}),
  });

  // Security headers: none depends on the request, so helmet runs once per set, here, and each
  // answer gets the recorded list (helmet's eleven middlewares per request, and @fastify/helmet
  // rebuilding them, cost the gateway several per cent of its time under load).
  // Pages, scripts and images: helmet's whole set, with the policy the frontends need.
  const pageHeaders = recordHeaders(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Toasts and dialogs set inline styles.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          // The register page guesses the country from the browser's position (SPEC.md section 2).
          connectSrc: ["'self'", 'https://api.bigdatacloud.net'],
          frameSrc: ["'self'", 'https://www.openstreetmap.org'],
          upgradeInsecureRequests: null,
        },
      },
      // The shell loads its remotes' scripts from the same origin.
      crossOriginEmbedderPolicy: false,
    }),
  );
  // The API's answers (JSON, an event stream, a PDF receipt) load nothing and are never framed:
  // the headers that still mean something for them (OWASP's REST cheat sheet): 5 headers of about
  // 250 bytes on each call instead of 12 of 850, for the gateway to write and a phone to read.
  const apiHeaders = recordHeaders(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  app.addHook('onRequest', (request, reply, done) => {
    const headers = isApiAnswer(request.url) ? apiHeaders : pageHeaders;
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
  // The product's pages come from this gateway: its API is called from its own origin, which needs
  // no CORS header, and a page of any other site cannot read its answers. CORS is on only for the
  // other origins CORS_ORIGINS names (a frontend served elsewhere, a development server).
  const corsOrigins = (config.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (corsOrigins.length) await app.register(cors, { origin: corsOrigins, credentials: true });
  // Answers over 1 KiB go compressed when the browser asks (book lists are tens of KiB of
  // repetitive JSON, and phones here pay per megabyte): those already whole in memory in one call
  // (compressWholeAnswer), streams by @fastify/compress. The frontends' files are compressed once
  // at build time and sent as they are.
  // A streamed answer (a file, a proxied answer of unknown or large size: the proxy reads the
  // others whole) would be compressed whatever its size: one that says it is under the
  // threshold is read into memory first, so it goes out as it is.
  // An event stream is neither read into memory nor compressed (its route also says
  // `compress: false`: gateway/src/plugins/proxy.ts).
  app.addHook('onSend', (_request, reply, payload, done) => {
    const length = Number(reply.getHeader('content-length'));
    if (
      payload instanceof Readable &&
      length > 0 &&
      length < COMPRESS_THRESHOLD &&
      !isEventStream(reply.getHeader('content-type'))
    ) {
      readSmall(payload).then((body) => done(null, body), done);
      return;
    }
    done(null, payload);
  });
  const compressible = (contentType: string) => !isEventStream(contentType) && COMPRESSIBLE.test(contentType);
  app.addHook(
    'onSend',
    compressWholeAnswer({
      threshold: COMPRESS_THRESHOLD,
      maxBytes: 64 * 1024,
      brotliQuality: BROTLI_QUALITY,
      compressible,
    }),
  );
  await app.register(compress, {
    global: true,
    // Answers only: a compressed request body is refused (415, encodedBodyRefusal in the body parsers),
    // and no route pays for the inflating hook @fastify/compress would add to each of them.
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    customTypes: compressible,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
  });
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: `${config.REDIS_KEY_PREFIX}rl:`,
    // If Redis is away, let requests through rather than refuse every login.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: messages.tooManyRequests,
      retryAfter: Math.ceil(context.ttl / 1000),
    }),
  });

  const revocation = createRevocationChecker({
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    authUrl: config.AUTH_URL,
    internalServiceToken: config.INTERNAL_SERVICE_TOKEN,
    answerCacheMs: config.TOKEN_STATUS_CACHE_MS,
    log: app.log,
  });
  await app.register(proxyPlugin, {
    routeTable: deps.routeTable ?? defaultRouteTable,
    redis,
    keyPrefix: config.REDIS_KEY_PREFIX,
    metrics: app.metrics,
    upstreams: {
      auth: config.AUTH_URL,
      catalog: config.CATALOG_URL,
      messaging: config.MESSAGING_URL,
      moderation: config.MODERATION_URL,
      notifications: config.NOTIFICATIONS_URL,
    },
    verifier: deps.verifier,
    revocation,
    uploadBodyLimit: config.UPLOAD_BODY_LIMIT,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    limits: {
      register: config.RATE_LIMIT_REGISTER,
      login: config.RATE_LIMIT_LOGIN,
      verificationResend: config.RATE_LIMIT_VERIFICATION_RESEND,
      checkEmailVerification: config.RATE_LIMIT_CHECK_EMAIL_VERIFICATION,
      forgotPassword: config.RATE_LIMIT_FORGOT_PASSWORD,
      resetPassword: config.RATE_LIMIT_RESET_PASSWORD,
      validateResetToken: config.RATE_LIMIT_VALIDATE_RESET_TOKEN,
      twoFactorResend: config.RATE_LIMIT_TWO_FACTOR_RESEND,
      contact: config.RATE_LIMIT_CONTACT,
      captcha: config.RATE_LIMIT_CAPTCHA,
      uploads: config.RATE_LIMIT_UPLOADS,
    },
  });
  // What the browser needs to know of the server's settings, read once at start.
  app.get('/app-config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return {
      inactivity_limit_ms: config.INACTIVITY_LIMIT_MS,
      inactivity_warning_ms: config.INACTIVITY_WARNING_MS,
      currency: config.CURRENCY,
    };
  });
  // Development only: the services' OpenAPI documents merged under /api/docs (JSON and swagger-ui).
  if (config.NODE_ENV !== 'production') {
    await app.register(apiDocsPlugin, {
      routeTable: deps.routeTable ?? defaultRouteTable,
      upstreams: {
        auth: config.AUTH_URL,
        catalog: config.CATALOG_URL,
        messaging: config.MESSAGING_URL,
        moderation: config.MODERATION_URL,
        notifications: config.NOTIFICATIONS_URL,
      },
    });
  }
  await app.register(frontendsPlugin, {
    frontendsDir: config.FRONTENDS_DIR,
    storageDir: join(config.DATA_DIR, 'storage'),
    storage: deps.storage,
    bookPreview: createBookPreviews(config.CATALOG_URL),
  });
  // The revocation checker's `settled()`: tests wait on it after writing revocation keys themselves.
  return Object.assign(app, { revocation });
}
