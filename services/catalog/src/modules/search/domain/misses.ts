import { type Db, deleteOlderThan, type HousekeepingTask, libreville } from '@cartable/service-kit';
import type { Logger } from 'pino';
import { recordMisses } from '../db/queries.ts';

/** How long a day of search misses is kept. */
export const SEARCH_MISS_RETENTION_DAYS = 180;
export const searchMissRetention: HousekeepingTask = {
  name: 'search_misses',
  run: deleteOlderThan('search_misses', 'day', SEARCH_MISS_RETENTION_DAYS),
};

const MAX_QUERY = 100;

/** The text as people type it, comparable: lower case, single spaces, bounded. */
export function normaliseSearch(text: string): string {
  return text.toLocaleLowerCase('fr').replace(/\s+/g, ' ').trim().slice(0, MAX_QUERY);
}

/** Texts waiting to be written at most: past it (a flood of distinct texts), new ones are not counted. */
const MAX_PENDING = 10_000;

/**
 * Notes the catalogue searches that found nothing, for the Rapports screen (what parents look
 * for and nobody sells). Only searches with a text count: filters alone say nothing of what is
 * sought. Off the answer's path, and never more than one statement at a time: searches that
 * come while one is written are added up in memory and written together next, so a flood of
 * searches in vain costs one connection, not one upsert of the same row each.
 */
export function createMissRecorder(db: Db, log: Pick<Logger, 'warn'>) {
  const pending = new Map<string, { day: string; query: string; categoryId: number; searches: number }>();
  let writing: Promise<void> | null = null;

  async function drain() {
    while (pending.size) {
      const batch = [...pending.values()];
      pending.clear();
      await recordMisses(db, batch).catch((err: unknown) => log.warn({ err }, 'search misses not recorded'));
    }
  }
  function write() {
    writing ??= drain().finally(() => {
      writing = null;
      if (pending.size) write();
    });
  }

  return {
    record(text: string | undefined, categoryIds: number[] = []) {
      const query = normaliseSearch(text ?? '');
      if (query.length < 2) return;
      const day = libreville();
      const categoryId = categoryIds[0] ?? 0;
      const key = `${day}\u0000${categoryId}\u0000${query}`;
      const entry = pending.get(key);
      if (entry) entry.searches++;
      else if (pending.size < MAX_PENDING) pending.set(key, { day, query, categoryId, searches: 1 });
      write();
    },
    /** Waits for what is being written (shutdown, tests). */
    async flush() {
      while (writing) await writing;
    },
  };
}
export type MissRecorder = ReturnType<typeof createMissRecorder>;
