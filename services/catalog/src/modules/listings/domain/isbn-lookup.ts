import { type IsbnLookup, isbn10Of, isbnSpellings, MAX_BOOK_CATEGORIES } from '@cartable/contracts';
import type { Db } from '@cartable/service-kit';
import { listingsOfIsbn } from '../db/isbn-queries.ts';

/** A book of a published class list, as the class lists module answers (newest school year first). */
export interface ClassListBookOfIsbn {
  title: string;
  author: string;
  publisher: string | null;
  year: number | null;
  levelId: number;
  subjectId: number | null;
}

/**
 * What the class lists say of an ISBN (class lists' module, wired in by the service: listings
 * imports nothing of class lists, which reads listings).
 */
export interface IsbnBookSource {
  booksOfIsbn(db: Db, isbns: string[]): Promise<ClassListBookOfIsbn[]>;
}

/** The past listings read for one ISBN: enough for a majority, few enough for a phone's wait. */
const LISTINGS_PER_ISBN = 50;

/** The value most listings gave (blanks aside); on a tie, the newest listing's. */
function mostCommon<T>(values: Array<T | null | undefined>, keyOf: (value: T) => string = String): T | null {
  const counts = new Map<string, { value: T; count: number }>();
  for (const value of values) {
    if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) continue;
    const key = keyOf(value);
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { value, count: 1 });
  }
  let best: { value: T; count: number } | null = null;
  // Map keeps the first-seen order, newest first: a strict « more » keeps the newest on a tie.
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.value ?? null;
}

const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/**
 * The listing form's look-up of a scanned or typed ISBN: what the class lists' books of that ISBN
 * say (an official list names the book as schools do, with its level and subject), completed by
 * what most past listings of it said. Both spellings of a 978 book (ISBN-13 and ISBN-10) match.
 */
export function isbnLookup(db: Db, classLists: IsbnBookSource) {
  return async function lookUp(isbn13: string): Promise<IsbnLookup> {
    const isbns = isbnSpellings(isbn13);
    const [items, listings] = await Promise.all([
      classLists.booksOfIsbn(db, isbns),
      listingsOfIsbn(db, isbns, LISTINGS_PER_ISBN),
    ]);
    const item = items[0];
    const listed = {
      title: mostCommon(listings.map((l) => text(l.title))),
      author: mostCommon(listings.map((l) => text(l.author))),
      publisher: mostCommon(listings.map((l) => text(l.publisher))),
      year: mostCommon(listings.map((l) => l.year)),
      categoryIds: mostCommon(
        listings.map((l) => (l.categoryIds.length ? l.categoryIds : null)),
        (ids) => [...ids].sort((a, b) => a - b).join(','),
      ),
    };
    const categoryIds = item ? [item.levelId, ...(item.subjectId ? [item.subjectId] : [])] : (listed.categoryIds ?? []);
    const title = text(item?.title) ?? listed.title;
    return {
      isbn: isbn13,
      isbn10: isbn10Of(isbn13),
      found: items.length > 0 || listings.length > 0,
      title,
      author: text(item?.author) ?? listed.author,
      publisher: text(item?.publisher) ?? listed.publisher,
      year: item?.year ?? listed.year,
      category_ids: categoryIds.slice(0, MAX_BOOK_CATEGORIES),
      sources: { class_lists: items.length, listings: listings.length },
    };
  };
}
