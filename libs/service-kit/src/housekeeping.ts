import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from './db/database.ts';

/** A periodic clean-up: deletes what only grows; returns how many rows went. */
export interface HousekeepingTask {
  name: string;
  run: (db: Db) => Promise<number>;
}

/** `delete from <table> where <column> < now() - <days> days`, returning the count. */
export function deleteOlderThan(table: string, column: string, days: number) {
  return async (db: Db): Promise<number> => {
    const result = await db.execute(
      sql`delete from ${sql.identifier(table)} where ${sql.identifier(column)} < now() - make_interval(days => ${days})`,
    );
    return (result as { rowCount?: number | null }).rowCount ?? 0;
  };
}

/**
 * Runs every task shortly after start, then every `intervalMs`. Deletions are idempotent, so
 * replicas may run them side by side; a failure (database away) waits for the next round.
 */
export function startHousekeeping({
  db,
  log,
  tasks,
  intervalMs = 3600_000,
}: {
  db: Db;
  log: Logger;
  tasks: HousekeepingTask[];
  intervalMs?: number;
}) {
  let running: Promise<void> | undefined;
  async function runAll() {
    for (const task of tasks) {
      try {
        // A request's statement_timeout does not fit a deletion of a month of rows: without
        // it, a table grown large would be cancelled every round and never shrink again.
        const removed = await db.transaction(async (tx) => {
          await tx.execute(sql`set local statement_timeout = 0`);
          return task.run(tx);
        });
        if (removed > 0) log.info({ task: task.name, removed }, 'housekeeping');
      } catch (err) {
        log.warn({ err, task: task.name }, 'housekeeping failed; next round will retry');
      }
    }
  }
  const tick = () => {
    running ??= runAll().finally(() => {
      running = undefined;
    });
  };
  const first = setTimeout(tick, 30_000);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return {
    /** Runs every task now (tests, and an operator's command). */
    runNow: () => runAll(),
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
