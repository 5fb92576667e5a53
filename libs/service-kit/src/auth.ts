import { type AccessClaims, accessClaimsSchema, messages, WILDCARD_PERMISSION } from '@cartable/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import { forbidden, HttpError, unauthorized } from './errors.ts';

export const TOKEN_ISSUER = 'cartable-auth';
export const TOKEN_AUDIENCE = 'cartable';

export interface TokenVerifier {
  verify(token: string): Promise<AccessClaims>;
}

export interface TokenVerifierOptions {
  /** How often the signing keys are re-read in the background (10 minutes). */
  refreshMs?: number;
  /** How long one read of the keys may take. */
  timeoutMs?: number;
  /** A background re-read failed (auth away): the keys in hand stay in use. */
  onRefreshError?: (err: unknown) => void;
  /** Tokens whose signature is remembered (10,000, a few MB). */
  verifiedCacheSize?: number;
}

/**
 * Verifies access tokens locally against the auth service's JWKS. The keys, once read, are kept
 * until auth shows other ones: an auth outage, however long, does not log anyone out. They are
 * re-read in the background every `refreshMs` (a failure keeps the old ones: jose replaces its
 * set only after a successful read), and at once, subject to jose's 30 s cooldown, when a token
 * names a key id not in the set (a rotation).
 */
export function createTokenVerifier(jwks: string | JWTVerifyGetKey, options: TokenVerifierOptions = {}): TokenVerifier {
  const remote = typeof jwks === 'string' ? remoteKeys(new URL(jwks), options) : undefined;
  const keys = remote?.getKey ?? (jwks as JWTVerifyGetKey);
  // An ES256 signature costs about 0.1 ms of CPU, on every request of a member: a token checked
  // once is taken again without it until it expires or auth stops publishing its key. Only the
  // signature is remembered; revocation is still asked on every request (RevocationCheck).
  const verified = remote
    ? new LRUCache<string, { claims: AccessClaims; kid: string }>({ max: options.verifiedCacheSize ?? 10_000 })
    : undefined;
  return {
    async verify(token) {
      const hit = verified?.get(token);
      if (hit && hit.claims.exp * 1000 > Date.now() && remote?.publishes(hit.kid)) return copyClaims(hit.claims);
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
      });
      const claims = accessClaimsSchema.parse(payload);
      if (verified && protectedHeader.kid)
        verified.set(token, { claims: copyClaims(claims), kid: protectedHeader.kid });
      return claims;
    },
  };
}

/** A copy a caller may change without changing the remembered claims. */
const copyClaims = (claims: AccessClaims): AccessClaims => ({
  ...claims,
  roles: [...claims.roles],
  permissions: [...claims.permissions],
});

function remoteKeys(url: URL, options: TokenVerifierOptions) {
  const refreshMs = options.refreshMs ?? 10 * 60_000;
  // Never stale by age: only a successful read replaces the keys.
  const remote = createRemoteJWKSet(url, {
    cacheMaxAge: Number.POSITIVE_INFINITY,
    timeoutDuration: options.timeoutMs ?? 2000,
  });
  let lastRefresh = Date.now();
  // The key ids in hand, read again after every read of the set (jose's jwks() deep-copies the
  // set on each call: too dear for every request).
  let kids = new Set<string>();
  const readKids = () => {
    kids = new Set((remote.jwks()?.keys ?? []).flatMap((key) => (key.kid ? [key.kid] : [])));
  };
  // Driven by traffic rather than a timer: nothing to stop at shutdown, nothing to do idle.
  const refreshWhenDue = () => {
    if (remote.fresh && !remote.reloading && Date.now() - lastRefresh >= refreshMs) {
      lastRefresh = Date.now();
      remote
        .reload()
        .then(readKids)
        .catch((err: unknown) => options.onRefreshError?.(err));
    }
  };
  const getKey: JWTVerifyGetKey = async (protectedHeader, token) => {
    refreshWhenDue();
    // jose may read the set again here (a key id it does not know): take the ids afterwards.
    return remote(protectedHeader, token).finally(readKids);
  };
  return {
    getKey,
    /** Whether the key set in hand still holds this key id (a remembered token is good). */
    publishes(kid: string): boolean {
      refreshWhenDue();
      return kids.has(kid);
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

/**
 * A verified token as it stands now: null once revoked (logout, password change, loss of
 * rights…), with the member's current rights when they changed after it was issued.
 */
export interface RevocationCheck {
  currentClaims(token: string, claims: AccessClaims): Promise<AccessClaims | null>;
}

/**
 * A guard: refuses the request (401, 403, 503) or lets it on. Each reads only the token, so a
 * route runs it at `onRequest`, never in a later hook (createHttpApp refuses that): who may call
 * a route is answered before what they sent is judged, and a member without the right learns
 * 403, not the route's 422 about a body they may not send anyway.
 */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** What a guard asks for: a token, a verified address, the administrator, a permission. */
export type GuardRequirement =
  | { kind: 'signature' | 'user' | 'verified' | 'admin' | 'optional' }
  | { kind: 'permission'; permission: string };
const requirements = new WeakMap<Guard, GuardRequirement>();

/** The guard's requirement, when `fn` is one of the guards below (for the route checks). */
export const guardRequirement = (fn: unknown): GuardRequirement | undefined =>
  typeof fn === 'function' ? requirements.get(fn as Guard) : undefined;

const guard = (requirement: GuardRequirement, fn: Guard): Guard => {
  requirements.set(fn, requirement);
  return fn;
};

/**
 * Builds the guards a service uses at `onRequest`. With `revocation`, a service refuses a
 * revoked token itself instead of trusting that every request came through the gateway.
 */
export function createGuards(verifier: TokenVerifier, { revocation }: { revocation?: RevocationCheck } = {}) {
  async function authenticate(request: FastifyRequest): Promise<AccessClaims> {
    if (request.claims) return request.claims;
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    let claims: AccessClaims;
    try {
      claims = await verifier.verify(token);
    } catch {
      throw unauthorized(messages.tokenInvalid);
    }
    let current: AccessClaims | null = claims;
    try {
      if (revocation) current = await revocation.currentClaims(token, claims);
    } catch (err) {
      // Neither the cache nor auth can say: refuse politely rather than let a revoked token in.
      request.log.warn({ err: (err as Error).message }, 'cannot check token revocation');
      throw new HttpError(503, messages.serviceUnavailable);
    }
    if (!current) throw unauthorized(messages.tokenInvalid);
    request.claims = current;
    return current;
  }

  /**
   * A genuine token, whatever became of it since: for the one route whose job is to say whether
   * it was revoked (auth's internal token status).
   */
  const requireSignature = guard({ kind: 'signature' }, async (request) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    try {
      request.claims = await verifier.verify(token);
    } catch {
      throw unauthorized(messages.tokenInvalid);
    }
  });
  const requireUser = guard({ kind: 'user' }, async (request) => {
    await authenticate(request);
  });
  const requireVerified = guard({ kind: 'verified' }, async (request) => {
    const claims = await authenticate(request);
    if (!claims.email_verified) throw forbidden(messages.emailNotVerified);
  });
  const requireAdmin = guard({ kind: 'admin' }, async (request) => {
    const claims = await authenticate(request);
    if (!claims.is_admin) throw forbidden(messages.adminOnly);
  });
  const requirePermission = (slug: string): Guard =>
    guard({ kind: 'permission', permission: slug }, async (request: FastifyRequest, _reply: FastifyReply) => {
      const claims = await authenticate(request);
      if (!claims.email_verified) throw forbidden(messages.emailNotVerified);
      if (!hasPermission(claims, slug)) throw forbidden();
    });
  /** Reads the token when there is one, for routes that answer both visitors and users. */
  const optionalUser = guard({ kind: 'optional' }, async (request) => {
    if (bearerToken(request)) await authenticate(request);
  });

  return {
    authenticate,
    requireSignature,
    requireUser,
    requireVerified,
    requireAdmin,
    requirePermission,
    optionalUser,
  };
}
export type Guards = ReturnType<typeof createGuards>;
