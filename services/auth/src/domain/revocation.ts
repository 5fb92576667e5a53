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
  withRights,
} from '@cartable/service-kit';
import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { revokedTokens, revokedUsers, users } from '../db/schema.ts';
import { claimsFor, toUserDto } from './users.ts';

/**
 * Token revocation. The database is the source of truth: revoked token ids (logout), users'
 * token versions (bumped to refuse every older token) and deleted accounts. Each change is
 * written there first, in the transaction of the change that causes it; Redis is then updated
 * as a cache for the gateway (libs/service-kit/src/revocation.ts), and rebuilt from here.
 */

// ── the source of truth, written in the caller's transaction ──────────────────────────────

/** Logout: this token is refused until it expires. */
export async function recordRevokedToken(tx: Db, claims: { jti: string; sub: string; exp: number }) {
  await tx
    .insert(revokedTokens)
    .values({ jti: claims.jti, userId: claims.sub, expiresAt: new Date(claims.exp * 1000) })
    .onConflictDoNothing();
}

/** Every token these users hold now is refused: their versions go up, in one statement. Returns the updated rows. */
export async function bumpTokenVersions(tx: Db, userIds: string[]) {
  if (!userIds.length) return [];
  return tx
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, tokenVersionChangedAt: sql`now()` })
    .where(inArray(users.id, [...new Set(userIds)]))
    .returning();
}

/** Account deletion: the user row goes, so every token of the user is refused by this row. */
export async function recordDeletedAccount(tx: Db, userId: string, tokenTtlSeconds: number) {
  const expiresAt = sql`now() + make_interval(secs => ${tokenTtlSeconds})`;
  await tx
    .insert(revokedUsers)
    .values({ userId, expiresAt })
    .onConflictDoUpdate({ target: revokedUsers.userId, set: { expiresAt } });
}

/** What the database says of a token whose signature is valid: refused or not. One query. */
export async function isRevokedInDatabase(db: Db, claims: { jti: string; sub: string; ver: number }) {
  const [row] = await db
    .select({
      revokedToken: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${claims.jti})`,
      deleted: sql<boolean>`exists (select 1 from ${revokedUsers} where ${revokedUsers.userId} = ${claims.sub})`,
      version: sql<number | null>`(select ${users.tokenVersion} from ${users} where ${users.id} = ${claims.sub})`,
    })
    .from(sql`(select 1) as one`);
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
  const [row] = await db.select().from(users).where(eq(users.id, userId));
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

/** Same key for every replica: one rebuilds at a time, the others skip. */
const REBUILD_LOCK = sql`hashtext('cartable:revocation-cache')`;
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
      const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(${REBUILD_LOCK}) as locked`);
      if (!(lock as unknown as { rows: Array<{ locked: boolean }> }).rows[0]?.locked) return 'skipped';
      const pruned = [
        ...(await tx
          .delete(revokedTokens)
          .where(lt(revokedTokens.expiresAt, sql`now()`))
          .returning({ jti: revokedTokens.jti })),
        ...(await tx
          .delete(revokedUsers)
          .where(lt(revokedUsers.expiresAt, sql`now()`))
          .returning({ id: revokedUsers.userId })),
      ].length;
      const tokens = await tx
        .select({ jti: revokedTokens.jti, expiresAt: revokedTokens.expiresAt })
        .from(revokedTokens);
      const bumped = await tx
        .select({
          id: users.id,
          version: users.tokenVersion,
          ttl: sql<number>`extract(epoch from coalesce(${users.tokenVersionChangedAt}, now()) + make_interval(secs => ${tokenTtlSeconds}) - now())`,
        })
        .from(users)
        .where(
          and(
            gt(users.tokenVersion, 0),
            // A bump older than a token lifetime refuses nothing that has not expired already.
            or(
              isNull(users.tokenVersionChangedAt),
              gt(users.tokenVersionChangedAt, sql`now() - make_interval(secs => ${tokenTtlSeconds})`),
            ),
          ),
        );
      const deleted = await tx
        .select({
          id: revokedUsers.userId,
          ttl: sql<number>`extract(epoch from ${revokedUsers.expiresAt} - now())`,
        })
        .from(revokedUsers);
      const entries: Parameters<typeof pipelineRevocation>[2][] = [
        ...tokens.map((t) => ({ jti: t.jti, exp: t.expiresAt.getTime() / 1000 })),
        ...bumped.map((u) => ({ userId: u.id, version: u.version, ttlSeconds: Number(u.ttl) })),
        ...deleted.map((u) => ({ userId: u.id, version: DELETED_ACCOUNT_VERSION, ttlSeconds: Number(u.ttl) })),
      ];
      // Members whose rights changed within a token lifetime: their current rights.
      const changed = await tx
        .select({ id: users.id })
        .from(users)
        .where(gt(users.rightsChangedAt, sql`now() - make_interval(secs => ${tokenTtlSeconds})`));
      for (const { id } of changed) {
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
