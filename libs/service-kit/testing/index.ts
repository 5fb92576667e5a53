import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createGuards, createTokenVerifier, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/index.ts';

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
