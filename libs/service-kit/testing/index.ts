import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createGuards, createTokenVerifier, type RegisteredRoute, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/index.ts';

/**
 * Test helpers for the services' own tests (never imported by production code): a signing key
 * standing in for auth. Databases, ports and servers of a test's own are @cartable/stack's.
 */
export async function testTokens() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'ES256' };
  const guards = createGuards(createTokenVerifier(createLocalJWKSet({ keys: [jwk] })));

  /** A token for a member (a new one unless `sub` is given). */
  async function token(
    claims: { sub?: string; is_admin?: boolean; permissions?: string[]; email_verified?: boolean } = {},
  ) {
    const sub = claims.sub ?? randomUUID();
    const jwt = await new SignJWT({
      email_verified: claims.email_verified ?? true,
      is_admin: claims.is_admin ?? false,
      roles: [],
      permissions: claims.permissions ?? [],
      ver: 0,
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'test' })
      .setSubject(sub)
      .setJti(randomUUID())
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setExpirationTime('1h')
      .sign(privateKey);
    return { sub, token: jwt };
  }
  return { guards, token, jwk };
}

/** What `refusedBeforeValidation` needs of an app: Fastify's inject and the routes it registered. */
interface WalkedApp {
  routeList: RegisteredRoute[];
  inject: FastifyInstance['inject'];
}

/**
 * Walks every protected route of an app (under /admin, or behind an administrator or permission
 * guard) as a member who holds no permission, with a body, a query and ids that are all invalid:
 * each must answer 403, proof that the permission is checked before anything sent is judged (a
 * 422 would tell such a member the route's rules). Returns the routes walked and those that did
 * not answer 403, with what they answered.
 */
export async function refusedBeforeValidation(app: WalkedApp, memberToken: string) {
  const walked = app.routeList.filter(
    (r) =>
      r.method !== 'HEAD' &&
      r.method !== 'OPTIONS' &&
      (r.url.startsWith('/admin') || r.guards.some((g) => g.kind === 'admin' || g.kind === 'permission')),
  );
  const wrong: string[] = [];
  for (const route of walked) {
    const path = route.url.replace(/:\w+/g, 'pas-un-id').replace(/\*$/, 'x');
    const res = await app.inject({
      method: route.method as 'GET',
      url: `${path}?page=-1&per_page=beaucoup`,
      headers: { authorization: `Bearer ${memberToken}`, 'content-type': 'application/json' },
      ...(route.method === 'GET' ? {} : { payload: '[1, "pas un objet"]' }),
    });
    if (res.statusCode !== 403) wrong.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 160)}`);
  }
  return { walked: walked.map((r) => `${r.method} ${r.url}`), wrong };
}
