import type { Db } from '@cartable/service-kit';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { books } from '../db/schema.ts';

/**
 * Views counted in memory and written every few seconds in one statement: a popular book seen
 * by fifty people at once would otherwise queue fifty updates on the same row.
 */
export function createViewCounter(db: Db, log: Logger, flushMs = 5000) {
  let pending = new Map<number, number>();

  async function flush() {
    if (!pending.size) return;
    const batch = pending;
    pending = new Map();
    const rows = [...batch].map(([id, n]) => sql`(${id}::int, ${n}::int)`);
    try {
      await db.execute(
        sql`update ${books} set views = ${books.views} + v.n from (values ${sql.join(rows, sql`, `)}) as v(id, n) where ${books.id} = v.id`,
      );
    } catch (err) {
      // Lost view counts are not worth failing for; popularity is an estimate.
      log.warn({ err, books: batch.size }, 'view counts not written');
    }
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();
  return {
    add(bookId: number) {
      pending.set(bookId, (pending.get(bookId) ?? 0) + 1);
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
export type ViewCounter = ReturnType<typeof createViewCounter>;
