import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ClaimsToSign } from '@cartable/contracts';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '@cartable/service-kit';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  type JWK,
  SignJWT,
} from 'jose';

const ALG = 'ES256';

export interface Signer {
  jwks: { keys: JWK[] };
  sign(claims: ClaimsToSign, ttlSeconds: number): Promise<{ token: string; jti: string; exp: number }>;
  /**
   * A keyed MAC of `value` for `purpose` (HMAC-SHA256 under a key derived from the private key):
   * a proof auth hands to whoever showed it something (a sign-up, a password) and checks later.
   */
  mac(purpose: string, value: string): string;
  macMatches(purpose: string, value: string, mac: string): boolean;
}

/**
 * The private key comes from AUTH_PRIVATE_KEY, or in development from DATA_DIR/auth/keys
 * (generated on first start, so tokens survive a restart).
 */
export async function loadSigner(privateKeyPem: string | undefined, dataDir: string): Promise<Signer> {
  let pem = privateKeyPem?.replace(/\\n/g, '\n');
  if (!pem) {
    const path = join(dataDir, 'auth', 'keys', 'access-token.pem');
    pem = await readFile(path, 'utf8').catch(async () => {
      const { privateKey } = await generateKeyPair(ALG, { extractable: true });
      const generated = await exportPKCS8(privateKey);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, generated, { mode: 0o600 });
      return generated;
    });
  }
  const privateKey = (await importPKCS8(pem, ALG, { extractable: true })) as CryptoKey;
  const { d: _private, ...publicJwk } = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const jwk: JWK = { ...publicJwk, kid, alg: ALG, use: 'sig' };

  const macKey = createHash('sha256').update('cartable-mac:').update(pem).digest();
  const mac = (purpose: string, value: string) =>
    createHmac('sha256', macKey).update(`${purpose}\n${value}`).digest('base64url');

  return {
    jwks: { keys: [jwk] },
    mac,
    macMatches(purpose, value, given) {
      const expected = Buffer.from(mac(purpose, value));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
    async sign({ sub, ...claims }, ttlSeconds) {
      const jti = randomUUID();
      const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
      const token = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: ALG, kid })
        .setSubject(sub)
        .setJti(jti)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(privateKey);
      return { token, jti, exp };
    },
  };
}
