import type { UnitOfWork } from '@cartable/service-kit';
import { markOwnedByListing } from '../db/versions.ts';

/**
 * A family's list follows its deals to their end: when a deal is confirmed, the book received
 * (the buyer's; in an exchange, the seller's too) is marked owned in the lists its receiver saved,
 * in the deal's transaction, so « Ma liste » and « Compléter ma liste » no longer ask for it.
 */
export function followDeals(uow: UnitOfWork) {
  uow.react('catalog.transaction.confirmed', async (t, { data }) => {
    await markOwnedByListing(t.db, data.buyer_id, data.book_id);
    if (data.exchange_book_id) await markOwnedByListing(t.db, data.seller_id, data.exchange_book_id);
  });
}
