import type { AccessClaims, CurrentRights } from '@cartable/contracts';
import {
  cacheRevokedToken,
  cacheRights,
  cacheTokenVersion,
  type Db,
  DELETED_ACCOUNT_VERSION,
  markRevocationCacheIncomplete,
  markRevocationCacheLoaded,
  pipelineRevocation,
  type Redis,
  revocationLoadedKey,
  rightsKey,
  type Transaction,
  withRights,
} from '@cartable/service-kit';
import type { Logger } from 'pino';
import * as queries from '../db/queries.ts';
import type { AuthDeps } from '../deps.ts';
import { claimsFor, toUserDto } from './users.ts';

/**
 * Token revocation. The database is the source of truth: revoked token ids (logout), users'
 * token versions (bumped to refuse every older token) and deleted accounts. Each change is
 * written there first, in the transaction of the change that causes it; Redis is then written
 * through as the gateway's copy (libs/service-kit/src/revocation.ts), and rebuilt from here.
 */

/**
 * Every token of these users stops working: their versions go up in the transaction `t`, and
 * once it commits the gateway's Redis copy learns the new versions before the answer goes.
 * Returns the users' rows as they are now.
 */
export async function endSessions(
  t: Transaction,
  revocation: Pick<RevocationCache, 'versionBumped'>,
  userIds: string[],
) {
  const rows = await queries.bumpTokenVersions(t.db, userIds);
  t.afterCommit(async () => {
    await Promise.all(rows.map((row) => revocation.versionBumped(row.id, row.tokenVersion)));
  });
  return rows;
}

/** What the database says of a token whose signature is valid: refused or not. One query. */
export async function isRevokedInDatabase(db: Db, claims: { jti: string; sub: string; ver: number }) {
  const row = await queries.revocationFacts(db, claims);
  if (!row) return true;
  // A user that does not exist (any more) has no valid token.
  return row.revokedToken || row.deleted || row.version === null || claims.ver < Number(row.version);
}

/** The member's rights as they are now, if they changed at some point (else the token's stand). */
export async function currentRights(
  db: Db,
  userId: string,
  /** A token's issue time (seconds): rights that did not change since are not read again. */
  since = Number.NEGATIVE_INFINITY,
): Promise<CurrentRights | undefined> {
  const row = await queries.findUserById(db, userId);
  if (!row?.rightsChangedAt || row.rightsChangedAt.getTime() / 1000 <= since) return undefined;
  const claims = claimsFor(await toUserDto(db, row), row.tokenVersion);
  return {
    changed_at: row.rightsChangedAt.getTime() / 1000,
    is_admin: claims.is_admin,
    roles: claims.roles,
    permissions: claims.permissions,
  };
}

/** What auth's own guards read: revoked or not in the database, and the current rights. */
export async function currentClaimsInDatabase(db: Db, claims: AccessClaims): Promise<AccessClaims | null> {
  if (await isRevokedInDatabase(db, claims)) return null;
  return withRights(claims, await currentRights(db, claims.sub, claims.iat ?? 0));
}

/** Whether a token is refused, and its holder's rights if they changed since it was issued. */
export async function tokenStatus({ uow }: Pick<AuthDeps, 'uow'>, claims: AccessClaims) {
  if (await isRevokedInDatabase(uow.db, claims)) return { revoked: true };
  const rights = await currentRights(uow.db, claims.sub, claims.iat ?? 0);
  return { revoked: false, ...(rights ? { rights } : {}) };
}

// ── the Redis cache ────────────────────────────────────────────────────────────────────────

export interface RevocationCacheOptions {
  db: Db;
  redis: Redis;
  prefix: string;
  /** Access token lifetime: how long a revocation has to be remembered. */
  tokenTtlSeconds: number;
  /** Full rebuild (and pruning of expired rows) every so often. */
  refreshSeconds: number;
  /** How often each replica checks that the sentinel is still there (a Redis restarted empty). */
  probeSeconds?: number;
  log: Pick<Logger, 'info' | 'warn' | 'debug'>;
}

const CHUNK = 500;

export function createRevocationCache(options: RevocationCacheOptions) {
  const { db, redis, prefix, tokenTtlSeconds, log } = options;
  /** Failed cache writes in this process: a rebuild that saw one does not claim to be complete. */
  let failedWrites = 0;
  let running: Promise<RebuildResult> | undefined;

  async function write(fn: () => Promise<unknown>) {
    try {
      await fn();
    } catch (err) {
      failedWrites++;
      log.warn({ err: (err as Error).message }, 'revocation cache not updated (kept in the database)');
      await markRevocationCacheIncomplete(redis, prefix).catch(() => {});
    }
  }

  type RebuildResult = { tokens: number; users: number; pruned: number } | 'skipped' | 'redis-down';

  async function rebuildOnce(): Promise<RebuildResult> {
    if (redis.status !== 'ready') return 'redis-down';
    const failuresBefore = failedWrites;
    return db.transaction(async (tx) => {
      if (!(await queries.tryRevocationRebuildLock(tx))) return 'skipped';
      const pruned = await queries.pruneExpiredRevocations(tx);
      const { tokens, bumped, deleted, rightsChanged } = await queries.revocationSnapshot(tx, tokenTtlSeconds);
      const entries: Parameters<typeof pipelineRevocation>[2][] = [
        ...tokens.map((t) => ({ jti: t.jti, exp: t.expiresAt.getTime() / 1000 })),
        ...bumped.map((u) => ({ userId: u.id, version: u.version, ttlSeconds: Number(u.ttl) })),
        ...deleted.map((u) => ({ userId: u.id, version: DELETED_ACCOUNT_VERSION, ttlSeconds: Number(u.ttl) })),
      ];
      // Members whose rights changed within a token lifetime: their current rights.
      for (const id of rightsChanged) {
        const rights = await currentRights(tx, id);
        if (rights) await cacheRights(redis, prefix, id, rights, tokenTtlSeconds);
      }
      for (let i = 0; i < entries.length; i += CHUNK) {
        const pipeline = redis.pipeline();
        for (const entry of entries.slice(i, i + CHUNK)) pipelineRevocation(pipeline, prefix, entry);
        const results = (await pipeline.exec()) ?? [];
        const failed = results.find(([err]) => err);
        if (failed) throw failed[0];
      }
      // A revocation whose cache write failed meanwhile may be missing: leave the sentinel off,
      // readers keep asking the database, and the next round repairs.
      if (failedWrites !== failuresBefore) return 'skipped';
      await markRevocationCacheLoaded(redis, prefix);
      return { tokens: tokens.length, users: bumped.length + deleted.length, pruned };
    });
  }

  /** Rebuilds unless another rebuild runs (here or, through the lock, in another replica). */
  function rebuild(): Promise<RebuildResult> {
    running ??= rebuildOnce().finally(() => {
      running = undefined;
    });
    return running;
  }

  async function rebuildLogged(reason: string) {
    try {
      const result = await rebuild();
      if (typeof result === 'object') log.info({ reason, ...result }, 'revocation cache rebuilt');
      else log.debug({ reason, result }, 'revocation cache not rebuilt');
    } catch (err) {
      log.warn({ reason, err: (err as Error).message }, 'revocation cache rebuild failed');
    }
  }

  return {
    /** After the transaction that recorded a logout. Never throws. */
    tokenRevoked: (jti: string, exp: number) => write(() => cacheRevokedToken(redis, prefix, jti, exp)),
    /** After the transaction that bumped a user's version. Never throws. */
    versionBumped: (userId: string, version: number) =>
      write(() => cacheTokenVersion(redis, prefix, userId, version, tokenTtlSeconds)),
    /** After the transaction that changed these members' rights. Never throws. */
    rightsChanged: async (userIds: string[]) => {
      for (const id of userIds) {
        const rights = await currentRights(db, id).catch(() => undefined);
        if (rights) await write(() => cacheRights(redis, prefix, id, rights, tokenTtlSeconds));
        else await write(() => redis.del(rightsKey(prefix, id)));
      }
    },
    /** After the transaction that deleted an account. Never throws. */
    accountDeleted: (userId: string) =>
      write(() => cacheTokenVersion(redis, prefix, userId, DELETED_ACCOUNT_VERSION, tokenTtlSeconds)),
    rebuild,
    /**
     * Rebuilds now (or as soon as Redis answers), after every Redis (re)connection, when the
     * sentinel is found missing, and every `refreshSeconds`. Returns the stopper.
     */
    start() {
      const onReady = () => void rebuildLogged('redis connected');
      redis.on('ready', onReady);
      if (redis.status === 'ready') onReady();
      const refresh = setInterval(() => void rebuildLogged('periodic'), options.refreshSeconds * 1000);
      const probe = setInterval(
        async () => {
          if (redis.status !== 'ready' || running) return;
          const present = await redis.exists(revocationLoadedKey(prefix)).catch(() => 1);
          if (!present) await rebuildLogged('sentinel missing');
        },
        (options.probeSeconds ?? 5) * 1000,
      );
      refresh.unref();
      probe.unref();
      return async () => {
        redis.off('ready', onReady);
        clearInterval(refresh);
        clearInterval(probe);
        await running?.catch(() => {});
      };
    },
  };
}
export type RevocationCache = ReturnType<typeof createRevocationCache>;
