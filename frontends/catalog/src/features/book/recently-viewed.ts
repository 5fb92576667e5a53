import type { Id } from '../../shared/books';
import { createIdListStore } from '../../shared/storage';

/* Recently viewed (SPEC sections 2 and 9): at most 10 ids, newest first, no duplicates. */
const recentStore = createIdListStore('recentlyViewedBooks');
export const RECENTLY_VIEWED_MAX = 10;

export function rememberViewed(id: Id) {
  const rest = recentStore.read().filter((v) => String(v) !== String(id));
  recentStore.write([id, ...rest].slice(0, RECENTLY_VIEWED_MAX));
}
