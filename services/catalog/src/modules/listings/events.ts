import type { BookModerationAction, BookStatus } from '@cartable/contracts';
import type { Storage, Transaction } from '@cartable/service-kit';
import { eventSnapshot, type ListingRow } from './db/queries.ts';

/**
 * What every other service (and module) reads about a listing: the row as this transaction
 * leaves it (read after the change, under its row lock), with its version and first thumbnail.
 */
async function snapshot(t: Transaction, storage: Storage, bookId: number, deleted = false) {
  const found = await eventSnapshot(t.db, bookId);
  if (!found) throw new Error(`book ${bookId} not found for its event`);
  const { book, firstThumbnailKey } = found;
  return {
    book_id: book.id,
    user_id: book.userId,
    title: book.title,
    price: book.price,
    status: book.status,
    city_id: book.cityId,
    category_ids: [...new Set(book.categoryIds)],
    thumbnail: firstThumbnailKey ? storage.url(firstThumbnailKey) : null,
    // A deletion is recorded before the row goes, with the version one more than the last change.
    version: deleted ? book.version + 1 : book.version,
    occurred_at: new Date().toISOString(),
  };
}

export async function listingCreated(t: Transaction, storage: Storage, bookId: number) {
  return t.record('catalog.book.created', await snapshot(t, storage, bookId));
}

/** `previousPrice`: a member's edit (a price drop reaches those who favoured it). */
export async function listingUpdated(t: Transaction, storage: Storage, bookId: number, previousPrice?: number) {
  const data = await snapshot(t, storage, bookId);
  return t.record(
    'catalog.book.updated',
    previousPrice === undefined ? data : { ...data, previous_price: previousPrice },
  );
}

export async function listingStatusChanged(t: Transaction, storage: Storage, bookId: number, previous: BookStatus) {
  return t.record('catalog.book.status_changed', {
    ...(await snapshot(t, storage, bookId)),
    previous_status: previous,
  });
}

/** Recorded before the row is deleted, in the same transaction. */
export async function listingDeleted(t: Transaction, storage: Storage, bookId: number) {
  return t.record('catalog.book.deleted', await snapshot(t, storage, bookId, true));
}

/** A moderator's action: the owner is told by e-mail, with the reason. */
export function listingModerated(
  t: Transaction,
  book: Pick<ListingRow, 'id' | 'userId' | 'title'>,
  action: BookModerationAction,
  moderatorId: string,
  reason: string | null,
  status?: string,
) {
  return t.record('catalog.book.moderated', {
    book_id: book.id,
    owner_id: book.userId,
    title: book.title,
    action,
    ...(status ? { status } : {}),
    reason,
    moderator_id: moderatorId,
    at: new Date().toISOString(),
  });
}

/** A report's decision applied (or found done, or its listing gone): moderation closes the reports. */
export function reportApplied(t: Transaction, reportIds: string[], outcome: 'applied' | 'already' | 'gone') {
  return t.record('catalog.report.applied', { report_ids: reportIds, outcome });
}

/** Every event of a listing's life: what the listing caches depend on. */
export const LISTING_EVENTS = [
  'catalog.book.created',
  'catalog.book.updated',
  'catalog.book.status_changed',
  'catalog.book.deleted',
  'catalog.book.moderated',
] as const;
