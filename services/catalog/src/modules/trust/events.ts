import type { EventData } from '@cartable/contracts';
import type { Transaction } from '@cartable/service-kit';
import type { TransactionRow } from './db/queries.ts';

type DealEventType =
  | 'catalog.transaction.proposed'
  | 'catalog.transaction.confirmed'
  | 'catalog.transaction.declined'
  | 'catalog.transaction.cancelled';

/** Every catalog.transaction.* event: the deal as the transaction leaves it. */
export function dealChanged(t: Transaction, type: DealEventType, deal: TransactionRow) {
  return t.record(type, {
    transaction_id: deal.id,
    book_id: deal.bookId,
    book_title: deal.bookTitle,
    kind: deal.kind,
    price: deal.price,
    exchange_book_id: deal.exchangeBookId,
    exchange_book_title: deal.exchangeBookTitle,
    seller_id: deal.sellerId,
    buyer_id: deal.buyerId,
    status: deal.status,
    cancelled_by: deal.cancelledBy,
    at: deal.updatedAt.toISOString(),
  });
}

/** A member's rating aggregate after a review was written or edited; `version` grows at each change. */
export function sellerRated(
  t: Transaction,
  userId: string,
  rating: { average: number; count: number },
  version: number,
  review?: EventData<'catalog.seller.rated'>['review'],
) {
  return t.record('catalog.seller.rated', {
    user_id: userId,
    average: rating.average,
    count: rating.count,
    version,
    ...(review ? { review } : {}),
  });
}

/** From which notifications knows whom to tell when a listing changes. */
export function favouriteChanged(
  t: Transaction,
  added: boolean,
  userId: string,
  bookId: number,
  at = new Date().toISOString(),
) {
  return t.record(added ? 'catalog.favourite.added' : 'catalog.favourite.removed', {
    user_id: userId,
    book_id: bookId,
    at,
  });
}
