import { type Db, deleteOlderThan, type HousekeepingTask, libreville } from '@cartable/service-kit';
import { recordMiss } from '../db/queries.ts';

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

/**
 * Notes a catalogue search that found nothing, for the Rapports screen (what parents look for
 * and nobody sells). Only searches with a text count: filters alone say nothing of what is sought.
 */
export async function recordSearchMiss(db: Db, text: string | undefined, categoryIds: number[] = []) {
  const query = normaliseSearch(text ?? '');
  if (query.length < 2) return;
  await recordMiss(db, libreville(), query, categoryIds[0] ?? 0);
}
