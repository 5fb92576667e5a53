import { fileURLToPath } from 'node:url';
import { TEST_PG, testDatabase } from '@cartable/stack/databases';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type Db, openDatabase, openInfrastructure } from '../src/index.ts';

const migrationsFolder = fileURLToPath(new URL('./fixtures/drizzle', import.meta.url));

describe('start-up of several replicas', () => {
  it('migrates and seeds once when three replicas start together', async () => {
    const target = await testDatabase('replicas');
    const runs: number[] = [];
    // A seed that checks then writes, with a pause in between: without the lock, every
    // replica would see an empty table and insert.
    const seed = async (db: Db) => {
      await db.execute(sql`create table if not exists seeded (n int)`);
      const { rows } = (await db.execute(sql`select count(*)::int as n from seeded`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      runs.push(rows[0]?.n ?? -1);
      if (rows[0]?.n === 0) {
        await new Promise((r) => setTimeout(r, 200));
        await db.execute(sql`insert into seeded values (1)`);
      }
    };
    try {
      const opened = await Promise.all(
        [1, 2, 3].map(() =>
          openDatabase({
            name: 'replicas',
            url: target.url,
            dataDir: target.dataDir,
            schema: {},
            migrationsFolder,
            seed,
          }),
        ),
      );
      const { rows } = (await opened[0]!.db.execute(sql`select count(*)::int as n from seeded`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      expect(rows[0]?.n).toBe(1);
      expect(runs.sort()).toEqual([0, 1, 1]);
      await Promise.all(opened.map((d) => d.close()));
    } finally {
      await target.drop();
    }
  });

  it('refuses to start on the embedded database in production', async () => {
    await expect(
      openInfrastructure({
        name: 'catalog',
        config: {
          NODE_ENV: 'production',
          DATA_DIR: '/tmp/none',
        } as never,
        log: pino({ level: 'silent' }),
        databaseUrl: undefined,
        schema: {},
        migrationsFolder,
      }),
    ).rejects.toThrow('CATALOG_DATABASE_URL: obligatoire en production');
  });

  it('waits for a database that refuses connections at start-up, then opens it', async () => {
    const target = await testDatabase('late');
    const name = new URL(target.url).pathname.slice(1);
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: TEST_PG });
      await client.connect();
      await client.query(query).finally(() => client.end());
    };
    await admin(`alter database "${name}" with allow_connections false`);
    const retries: number[] = [];
    try {
      const opening = openDatabase({
        name: 'late',
        url: target.url,
        dataDir: target.dataDir,
        schema: {},
        migrationsFolder,
        onRetry: (_err, attempt) => retries.push(attempt),
      });
      // It keeps trying while refused (it would have thrown at the first attempt before).
      while (retries.length < 2) await new Promise((r) => setTimeout(r, 50));
      await admin(`alter database "${name}" with allow_connections true`);
      const database = await opening;
      await database.ping();
      await database.close();
      expect(retries.slice(0, 2)).toEqual([1, 2]);
    } finally {
      await admin(`alter database "${name}" with allow_connections true`);
      await target.drop();
    }
  });
});
