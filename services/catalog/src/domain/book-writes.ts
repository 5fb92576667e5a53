import type { BookFields } from '@cartable/contracts';
import { type Db, recordEvent, type Storage, unprocessable } from '@cartable/service-kit';
import { and, eq, inArray } from 'drizzle-orm';
import { bookImages, categories, cities } from '../db/schema.ts';
import type { ProcessedImage } from '../routes/book-form.ts';
import { imageKeys } from './book-images.ts';

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

/** The event every other service reads about a book. */
export async function recordBookEvent(
  tx: Db,
  type: 'catalog.book.created' | 'catalog.book.updated',
  bookId: number,
  fields: BookFields,
  userId: string,
  status: string,
  thumbnail: string | null,
) {
  await recordEvent(tx, type, {
    book_id: bookId,
    user_id: userId,
    title: fields.title,
    price: fields.price,
    status,
    city_id: fields.city_id,
    category_ids: [...new Set(fields.category_ids)],
    thumbnail,
    occurred_at: new Date().toISOString(),
  });
}

export async function imagesOf(db: Db, bookId: number) {
  return db.select().from(bookImages).where(eq(bookImages.bookId, bookId));
}

export async function removeImageRows(tx: Db, bookId: number, slots: number[]) {
  if (slots.length)
    await tx.delete(bookImages).where(and(eq(bookImages.bookId, bookId), inArray(bookImages.slot, slots)));
}
