import type { Transaction } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import { matchFound } from '../events.ts';
import { proximityOf } from './availability.ts';

/**
 * A listing was published, or is available again after a reservation fell through (its event,
 * in its transaction): every saved list missing a book it matches exactly, near the member, gets
 * catalog.class_list.match_found, once per (saved list, item, listing): the alert's row is
 * written first and the event only when it was new.
 */
export async function alertFamilies(t: Transaction, bookId: number) {
  const written = await queries.writeAlertsFor(t.db, bookId);
  const at = new Date().toISOString();
  for (const r of written) {
    await matchFound(t, {
      user_id: r.user_id,
      list: {
        id: Number(r.list_id),
        school_year: r.school_year,
        level_name: r.level_name ?? '',
        school_name: r.school_name,
      },
      item: { id: Number(r.item_id), title: r.item_title },
      book: {
        id: bookId,
        title: r.book_title,
        price: Number(r.book_price),
        is_exchange_possible: r.book_exchange,
        city_name: r.book_city_name,
      },
      city: r.saved_city_id ? { id: Number(r.saved_city_id), name: r.saved_city_name ?? '' } : null,
      proximity: proximityOf[Number(r.prox)] ?? 'elsewhere',
      match: r.match,
      at,
    });
  }
  return written.length;
}
