import { type AccessClaims, accessClaimsSchema, messages, WILDCARD_PERMISSION } from '@cartable/contracts';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { forbidden, unauthorized } from './errors.ts';

export const TOKEN_ISSUER = 'cartable-auth';
export const TOKEN_AUDIENCE = 'cartable';

export interface TokenVerifier {
  verify(token: string): Promise<AccessClaims>;
}

/** Verifies access tokens locally against the auth service's JWKS (fetched once, then cached). */
export function createTokenVerifier(jwks: string | JWTVerifyGetKey): TokenVerifier {
  const keys =
    typeof jwks === 'string'
      ? createRemoteJWKSet(new URL(jwks), { cacheMaxAge: 10 * 60_000, timeoutDuration: 2000 })
      : jwks;
  return {
    async verify(token) {
      const { payload } = await jwtVerify(token, keys, { issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE });
      return accessClaimsSchema.parse(payload);
    },
  };
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/** SPEC.md section 6: held directly or through a role (claims carry both, flattened), wildcard, or admin. */
export function hasPermission(claims: Pick<AccessClaims, 'is_admin' | 'permissions'>, slug: string): boolean {
  return claims.is_admin || claims.permissions.includes(WILDCARD_PERMISSION) || claims.permissions.includes(slug);
}

export function hasRole(claims: Pick<AccessClaims, 'is_admin' | 'roles'>, slug: string): boolean {
  return claims.is_admin || claims.roles.includes(slug);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guards once the bearer token has been verified. */
    claims?: AccessClaims;
  }
}

/** Builds the guards a service uses in `preHandler`. */
export function createGuards(verifier: TokenVerifier) {
  async function authenticate(request: FastifyRequest): Promise<AccessClaims> {
    if (request.claims) return request.claims;
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    try {
      request.claims = await verifier.verify(token);
    } catch {
      throw unauthorized(messages.tokenInvalid);
    }
    return request.claims;
  }

  const requireUser: preHandlerAsyncHookHandler = async (request) => {
    await authenticate(request);
  };
  const requireVerified: preHandlerAsyncHookHandler = async (request) => {
    const claims = await authenticate(request);
    if (!claims.email_verified) throw forbidden(messages.emailNotVerified);
  };
  const requireAdmin: preHandlerAsyncHookHandler = async (request) => {
    const claims = await authenticate(request);
    if (!claims.is_admin) throw forbidden(messages.adminOnly);
  };
  const requirePermission =
    (slug: string): preHandlerAsyncHookHandler =>
    async (request: FastifyRequest, _reply: FastifyReply) => {
      const claims = await authenticate(request);
      if (!claims.email_verified) throw forbidden(messages.emailNotVerified);
      if (!hasPermission(claims, slug)) throw forbidden();
    };
  /** Reads the token when there is one, for routes that answer both visitors and users. */
  const optionalUser: preHandlerAsyncHookHandler = async (request) => {
    if (bearerToken(request)) await authenticate(request);
  };

  return { authenticate, requireUser, requireVerified, requireAdmin, requirePermission, optionalUser };
}
export type Guards = ReturnType<typeof createGuards>;
