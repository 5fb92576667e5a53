import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createDatabases, databaseUrl, dropDatabases } from '../../../scripts/stack/infrastructure.ts';
import { createGuards, createTokenVerifier, TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/index.ts';

/**
 * Test helpers for the services' own tests (never imported by production code): a signing key
 * standing in for auth, and a throw-away database on the machine's PostgreSQL.
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

const PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database and a data folder of their own, with a unique id for Redis keys and streams. */
export async function testDatabase(service: string) {
  const id = `t${randomBytes(4).toString('hex')}`;
  const name = `cartable_${id}_${service}`;
  await createDatabases(PG, [name]);
  const dataDir = mkdtempSync(join(tmpdir(), `cartable-${service}-${id}-`));
  return {
    id,
    url: databaseUrl(PG, name),
    dataDir,
    async drop() {
      await dropDatabases(PG, [name]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
