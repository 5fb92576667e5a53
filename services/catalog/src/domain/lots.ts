import type { Book } from '@cartable/contracts';
import { type Db, unprocessable } from '@cartable/service-kit';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { bookLotItems, classListItems, classLists } from '../db/schema.ts';
import type { CategoryView } from '../modules/taxonomy/domain/category-store.ts';

/**
 * Lots (issue 15 item 3): one listing holding several books of a class list, found by each of
 * them. The books are copied from the list when the lot is listed; the search reads them through
 * the listing's `lot_titles` and `lot_authors`, « Ma liste » and its alerts through the rows'
 * title and ISBN keys.
 */

export interface LotContent {
  levelId: number;
  items: Array<typeof classListItems.$inferSelect>;
}

const UNKNOWN_ITEM = 'Ce manuel ne fait partie d’aucune liste de classe publiée';
const MIXED_LISTS = 'Les manuels d’un lot viennent d’une même liste de classe';

/** The class list books a lot names, in their list's order: all of one published list, or a 422. */
export async function resolveLot(db: Db, itemIds: number[]): Promise<LotContent> {
  const ids = [...new Set(itemIds)];
  const rows = await db
    .select({ item: classListItems, levelId: classLists.levelId })
    .from(classListItems)
    .innerJoin(classLists, eq(classLists.id, classListItems.listId))
    .where(and(inArray(classListItems.id, ids), eq(classLists.status, 'published')))
    .orderBy(asc(classListItems.position), asc(classListItems.id));
  if (rows.length !== ids.length) throw unprocessable({ lot_items: [UNKNOWN_ITEM] });
  if (new Set(rows.map((r) => r.item.listId)).size > 1) throw unprocessable({ lot_items: [MIXED_LISTS] });
  return { levelId: rows[0]!.levelId, items: rows.map((r) => r.item) };
}

/** The listing's columns a lot sets: what its search vector reads, and its level and subjects among its categories. */
export function lotColumns(lot: LotContent, categoryIds: number[]) {
  const subjects = lot.items.map((i) => i.subjectId).filter((id): id is number => id !== null);
  return {
    lotTitles: lot.items.map((i) => [i.title, i.isbn].filter(Boolean).join(' ')).join(' · '),
    lotAuthors: [...new Set(lot.items.map((i) => i.author).filter(Boolean))].join(' · '),
    categoryIds: [...new Set([...categoryIds, lot.levelId, ...subjects])],
  };
}

export async function insertLotItems(tx: Db, bookId: number, lot: LotContent) {
  await tx.insert(bookLotItems).values(
    lot.items.map((i, position) => ({
      bookId,
      position,
      classListItemId: i.id,
      title: i.title,
      author: i.author,
      publisher: i.publisher,
      year: i.year,
      isbn: i.isbn,
      subjectId: i.subjectId,
    })),
  );
}

/** The subjects a lot's books bring to its categories: kept when its owner edits the listing. */
export async function lotSubjects(db: Db, bookId: number) {
  const rows = await db
    .select({ subjectId: bookLotItems.subjectId })
    .from(bookLotItems)
    .where(eq(bookLotItems.bookId, bookId));
  return rows.map((r) => r.subjectId).filter((id): id is number => id !== null);
}

/** The lots among `bookIds`, as the API shows them (one query, only when the page holds a lot). */
export async function lotsOf(
  db: Db,
  view: CategoryView,
  bookIds: number[],
): Promise<Map<number, NonNullable<Book['lot']>>> {
  const lots = new Map<number, NonNullable<Book['lot']>>();
  if (!bookIds.length) return lots;
  const rows = await db
    .select()
    .from(bookLotItems)
    .where(inArray(bookLotItems.bookId, bookIds))
    .orderBy(asc(bookLotItems.bookId), asc(bookLotItems.position));
  for (const r of rows) {
    const subject = r.subjectId !== null ? view.graph.nodes.get(r.subjectId) : undefined;
    const lot = lots.get(r.bookId) ?? { items: [] };
    lot.items.push({
      title: r.title,
      author: r.author,
      publisher: r.publisher,
      year: r.year,
      isbn: r.isbn,
      subject: subject ? { id: subject.id, name: subject.name } : null,
    });
    lots.set(r.bookId, lot);
  }
  return lots;
}
