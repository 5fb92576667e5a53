import type { IsbnBookSource } from '../../listings/index.ts';
import * as queries from '../db/queries.ts';

/** Enough books of the lists to say what one ISBN is: the same book on a few levels' lists, over a few years. */
const ITEMS_PER_ISBN = 20;

/** The listing form's ISBN look-up asks the class lists what they say of a book (its level and subject too). */
export const classListIsbnBooks: IsbnBookSource = {
  booksOfIsbn: (db, isbns) => queries.publishedItemsOfIsbn(db, isbns, ITEMS_PER_ISBN),
};
