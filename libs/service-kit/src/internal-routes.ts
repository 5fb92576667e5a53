import { createHash, timingSafeEqual } from 'node:crypto';
import { messages } from '@cartable/contracts';
import type { onRequestHookHandler } from 'fastify';

/** The header that carries INTERNAL_SERVICE_TOKEN from one deployable to another. */
export const SERVICE_TOKEN_HEADER = 'x-service-token';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * An onRequest hook for a service's internal routes: a caller without the service credential
 * (INTERNAL_SERVICE_TOKEN) gets 403 before anything else runs. Compared in constant time, on
 * digests of equal length, so that the answer's timing tells nothing of the secret. 403, not 401:
 * the member's token may be fine, it is the caller that may not ask.
 */
export function requireServiceToken(expected: string): onRequestHookHandler {
  const wanted = digest(expected);
  return (request, reply, done) => {
    const presented = request.headers[SERVICE_TOKEN_HEADER];
    if (typeof presented === 'string' && timingSafeEqual(digest(presented), wanted)) return done();
    request.log.warn('internal route called without the service credential');
    reply.code(403).send({ message: messages.forbidden });
  };
}
