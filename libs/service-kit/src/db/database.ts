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
  /** Run after the migrations, under the same lock (reference and demo data). */
  seed?: (db: Db<TSchema>) => Promise<void>;
  /**
   * PostgreSQL extensions the migrations create (unaccent, pg_trgm…): a server has them
   * installed; PGlite loads them from its contrib modules, given here.
   */
  pgliteExtensions?: Record<string, unknown>;
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
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema: options.schema });
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock(hashtext($1))', [migrationLockKey(options.name)]);
      await migratePg(db, { migrationsFolder: options.migrationsFolder });
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
