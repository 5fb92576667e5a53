import type { Book, BookDetail, BookStatus } from '@cartable/contracts';
import { conditionLabels, statusLabel as contractStatusLabel } from '@cartable/contracts/labels';

export type { BookCondition } from '@cartable/contracts';
/**
 * The book as the catalogue screens read it: the contract's types (libs/contracts, type-only
 * imports cost no bytes), their French labels from its zod-free `labels` module, and small helpers.
 * The calls are in ./api/books.ts.
 */
export type { Book, BookDetail, BookStatus };

/** A listing query's parameters as the API client sends them (libs/ui `apiUrl`). */
export type BookQuery = Record<string, string | number | boolean | null | undefined>;

/** One photo of a book: display URL and thumbnail, in slot order. */
export type BookPhoto = Book['images'][number];
/** A book in a lot (several books of a class list in one listing). */
export type LotItem = NonNullable<Book['lot']>['items'][number];
/** The seller block of a book's page. */
export type BookSeller = NonNullable<BookDetail['seller']>;

/** SPEC section 4: disponible → Disponible, réservé → Réservé, anything else → Vendu. */
export const statusLabel = (status: string | null | undefined): string => contractStatusLabel(status ?? '');

export function conditionLabel(book: Pick<Book, 'condition' | 'condition_label'>): string {
  return book.condition_label || conditionLabels[book.condition] || book.condition || '';
}

/** Ids are compared as strings: book ids are numbers, user ids are UUIDs. */
export type Id = number | string;

/** Both spellings exist (SPEC section 3) and carry the same value; the screens read this one. */
export const isNegotiable = (book: Pick<Book, 'is_negociable'>): boolean => book.is_negociable;

/** The displayable images of a book, in slot order (display URL and thumbnail). */
export function bookImages(book: Book): BookPhoto[] {
  return [...book.images].sort((a, b) => a.slot - b.slot);
}

/** Card titles are cut at 50 characters (SPEC section 2). */
export function truncate(text: string, max = 50): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

export function sameId(a: Id | null | undefined, b: Id | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);
}
