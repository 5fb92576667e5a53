import { createGuards, createTokenVerifier, type Redis, type Storage, type UnitOfWork } from '@cartable/service-kit';
import { createLocalJWKSet } from 'jose';
import type { Logger } from 'pino';
import type { AuthConfig } from './config.ts';
import type { AuthDeps } from './deps.ts';
import { loginThrottle, throttleSettings } from './domain/login-throttle.ts';
import { createRevocationCache, currentClaimsInDatabase } from './domain/revocation.ts';
import { loadSigner } from './domain/signing.ts';

/**
 * auth's composition root, for main.ts and the tests alike: its signing keys, guards that ask
 * its own database, the login throttle and the gateway's revocation copy on `redis`. Start the
 * revocation copy with `deps.revocation.start()`.
 */
export async function createAuth(parts: {
  config: AuthConfig;
  uow: UnitOfWork;
  redis: Redis;
  storage: Storage;
  log: Pick<Logger, 'info' | 'warn' | 'debug'>;
}): Promise<AuthDeps> {
  const { config, uow, redis, storage, log } = parts;
  const db = uow.db;
  const signer = await loadSigner(config.AUTH_PRIVATE_KEY, config.DATA_DIR);
  // auth checks its own tokens with its own keys, no HTTP round trip, and its own database says
  // whether a token was revoked (it holds the source of truth).
  const guards = createGuards(createTokenVerifier(createLocalJWKSet(signer.jwks)), {
    revocation: { currentClaims: (_token, claims) => currentClaimsInDatabase(db, claims) },
  });
  // Redis only holds the gateway's copy of revocations (the database has them): rebuilt at
  // start, after every reconnection and periodically. No route of auth needs Redis to answer.
  const revocation = createRevocationCache({
    db,
    redis,
    prefix: config.REDIS_KEY_PREFIX,
    tokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    refreshSeconds: config.REVOCATION_CACHE_REFRESH_SECONDS,
    log,
  });
  return { config, uow, signer, guards, throttle: loginThrottle(db, throttleSettings(config)), revocation, storage };
}
