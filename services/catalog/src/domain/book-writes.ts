import type { BookFields } from '@cartable/contracts';
import { type Db, recordEvent, type Storage, unprocessable } from '@cartable/service-kit';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { bookImages, books, categories, cities } from '../db/schema.ts';
import type { ProcessedImage } from '../routes/book-form.ts';
import { imageKeys } from './book-images.ts';
import { onBookListed } from './class-lists.ts';
import { matchSavedSearches } from './saved-searches.ts';
import { onBookChanged } from './subscriptions.ts';

/** Refuses unknown categories and cities with field errors. */
export async function checkReferences(db: Db, fields: BookFields) {
  const [found, [city]] = await Promise.all([
    db.select({ id: categories.id }).from(categories).where(inArray(categories.id, fields.category_ids)),
    db.select({ id: cities.id }).from(cities).where(eq(cities.id, fields.city_id)),
  ]);
  const errors: Record<string, string[]> = {};
  if (found.length !== new Set(fields.category_ids).size) errors.category_ids = ['Catégorie inconnue'];
  if (!city) errors.city_id = ['Ville inconnue'];
  if (Object.keys(errors).length) throw unprocessable(errors);
}

export const bookValues = (fields: BookFields) => ({
  title: fields.title,
  author: fields.author,
  isbn: fields.isbn ?? null,
  description: fields.description ?? null,
  publisher: fields.publisher ?? null,
  publicationYear: fields.publication_year ?? null,
  condition: fields.condition,
  price: fields.price,
  cityId: fields.city_id,
  isNegotiable: fields.is_negociable,
  isExchangePossible: fields.is_exchange_possible,
  // The main category first, each once.
  categoryIds: [...new Set(fields.category_ids)],
});

/** Writes the photos to storage before the transaction; returns their keys by slot. */
export async function storeImages(storage: Storage, images: Map<number, ProcessedImage>) {
  const stored = new Map<number, { displayKey: string; thumbnailKey: string }>();
  for (const [slot, image] of images) {
    const keys = imageKeys();
    await storage.put(keys.display, image.display, 'image/webp');
    await storage.put(keys.thumbnail, image.thumbnail, 'image/webp');
    stored.set(slot, { displayKey: keys.display, thumbnailKey: keys.thumbnail });
  }
  return stored;
}

export async function deleteStoredImages(storage: Storage, keys: Array<{ displayKey: string; thumbnailKey: string }>) {
  await Promise.all(keys.flatMap((k) => [storage.delete(k.displayKey), storage.delete(k.thumbnailKey)])).catch(
    () => {},
  );
}

type BookEventType =
  | 'catalog.book.created'
  | 'catalog.book.updated'
  | 'catalog.book.status_changed'
  | 'catalog.book.deleted';

/**
 * The event every other service reads about a book: the row as this transaction leaves it
 * (read after the change, under its row lock), with its version and first thumbnail. A deletion
 * is recorded before the row goes, with the version one more than the last change.
 */
export async function recordBookEvent(
  tx: Db,
  storage: Storage,
  type: BookEventType,
  bookId: number,
  extra: { previous_status?: string; previous_price?: number } = {},
) {
  const [[book], [first]] = await Promise.all([
    tx.select().from(books).where(eq(books.id, bookId)),
    tx.select().from(bookImages).where(eq(bookImages.bookId, bookId)).orderBy(bookImages.slot).limit(1),
  ]);
  if (!book) throw new Error(`book ${bookId} not found for ${type}`);
  const snapshot = {
    book_id: book.id,
    user_id: book.userId,
    title: book.title,
    price: book.price,
    status: book.status,
    city_id: book.cityId,
    category_ids: [...new Set(book.categoryIds)],
    thumbnail: first ? storage.url(first.thumbnailKey) : null,
    version: type === 'catalog.book.deleted' ? book.version + 1 : book.version,
    occurred_at: new Date().toISOString(),
  };
  // Every sale and deletion passes here, whoever makes it: a boost on the listing ends with it.
  if (type === 'catalog.book.deleted') await onBookChanged(tx, book.id, 'deleted');
  else if (type === 'catalog.book.status_changed' && book.status === 'vendu' && extra.previous_status !== 'vendu')
    await onBookChanged(tx, book.id, 'sold');
  // A listing answering a missing book of a saved class list nearby, new or available again
  // (after a reservation fell through): its member is told, once per listing.
  const availableAgain =
    type === 'catalog.book.status_changed' && book.status === 'disponible' && extra.previous_status !== 'disponible';
  if (type === 'catalog.book.created' || availableAgain) await onBookListed(tx, book.id);
  // Saved searches (issue 15 item 5): a listing new, available again, or edited (shown again by
  // the moderation, a price now in range) alerts each matching search once (matchSavedSearches).
  if (type === 'catalog.book.created' || type === 'catalog.book.updated' || availableAgain)
    await matchSavedSearches(tx, book.id, snapshot.thumbnail);
  if (type === 'catalog.book.status_changed') {
    await recordEvent(tx, type, { ...snapshot, previous_status: extra.previous_status ?? book.status });
  } else if (type === 'catalog.book.updated' && extra.previous_price !== undefined) {
    await recordEvent(tx, type, { ...snapshot, previous_price: extra.previous_price });
  } else {
    await recordEvent(tx, type, snapshot);
  }
}

/** Set on every update of a book: its next version. */
export const nextVersion = { version: sql`${books.version} + 1`, updatedAt: sql`now()` };

export async function imagesOf(db: Db, bookId: number) {
  return db.select().from(bookImages).where(eq(bookImages.bookId, bookId));
}

export async function removeImageRows(tx: Db, bookId: number, slots: number[]) {
  if (slots.length)
    await tx.delete(bookImages).where(and(eq(bookImages.bookId, bookId), inArray(bookImages.slot, slots)));
}

/**
 * Deletes a listing: its event (recorded before the row goes), the row and its photo rows in one
 * transaction, with whatever else the caller records there (a moderation event); the stored
 * photos after the commit. The caller clears the caches and kicks the relay.
 */
export async function deleteBook(
  db: Db,
  storage: Storage,
  bookId: number,
  alsoInTransaction?: (tx: Db) => Promise<void>,
) {
  const images = await imagesOf(db, bookId);
  await db.transaction(async (tx) => {
    await alsoInTransaction?.(tx);
    await recordBookEvent(tx, storage, 'catalog.book.deleted', bookId);
    await tx.delete(books).where(eq(books.id, bookId));
  });
  await deleteStoredImages(storage, images);
}
