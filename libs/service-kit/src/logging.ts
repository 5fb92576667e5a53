import type { FastifyBaseLogger } from 'fastify';
import pino, {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type Logger,
  type LoggerOptions,
} from 'pino';

/**
 * Logs never hold secrets: credentials wherever they sit in a logged object, and never the
 * parameters of a failed SQL query (a sign-up's would carry the new member's password hash).
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'password',
  'password_confirmation',
  'current_password',
  'passwordHash',
  'password_hash',
  'token',
  'access_token',
  'recovery_code',
  'recovery_codes',
  'verification',
  'secret',
  'AUTH_PRIVATE_KEY',
];
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
  // A two-factor code travels in a mail job's data (an error's `code` is kept: ECONNREFUSED…).
  'data.code',
  '*.data.code',
  'err.params',
  'err.cause.parameters',
];

type SerializedError = Record<string, unknown> & { message?: string; cause?: unknown };

/** pino's error serializer, less what may carry data: SQL parameters, row details. */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as SerializedError;
  if (!out || typeof out !== 'object') return out;
  return scrub(out, 0);
}

function scrub(error: SerializedError, depth: number): SerializedError {
  const { params: _params, parameters: _parameters, detail: _detail, where: _where, ...rest } = error;
  if (typeof rest.message === 'string') rest.message = withoutParams(rest.message);
  if (typeof rest.stack === 'string') rest.stack = withoutParams(rest.stack);
  if (rest.cause && typeof rest.cause === 'object' && depth < 3)
    rest.cause = scrub(rest.cause as SerializedError, depth + 1);
  return rest;
}

/** Drizzle's "Failed query: … \nparams: …": the query stays, its values go. */
const withoutParams = (text: string) => text.replace(/\nparams:[^\n]*/g, '\nparams: [masqué]');

/**
 * Links carry their proof in the query string (/verify-email?token=…&email=…, an alert's
 * unsubscribe link): the values of these parameters never reach a log line.
 */
const SECRET_QUERY = /([?&](?:token|code|email|key|signature|password)=)[^&#]*/gi;
export const maskUrl = (url: string) => (url.includes('?') ? url.replace(SECRET_QUERY, '$1[masqué]') : url);

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer (method, url, host, client), with the url's secrets masked. */
export function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: maskUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export const logSerializers = { err: serializeError, error: serializeError, req: serializeRequest };

/**
 * The redaction of the one line each request writes: none. The line is made of serialized fields
 * only (serializeRequest above, Fastify's status code), never headers nor a body, so it needs
 * none of the paths above: the wildcard ones cost 15 µs a line, and even three header paths had
 * each line's `req` and `res` cloned for nothing (5 % of the gateway's time under load).
 * libs/service-kit/test/logging.test.ts holds the line free of the Authorization header and cookies.
 */
export const accessLineRedaction = { paths: [] as string[], censor: '[masqué]' };

/** Options every logger of the project uses, Fastify's request loggers included. */
export function loggerOptions(service: string, level = 'info'): LoggerOptions {
  return {
    level,
    base: { service },
    redact: { paths: redactedPaths, censor: '[masqué]' },
    serializers: logSerializers,
  };
}

export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(service, level), destination) : pino(loggerOptions(service, level));
}

type LogArgs = [obj: unknown, msg?: string, ...args: unknown[]];

/**
 * A request's logger, made when first written to. Fastify makes one for every request: a pino
 * child whose request id goes through the redaction of every logged field, 1.5 µs a request
 * (2 % of the gateway's time under load), for a logger most requests never write to (their line is
 * the access line, which has a logger of its own). Its level is read without making it.
 */
class LazyRequestLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #logger: FastifyBaseLogger | undefined;
  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }
  private get made(): Logger {
    this.#logger ??= this.#parent.child(this.#bindings, this.#options);
    return this.#logger as Logger;
  }
  get level(): string {
    return this.#logger?.level ?? this.#options.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.made.level = level;
  }
  /** pino's own check, by the levels' values: a route at `warn` writes no `info`. */
  isLevelEnabled(level: string): boolean {
    const values = (this.#parent as Logger).levels?.values;
    // Fastify's stand-in when logging is off has no levels, nor this check.
    if (!values) return this.made.isLevelEnabled?.(level) ?? true;
    return (values[level] ?? 0) >= (values[this.level] ?? 0);
  }
  // Prototype methods, not arrows: nothing more is made per request than this object.
  fatal(...args: LogArgs) {
    this.made.fatal(...args);
  }
  error(...args: LogArgs) {
    this.made.error(...args);
  }
  warn(...args: LogArgs) {
    this.made.warn(...args);
  }
  info(...args: LogArgs) {
    this.made.info(...args);
  }
  debug(...args: LogArgs) {
    this.made.debug(...args);
  }
  trace(...args: LogArgs) {
    this.made.trace(...args);
  }
  silent() {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger made only if it is written to. */
export const lazyRequestLogger = (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) =>
  new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
