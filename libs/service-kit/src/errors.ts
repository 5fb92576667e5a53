import { messages } from '@cartable/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';

export type FieldErrors = Record<string, string[]>;

/** An error whose status and French message go to the client as they are. */
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

export const badRequest = (message: string, errors?: FieldErrors) => new HttpError(400, message, errors);
export const unprocessable = (errors: FieldErrors, message: string = messages.validation) =>
  new HttpError(422, message, errors);
export const unauthorized = (message: string = messages.unauthenticated) => new HttpError(401, message);
export const forbidden = (message: string = messages.forbidden) => new HttpError(403, message);
export const notFound = (message: string = messages.notFound) => new HttpError(404, message);
export const conflict = (message: string, errors?: FieldErrors) => new HttpError(409, message, errors);

/** Zod issues → `{ field: [messages] }`, keyed by dotted path. */
export function fieldErrorsFromZod(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    out[key] = [...(out[key] ?? []), issue.message];
  }
  return out;
}

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

/**
 * The one error handler: `{ message, errors? }` JSON in French, 422 with field errors for
 * validation, never a stack trace, and never a 5xx for something the client sent.
 */
export function registerErrorHandler(app: FastifyInstance, { notFound = true } = {}) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
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
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response does not match its schema');
      return reply.status(500).send({ message: messages.internal });
    }
    const status = error.statusCode ?? 500;
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
