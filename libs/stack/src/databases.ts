import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabases, databaseUrl, dropDatabases } from './infrastructure.ts';

/** The machine's PostgreSQL, where tests create databases of their own. */
export const TEST_PG = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database and a data folder of their own, with a unique id for Redis keys and streams. */
export async function testDatabase(service: string) {
  const id = `t${randomBytes(4).toString('hex')}`;
  const name = `cartable_${id}_${service}`;
  await createDatabases(TEST_PG, [name]);
  const dataDir = mkdtempSync(join(tmpdir(), `cartable-${service}-${id}-`));
  return {
    id,
    url: databaseUrl(TEST_PG, name),
    dataDir,
    async drop() {
      await dropDatabases(TEST_PG, [name]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
