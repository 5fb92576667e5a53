import type { Db } from '@cartable/service-kit';
import { and, desc, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { books } from './schema.ts';

/**
 * What the listings of a book said of it, newest first: the ones on sale and the sold ones (a
 * hidden listing says nothing). `isbns` are compacted spellings (cartable_isbn_key: digits and X).
 */
export function listingsOfIsbn(db: Db, isbns: string[], limit: number) {
  return db
    .select({
      title: books.title,
      author: books.author,
      publisher: books.publisher,
      year: books.publicationYear,
      categoryIds: books.categoryIds,
    })
    .from(books)
    .where(and(isNotNull(books.isbn), inArray(sql`cartable_isbn_key(${books.isbn})`, isbns), isNull(books.hiddenAt)))
    .orderBy(desc(books.createdAt), desc(books.id))
    .limit(limit);
}
