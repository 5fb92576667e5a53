import type { EventData } from '@cartable/contracts';
import type { Transaction } from '@cartable/service-kit';

/** A member's saved search stops alerting (unsubscribed from an e-mail, paused, or deleted). */
export function savedSearchStopped(
  t: Transaction,
  row: { id: number; userId: string },
  reason: 'unsubscribed' | 'paused' | 'deleted',
) {
  return t.record('catalog.saved_search.stopped', {
    saved_search_id: row.id,
    user_id: row.userId,
    reason,
    at: new Date().toISOString(),
  });
}

/** A listing answered these saved searches (one event each, written in one insert). */
export function savedSearchesMatched(t: Transaction, matches: Array<EventData<'catalog.saved_search.matched'>>) {
  return t.recordAll('catalog.saved_search.matched', matches);
}
