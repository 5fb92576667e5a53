import { unprocessable } from '@cartable/service-kit';
import type { LotSource } from '../../listings/index.ts';
import * as queries from '../db/queries.ts';

const UNKNOWN_ITEM = 'Ce manuel ne fait partie d’aucune liste de classe publiée';
const MIXED_LISTS = 'Les manuels d’un lot viennent d’une même liste de classe';

/**
 * The books a lot is made of (one listing holding several books of a class list, found by each
 * of them): all of one published list, in its order, or a 422. Listings copies them when the lot
 * is listed, so a later edit of the list does not change what was sold.
 */
export const classListLots: LotSource = {
  async resolve(db, itemIds) {
    const ids = [...new Set(itemIds)];
    const rows = await queries.publishedItems(db, ids);
    if (rows.length !== ids.length) throw unprocessable({ lot_items: [UNKNOWN_ITEM] });
    if (new Set(rows.map((r) => r.item.listId)).size > 1) throw unprocessable({ lot_items: [MIXED_LISTS] });
    return {
      levelId: rows[0]!.levelId,
      items: rows.map(({ item }) => ({
        classListItemId: item.id,
        title: item.title,
        author: item.author,
        publisher: item.publisher,
        year: item.year,
        isbn: item.isbn,
        subjectId: item.subjectId,
      })),
    };
  },
};
