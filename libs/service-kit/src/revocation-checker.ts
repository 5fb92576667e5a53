import { type AccessClaims, tokenStatusResponseSchema } from '@cartable/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import { createGuards, createTokenVerifier } from './auth.ts';
import { SERVICE_TOKEN_HEADER } from './internal-routes.ts';
import { type CacheAnswer, readRevocationCache, withRights } from './revocation.ts';
import { createRevocationMemo } from './revocation-memo.ts';

/** What auth says of a token: revoked, and its holder's current rights if they changed. */
type TokenStatus = z.infer<typeof tokenStatusResponseSchema>;

/** Raised when neither Redis nor auth can say whether a token is revoked. */
export class RevocationUnavailable extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(`revocation status unavailable: ${reason}`, options);
  }
}

/** A small map with a size bound (least recently used out first) and a lifetime per entry. */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  constructor(readonly maxEntries: number) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number, now = Date.now()) {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: now + ttlMs });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string) {
    this.#entries.delete(key);
  }

  get size() {
    return this.#entries.size;
  }
}

export interface RevocationCheckerOptions {
  redis: Redis;
  prefix: string;
  /** auth's base URL: POST /internal/token-status answers when the cache cannot. */
  authUrl: string;
  /** The credential auth's internal routes ask for (INTERNAL_SERVICE_TOKEN). */
  internalServiceToken: string;
  /** How long auth's word that a token is valid is reused (revoked: until it expires). */
  statusCacheMs: number;
  /** Redis is a cache: a slow one is treated as a missing one. */
  redisTimeoutMs?: number;
  authTimeoutMs?: number;
  maxEntries?: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /**
   * Keep Redis's answers in memory while Redis announces every change to them (revocation-memo.ts);
   * true by default. False: Redis is read on every request.
   */
  memo?: boolean;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Is a token (whose signature is already verified) revoked, and are its rights still the
 * member's? What Redis last said of it, kept here while Redis announces every change
 * (revocation-memo.ts); else Redis, one MGET: a revoked
 * id or a newer user version there is always true, and their absence means "valid" while auth's
 * sentinel says the cache is complete. Otherwise (Redis down, or restarted empty and not yet
 * rebuilt) auth's database answers through its internal route; those answers are kept a few
 * seconds per token, and concurrent questions about one token share one call, so losing Redis
 * does not flood auth. Throws RevocationUnavailable when neither can answer.
 */
export function createRevocationChecker(options: RevocationCheckerOptions) {
  const { redis, prefix, log } = options;
  const redisTimeoutMs = options.redisTimeoutMs ?? 500;
  const authTimeoutMs = options.authTimeoutMs ?? 2000;
  const statuses = new TtlCache<TokenStatus>(options.maxEntries ?? 10_000);
  const pending = new Map<string, Promise<TokenStatus>>();
  const counts = { memo: 0, cache: 0, auth: 0, reused: 0, redisErrors: 0 };
  const memo = options.memo === false ? undefined : createRevocationMemo(redis, prefix, log, options.maxEntries);
  let lastRedisWarning = 0;

  async function fromRedis(claims: AccessClaims): Promise<CacheAnswer> {
    try {
      return await withTimeout(readRevocationCache(redis, prefix, claims), redisTimeoutMs);
    } catch (err) {
      counts.redisErrors++;
      // One line every 30 s is enough to say Redis is away.
      if (Date.now() - lastRedisWarning > 30_000) {
        lastRedisWarning = Date.now();
        log.warn({ err: (err as Error).message }, 'revocation cache unreachable; asking auth');
      }
      return { answer: 'unknown' };
    }
  }

  async function askAuth(token: string): Promise<TokenStatus> {
    let response: Response;
    try {
      response = await fetch(`${options.authUrl}/internal/token-status`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, [SERVICE_TOKEN_HEADER]: options.internalServiceToken },
        signal: AbortSignal.timeout(authTimeoutMs),
      });
    } catch (err) {
      throw new RevocationUnavailable('auth unreachable', { cause: err });
    }
    // auth no longer accepts the token at all (its keys changed): as good as revoked. A 403 says
    // this caller's service credential was refused: a setting to fix, never a member's fault.
    if (response.status === 401) return { revoked: true };
    const body = tokenStatusResponseSchema.safeParse(await response.json().catch(() => null));
    if (response.status !== 200 || !body.success) throw new RevocationUnavailable(`auth answered ${response.status}`);
    return body.data;
  }

  function fromAuth(token: string, claims: AccessClaims): Promise<TokenStatus> {
    const known = statuses.get(claims.jti);
    if (known !== undefined) {
      counts.reused++;
      return Promise.resolve(known);
    }
    let asking = pending.get(claims.jti);
    if (!asking) {
      counts.auth++;
      asking = askAuth(token)
        .then((status) => {
          const ttl = status.revoked ? Math.max(1000, claims.exp * 1000 - Date.now()) : options.statusCacheMs;
          statuses.set(claims.jti, status, ttl);
          return status;
        })
        .finally(() => pending.delete(claims.jti));
      pending.set(claims.jti, asking);
    }
    return asking;
  }

  /**
   * The token's claims as they stand now: null when it was revoked; its rights replaced by the
   * member's current ones when those changed after it was issued (a promotion reaches an open
   * session at once).
   */
  async function currentClaims(token: string, claims: AccessClaims): Promise<AccessClaims | null> {
    const kept = memo?.get(claims);
    if (kept) {
      counts.memo++;
      return kept.answer === 'revoked' ? null : withRights(claims, kept.rights);
    }
    const generation = memo?.begin() ?? null;
    const cached = await fromRedis(claims);
    if (cached.answer !== 'unknown') {
      counts.cache++;
      memo?.keep(claims, cached, generation);
      return cached.answer === 'revoked' ? null : withRights(claims, cached.rights);
    }
    const status = await fromAuth(token, claims);
    return status.revoked ? null : withRights(claims, status.rights);
  }

  return {
    currentClaims,
    async isRevoked(token: string, claims: AccessClaims): Promise<boolean> {
      return (await currentClaims(token, claims)) === null;
    },
    /**
     * A call that may have revoked this token (its own logout, a password change…) has had its
     * response: what auth said of it before is no longer to be trusted.
     */
    forget(jti: string) {
      statuses.delete(jti);
      memo?.forget(jti);
    },
    /** Resolves once every revocation change Redis announced so far is applied here (tests). */
    settled: async () => memo?.settled(),
    /** Whether Redis's answers are kept here now (Redis announces changes to this process). */
    hearsChanges: () => memo?.live ?? false,
    /** Where answers came from, for tests and the curious. */
    counts: () => ({ ...counts }),
  };
}
export type RevocationChecker = ReturnType<typeof createRevocationChecker>;

/**
 * The guards of a service behind the gateway: tokens verified against auth's keys, and checked
 * here too for revocation and current rights (never only at the gateway).
 */
export function createServiceGuards(
  config: {
    AUTH_JWKS_URL: string;
    AUTH_URL: string;
    INTERNAL_SERVICE_TOKEN: string;
    REDIS_KEY_PREFIX: string;
    TOKEN_STATUS_CACHE_MS: number;
  },
  redis: Redis,
  log: Pick<FastifyBaseLogger, 'warn'>,
) {
  return createGuards(createTokenVerifier(config.AUTH_JWKS_URL), {
    revocation: createRevocationChecker({
      redis,
      prefix: config.REDIS_KEY_PREFIX,
      authUrl: config.AUTH_URL,
      internalServiceToken: config.INTERNAL_SERVICE_TOKEN,
      statusCacheMs: config.TOKEN_STATUS_CACHE_MS,
      log,
    }),
  });
}
