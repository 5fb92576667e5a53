import type { Storage, UnitOfWork } from '@cartable/service-kit';
import type { CategoryStore } from '../taxonomy/index.ts';
import { classListAdmin } from './domain/admin.ts';
import { alertFamilies } from './domain/alerts.ts';
import type { ExchangeWishes } from './domain/baskets.ts';
import { listCoverage } from './domain/coverage.ts';
import { followDeals } from './domain/deals-followed.ts';
import { holdForFamilies, releaseExpiredHolds } from './domain/holds.ts';
import { importItems } from './domain/import.ts';
import { classListBooks, proposeList, reviewList } from './domain/lists.ts';
import { familyLists } from './domain/saved.ts';

/**
 * The class lists module's services, built once per process and handed to its routes. It reacts
 * to listings' events in their transactions: a listing published, or available again after a
 * reservation fell through, alerts the families whose saved list misses it; a deal proposed to a
 * family for such a book holds the listing for them; a deal confirmed marks the book received in
 * the receiver's lists.
 */
export function createClassLists(options: {
  uow: UnitOfWork;
  storage: Storage;
  categories: CategoryStore;
  /** The exchanges module's wishes: swaps in « Compléter ma liste ». */
  exchangeWishes?: ExchangeWishes;
}) {
  const { uow, categories } = options;
  uow.react('catalog.book.created', async (t, { data }) => {
    await alertFamilies(t, data.book_id);
  });
  uow.react('catalog.book.status_changed', async (t, { data }) => {
    if (data.status === 'disponible' && data.previous_status !== 'disponible') await alertFamilies(t, data.book_id);
  });
  followDeals(uow);
  holdForFamilies(uow, options.storage);
  const books = classListBooks(uow.db, categories);
  return {
    books,
    families: familyLists(uow, options.storage, books, options.exchangeWishes),
    propose: proposeList(uow, books),
    review: reviewList(uow, books),
    admin: classListAdmin(uow, books),
    coverage: listCoverage(uow.db, { wishes: options.exchangeWishes }),
    /** Offers again the listings held for families past their time. */
    releaseExpiredHolds: (now?: Date) => releaseExpiredHolds(uow, options.storage, now),
    importCsv: async (listId: number, csv: Buffer, dryRun: boolean) => {
      const row = await books.listOrNotFound(listId);
      return importItems(uow, await categories.view(), row.id, csv, dryRun);
    },
  };
}
export type ClassLists = ReturnType<typeof createClassLists>;
