import { messages } from '@cartable/contracts';
import {
  bearerToken,
  forbidden,
  HttpError,
  type RevocationChecker,
  type TokenVerifier,
  unauthorized,
} from '@cartable/service-kit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors as joseErrors } from 'jose';
import { ZodError } from 'zod';
import type { Access } from './route-table.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Checks the bearer token as the route's `config.access` asks: sets `request.claims` for a
     * token passed on, drops a bad token on a public route, throws 401, 403 or 503 otherwise.
     */
    verifyAccess(request: FastifyRequest): Promise<void>;
    /** Redis first, auth's database when Redis cannot say; tests wait on its `settled()`. */
    revocation: RevocationChecker;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

export interface AuthenticationOptions {
  verifier: TokenVerifier;
  revocation: RevocationChecker;
}

// An HttpError, so that the French message reaches the client (a bare 503 would read as an
// internal error).
const serviceUnavailable = () => new HttpError(503, messages.serviceUnavailable);

/** jose's JWKSTimeout, or fetch failing: the keys could not be read, the token may be fine. */
const keysUnreachable = (err: unknown) =>
  (err instanceof joseErrors.JOSEError && err.code === 'ERR_JWKS_TIMEOUT') ||
  (!(err instanceof joseErrors.JOSEError) && !(err instanceof ZodError));

/**
 * Token verification (auth's public keys) and revocation (revoked, or its rights replaced by the
 * member's current ones), for the routes of the API. The upstreams check both again: this is the
 * first door, not the only one.
 */
const authentication: FastifyPluginAsync<AuthenticationOptions> = async (app, { verifier, revocation }) => {
  app.decorate('revocation', revocation);
  app.decorate('verifyAccess', async (request: FastifyRequest) => {
    const access = request.routeOptions.config.access ?? 'user';
    const token = bearerToken(request);
    if (!token) {
      if (access === 'public') return;
      throw unauthorized();
    }
    // A visitor's stale token must not lock them out of public pages: dropped, they go on.
    const asVisitor = (reason: HttpError) => {
      if (access !== 'public') throw reason;
      delete request.headers.authorization;
    };
    let claims: Awaited<ReturnType<TokenVerifier['verify']>>;
    try {
      claims = await verifier.verify(token);
    } catch (err) {
      if (!keysUnreachable(err)) return asVisitor(unauthorized(messages.tokenInvalid));
      request.log.warn({ err: (err as Error).message }, 'cannot read the signing keys');
      return asVisitor(serviceUnavailable());
    }
    let current: typeof claims | null;
    try {
      current = await revocation.currentClaims(token, claims);
    } catch (err) {
      // Neither Redis nor auth answers: visitors go on as visitors, members get a clear 503.
      request.log.warn({ err: (err as Error).message }, 'cannot check token revocation');
      return asVisitor(serviceUnavailable());
    }
    if (!current) return asVisitor(unauthorized(messages.tokenInvalid));
    if (access === 'admin' && !current.is_admin) throw forbidden(messages.adminOnly);
    request.claims = current;
  });
};

export const authenticationPlugin = fp(authentication, { name: 'cartable-authentication' });
