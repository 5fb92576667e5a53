import { BASKET_HOLD_HOURS, type EventData } from '@cartable/contracts';
import type { Storage, Transaction, UnitOfWork } from '@cartable/service-kit';
import { changeStatus, lockListing } from '../../listings/index.ts';
import { insertHold, removeExpiredHolds, removeHold } from '../db/holds.ts';
import { savedListMisses } from '../db/versions.ts';

type Deal = EventData<'catalog.transaction.proposed'>;

/** The listing back on offer, unless someone else changed its status meanwhile (sold, or the seller's own choice). */
async function release(t: Transaction, storage: Storage, bookId: number) {
  const book = await lockListing(t.db, bookId);
  if (book?.status === 'réservé') await changeStatus(t, storage, book, 'disponible');
}

/**
 * A seller who proposes a deal to a family for a book their saved list misses has accepted them:
 * the listing is « Réservé » for them for BASKET_HOLD_HOURS, in the deal's transaction, and offered
 * again when the deal is declined or cancelled, or past that time (`releaseExpiredHolds`); a deal
 * confirmed sells it. A listing the seller had already reserved or withdrawn is left as it is.
 */
export function holdForFamilies(uow: UnitOfWork, storage: Storage) {
  uow.react('catalog.transaction.proposed', async (t, { data }) => {
    if (!(await savedListMisses(t.db, data.buyer_id, data.book_id))) return;
    const book = await lockListing(t.db, data.book_id);
    if (book?.status !== 'disponible') return;
    await changeStatus(t, storage, book, 'réservé');
    await insertHold(t.db, {
      dealId: data.transaction_id,
      bookId: book.id,
      userId: data.buyer_id,
      until: new Date(Date.now() + BASKET_HOLD_HOURS * 3600_000),
    });
  });
  const ended = async (t: Transaction, data: Deal, sold: boolean) => {
    const hold = await removeHold(t.db, data.transaction_id);
    if (hold && !sold) await release(t, storage, hold.bookId);
  };
  uow.react('catalog.transaction.declined', (t, { data }) => ended(t, data, false));
  uow.react('catalog.transaction.cancelled', (t, { data }) => ended(t, data, false));
  uow.react('catalog.transaction.confirmed', (t, { data }) => ended(t, data, true));
}

/** Offers again the listings whose hold has run out (the deal may still be confirmed if the book is there). */
export async function releaseExpiredHolds(uow: UnitOfWork, storage: Storage, now = new Date()) {
  return uow.run(async (t) => {
    const expired = await removeExpiredHolds(t.db, now);
    for (const hold of expired) await release(t, storage, hold.bookId);
    return expired.length;
  });
}
