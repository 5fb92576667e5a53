import { fileURLToPath } from 'node:url';
import { testDatabase } from '@cartable/stack/databases';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase, startHousekeeping } from '../src/index.ts';

const migrationsFolder = fileURLToPath(new URL('./fixtures/drizzle', import.meta.url));

describe('housekeeping', () => {
  it("runs past the requests' statement timeout, which would cancel a large deletion every round", async () => {
    const target = await testDatabase('housekeeping');
    const database = await openDatabase({
      name: 'housekeeping',
      url: target.url,
      dataDir: target.dataDir,
      schema: {},
      migrationsFolder,
      statementTimeoutMs: 100,
    });
    try {
      // A request's statement is cancelled past the timeout…
      await expect(database.db.execute(sql`select pg_sleep(0.3)`)).rejects.toThrow();
      const failures: unknown[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => failures.push(line) });
      const housekeeping = startHousekeeping({
        db: database.db,
        log,
        tasks: [
          {
            name: 'slow',
            run: async (db) => {
              await db.execute(sql`select pg_sleep(0.3)`);
              return 0;
            },
          },
        ],
      });
      // …a clean-up's is not.
      await housekeeping.runNow();
      await housekeeping.stop();
      expect(failures).toEqual([]);
    } finally {
      await database.close();
      await target.drop();
    }
  });
});
