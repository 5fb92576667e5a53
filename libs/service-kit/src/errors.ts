import type { IncomingMessage } from 'node:http';
import { messages } from '@cartable/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';

export type FieldErrors = Record<string, string[]>;

/** An error of the HTTP layer itself (a refused encoding, a malformed URL): its status and French message as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    /** Extra fields some answers carry (SPEC.md: login error payload with email_verified, email). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * What a rule of the domain refused, in words of the domain: the domain never speaks HTTP, and
 * the error handler maps each kind to its status, once, here.
 */
export const domainErrorStatus = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsupported: 415,
  invalid: 422,
  too_many: 429,
  upstream_failed: 502,
  unavailable: 503,
} as const;
export type DomainErrorKind = keyof typeof domainErrorStatus;

/** A refusal by a rule: a French message for the person, field errors where a field is at fault. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly errors?: FieldErrors,
    /** Extra fields some answers carry (SPEC.md: login error payload with email_verified, email). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get statusCode(): number {
    return domainErrorStatus[this.kind];
  }
}

export const badRequest = (message: string, errors?: FieldErrors) => new DomainError('bad_request', message, errors);
export const unprocessable = (errors: FieldErrors, message: string = messages.validation) =>
  new DomainError('invalid', message, errors);
/** A request a rule refuses as a whole (no single field at fault): 422 with its message. */
export const invalid = (message: string) => new DomainError('invalid', message);
export const unauthorized = (message: string = messages.unauthenticated, extra?: Record<string, unknown>) =>
  new DomainError('unauthenticated', message, undefined, extra);
export const forbidden = (message: string = messages.forbidden, extra?: Record<string, unknown>) =>
  new DomainError('forbidden', message, undefined, extra);
export const notFound = (message: string = messages.notFound) => new DomainError('not_found', message);
export const conflict = (message: string, errors?: FieldErrors, extra?: Record<string, unknown>) =>
  new DomainError('conflict', message, errors, extra);
/** 429; with `retryAfterSeconds` the answer carries it as `retry_after` and in the Retry-After header. */
export const tooManyRequests = (message: string = messages.tooManyRequests, retryAfterSeconds?: number) =>
  new DomainError(
    'too_many',
    message,
    undefined,
    retryAfterSeconds === undefined ? undefined : { retry_after: retryAfterSeconds },
  );
export const unavailable = (message: string = messages.serviceUnavailable) => new DomainError('unavailable', message);
export const upstreamFailed = (message: string) => new DomainError('upstream_failed', message);

/** Zod issues → `{ field: [messages] }`, keyed by dotted path, each message once. */
export function fieldErrorsFromZod(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    const list = out[key] ?? [];
    if (!list.includes(issue.message)) out[key] = [...list, issue.message];
  }
  return out;
}

// ── what the database refused ───────────────────────────────────────────────────────────────

interface DriverError {
  code?: unknown;
  cause?: unknown;
  severity?: unknown;
  message?: unknown;
}

/** The PostgreSQL error (node-postgres or PGlite) behind `err`: Drizzle wraps it as `cause`. */
function databaseError(err: unknown): DriverError | undefined {
  let current = err as DriverError | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code) && 'severity' in current) return current;
    current = current.cause as DriverError | undefined;
  }
  return undefined;
}

/** The SQLSTATE of a database error (`23505`…), however deep Drizzle wrapped it. */
export const databaseErrorCode = (err: unknown): string | undefined => databaseError(err)?.code as string | undefined;

/** A unique index refused the row: two sign-ups with one address at the same moment, a duplicate name… */
export const isUniqueViolation = (err: unknown) => databaseErrorCode(err) === '23505';

/** Socket errors of a database that is not there (restarting, unreachable, cut off). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What node-postgres says, without a code, of a connection it lost or could not make in time. */
const UNREACHABLE_MESSAGES =
  /(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|is not currently accepting connections)/i;

/**
 * Why the database could not do the work, when waiting a little will do: 'unreachable' (it is
 * down, restarting, refusing connections: SQLSTATE class 08, 57P01-57P03, 53300, socket errors),
 * 'busy' (a lock held elsewhere past lock_timeout, 55P03; a statement past statement_timeout,
 * 57014; a deadlock, 40P01). Undefined for anything else.
 */
export function databaseUnavailability(err: unknown): 'unreachable' | 'busy' | undefined {
  let current = err as DriverError | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    const code = typeof current.code === 'string' ? current.code : '';
    if (code === '55P03' || code === '57014' || code === '40P01') return 'busy';
    if (code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300' || UNREACHABLE_CODES.has(code))
      return 'unreachable';
    if (UNREACHABLE_MESSAGES.test(String(current.message ?? ''))) return 'unreachable';
    current = current.cause as DriverError | undefined;
  }
  return undefined;
}

/** Seconds a client is told to wait (Retry-After) before sending again a request the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = { unreachable: 5, busy: 2 } as const;

/**
 * What the client sent and PostgreSQL refused, as a French 4xx that never echoes the SQL nor
 * its values; undefined for anything else (a server fault stays a 500). Duplicates are 409;
 * values the column cannot hold (out of range, NUL, malformed) 422; a reference to a row that
 * does not exist 422, a row still referenced 409.
 */
export function httpErrorFromDatabase(err: unknown): HttpError | undefined {
  const d = messages.database;
  // Not the request's fault and not a bug: the same request will do once the database answers.
  const unavailable = databaseUnavailability(err);
  if (unavailable)
    return new HttpError(503, unavailable === 'busy' ? d.busy : d.unavailable, undefined, {
      retry_after: DATABASE_RETRY_AFTER_SECONDS[unavailable],
    });
  const found = databaseError(err);
  const code = found?.code as string | undefined;
  if (!code) return undefined;
  if (code === '23505') return new HttpError(409, d.duplicate);
  if (code === '23503') {
    // "update or delete on table … violates foreign key constraint": the row is still in use.
    const stillUsed = /^update or delete/i.test(String(found?.message ?? ''));
    return stillUsed ? new HttpError(409, d.stillReferenced) : new HttpError(422, d.unknownReference);
  }
  if (code === '22001' || code === '54000') return new HttpError(422, d.tooLong);
  // Class 22 (data exception: 22P02 malformed, 22003 out of range, 22021 NUL and bad bytes…),
  // a NOT NULL or CHECK refused.
  if (code.startsWith('22') || code === '23502' || code === '23514') return new HttpError(422, d.invalidValue);
  return undefined;
}

/**
 * What the multipart parser (busboy, under @fastify/multipart) throws, without a status, for a
 * form that is not one: no boundary, cut short, a part's headers unreadable.
 */
const MALFORMED_FORM =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of (multipart data|form)|(Part|File|Field)? ?terminated early due to unexpected end of multipart data|Malformed (part header|content disposition)|Missing Content-Type)/i;
export const isMalformedForm = (error: unknown) =>
  error instanceof Error && !(error as { statusCode?: number }).statusCode && MALFORMED_FORM.test(error.message);

/** Status codes Fastify and its plugins raise for bad input, with their French text. */
const clientErrorMessages: Record<number, string> = {
  400: messages.validation,
  401: messages.unauthenticated,
  403: messages.forbidden,
  404: messages.notFound,
  405: messages.notFound,
  406: messages.unsupportedMediaType,
  409: messages.conflict,
  411: messages.lengthRequired,
  413: messages.payloadTooLarge,
  415: messages.unsupportedMediaType,
  429: messages.tooManyRequests,
};

/** A refused body is read and dropped before the answer up to this size, within this time. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 5000;

/**
 * A body refused before it was read (413: too large for its route): its bytes still on their way
 * are read and dropped before the answer, so that the connection stays open and the client reads
 * the answer. Node closes a connection answered over unread bytes, and the client's next write
 * then meets a reset (EPIPE) instead of the 413. Past DRAIN_MAX_BYTES declared, or without a
 * declared size, the answer goes at once and the connection closes. Resolves whether it was read.
 */
function drainRefusedBody(raw: IncomingMessage): Promise<boolean> {
  const declared = Number(raw.headers['content-length']);
  if (raw.complete) return Promise.resolve(true);
  if (raw.destroyed || !Number.isFinite(declared) || declared > DRAIN_MAX_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      raw.off('end', done).off('close', done).off('error', done);
      resolve(raw.complete);
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    raw.on('end', done).on('close', done).on('error', done);
    raw.resume();
  });
}

/**
 * The one error handler: `{ message, errors? }` JSON in French, 422 with field errors for
 * validation, never a stack trace, and never a 5xx for something the client sent.
 */
export function registerErrorHandler(app: FastifyInstance, { notFound = true } = {}) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError || error instanceof DomainError) {
      const retryAfter = error.extra?.retry_after;
      if ((error.statusCode === 429 || error.statusCode === 503) && typeof retryAfter === 'number')
        reply.header('retry-after', String(retryAfter));
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // An id in the path that no row can have (99999999999, 0, -1): nothing there.
      if (
        error.validationContext === 'params' &&
        error.validation.every((v) => v.keyword === 'too_big' || v.keyword === 'too_small')
      )
        return reply.status(404).send({ message: messages.notFound });
      const issues = error.validation.map((v) => ({
        path: String(v.instancePath ?? '')
          .split('/')
          .filter(Boolean),
        message: v.message ?? messages.validation,
      }));
      return reply.status(422).send({ message: messages.validation, errors: fieldErrorsFromZod(issues) });
    }
    if (error instanceof ZodError) {
      return reply.status(422).send({ message: messages.validation, errors: fieldErrorsFromZod(error.issues) });
    }
    if (isMalformedForm(error)) return reply.status(400).send({ message: messages.badForm });
    const refused = httpErrorFromDatabase(error);
    if (refused) {
      // Logged without its parameters (logging.ts): the statement, never the values.
      request.log.warn({ err: error }, 'the database refused the request');
      const retryAfter = refused.extra?.retry_after;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      return reply.status(refused.statusCode).send({ message: refused.message, ...refused.extra });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response does not match its schema');
      return reply.status(500).send({ message: messages.internal });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return drainRefusedBody(request.raw).then((read) => {
        // Fastify asks to close after a refused body; once it is read, the connection can stay.
        if (read) reply.removeHeader('connection');
        return reply.status(413).send({ message: clientErrorMessages[413] });
      });
    }
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? messages.badJson
          : (clientErrorMessages[status] ?? messages.validation);
      return reply.status(status).send({ message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(Math.max(status, 500)).send({ message: messages.internal });
  });

  if (notFound)
    app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: messages.routeNotFound }));
}
