import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';

export type Db<TSchema extends Record<string, unknown> = Record<string, unknown>> = PgDatabase<
  PgQueryResultHKT,
  TSchema
>;

/** The rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
export const rowsOf = async <T>(db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface Database<TSchema extends Record<string, unknown>> {
  db: Db<TSchema>;
  /** 'postgres' when a URL was given, 'pglite' for the embedded fallback. */
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions<TSchema extends Record<string, unknown>> {
  /** Service name: the PGlite folder is `<dataDir>/<name>/pglite`. */
  name: string;
  url?: string | undefined;
  dataDir: string;
  schema: TSchema;
  /** Folder of drizzle-kit migrations, applied before the service answers. */
  migrationsFolder: string;
  poolSize?: number;
  /**
   * Each session's lock_timeout and statement_timeout (ms; 0 = none): a request waiting on a lock
   * held elsewhere, or a statement gone astray, fails fast instead of holding its connection.
   */
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** How long a request waits for a connection (a new one or a free one of the pool), in ms. */
  connectTimeoutMs?: number;
  /** Told of each failed first connection, before the next attempt. */
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
  /** Run after the migrations, under the same lock (reference and demo data). */
  seed?: (db: Db<TSchema>) => Promise<void>;
  /**
   * PostgreSQL extensions the migrations create (unaccent, pg_trgm…): a server has them
   * installed; PGlite loads them from its contrib modules, given here.
   */
  pgliteExtensions?: Record<string, unknown>;
}

/**
 * The first connection, retried with backoff (0.5 s doubling to 30 s) for as long as it takes:
 * a service started before its database, or while PostgreSQL restarts, waits for it instead of
 * exiting (and being restarted in a loop by its supervisor).
 */
async function connectWithRetry(pool: pg.Pool, onRetry: DatabaseOptions<never>['onRetry']): Promise<pg.PoolClient> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.connect();
    } catch (err) {
      // A refused password or a missing database will not come right by waiting.
      const code = (err as { code?: string }).code;
      if (code === '28P01' || code === '28000' || code === '3D000') throw err;
      const delay = Math.min(30_000, 500 * 2 ** Math.min(attempt - 1, 6));
      onRetry?.(err, attempt, delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * A second pool on a database the service already opened, for one kind of read with limits of
 * its own: its own connections (a flood of it cannot take those that writes and the other pages
 * need: a bulkhead) and its own statement timeout. No migration: the service's pool ran them.
 */
export function openReadPool<TSchema extends Record<string, unknown>>(options: {
  url: string;
  schema: TSchema;
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs?: number;
}): { db: Db<TSchema>; close(): Promise<void> } {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    keepAlive: true,
    statement_timeout: options.statementTimeoutMs,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return { db: drizzlePg(pool, { schema: options.schema }) as unknown as Db<TSchema>, close: () => pool.end() };
}

/** Same key for every replica of a service: one of them migrates and seeds, the others wait. */
const migrationLockKey = (name: string) => `cartable:migrate:${name}`;

/**
 * Opens the service's own database: node-postgres when a URL is set, embedded PGlite
 * otherwise (same schema, same migrations), and applies pending migrations, then the seeds.
 * With PostgreSQL both run under a session advisory lock, so replicas starting together (a
 * rollout, an HPA scale-up) never migrate or seed side by side.
 */
export async function openDatabase<TSchema extends Record<string, unknown>>(
  options: DatabaseOptions<TSchema>,
): Promise<Database<TSchema>> {
  if (options.url) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      keepAlive: true,
      ...(options.lockTimeoutMs ? { lock_timeout: options.lockTimeoutMs } : {}),
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => {});
    // Nor one checked out between two statements (a transaction waiting on NATS, a handler's
    // other work): node-postgres emits 'error' on it with no listener, which Node turns into an
    // uncaught exception. Its next statement fails with the cause, and the pool drops it.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema: options.schema });
    const lock = await connectWithRetry(pool, options.onRetry);
    try {
      // A migration may rightly take longer than a request may (an index built, a table rewritten).
      await lock.query('set lock_timeout = 0; set statement_timeout = 0');
      await lock.query('select pg_advisory_lock(hashtext($1))', [migrationLockKey(options.name)]);
      await migratePg(drizzlePg(lock, { schema: options.schema }), { migrationsFolder: options.migrationsFolder });
      await options.seed?.(db as unknown as Db<TSchema>);
    } finally {
      await lock.query('select pg_advisory_unlock(hashtext($1))', [migrationLockKey(options.name)]).catch(() => {});
      // Closed, not returned to the pool: it predates settings the migrations give new sessions
      // (ALTER DATABASE … SET).
      lock.release(true);
    }
    return {
      db: db as unknown as Db<TSchema>,
      kind: 'postgres',
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }
  const dir = join(options.dataDir, options.name, 'pglite');
  mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, {
    extensions: (options.pgliteExtensions ?? {}) as NonNullable<Parameters<typeof PGlite.create>[1]>['extensions'],
  });
  const db = drizzlePglite(client, { schema: options.schema });
  await migratePglite(db, { migrationsFolder: options.migrationsFolder });
  await options.seed?.(db as unknown as Db<TSchema>);
  return {
    db: db as unknown as Db<TSchema>,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
  };
}
