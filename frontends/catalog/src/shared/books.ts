import type { BookCondition, BookStatus as ContractBookStatus } from '@cartable/contracts';

/** A listing query's parameters as the API client sends them (libs/ui `apiUrl`). */
export type BookQuery = Record<string, string | number | boolean | null | undefined>;

/**
 * The book as the catalogue screens read it (services/catalog/API.md), its French labels and
 * small helpers. The calls are in ./api/books.ts.
 */

/** Book conditions (SPEC section 3) in the order a seller reads them, best first. */
export const CONDITIONS = [
  'neuf',
  'très bon',
  'bon',
  'acceptable',
  'mauvais',
] as const satisfies readonly BookCondition[];
export type Condition = BookCondition;

export const CONDITION_LABELS: Record<Condition, string> = {
  neuf: 'Neuf',
  'très bon': 'Très bon état',
  bon: 'Bon état',
  acceptable: 'État acceptable',
  mauvais: 'Mauvais état',
};

export const STATUSES = ['disponible', 'réservé', 'vendu'] as const satisfies readonly ContractBookStatus[];
export type BookStatus = ContractBookStatus;

/** SPEC section 4: disponible → Disponible, réservé → Réservé, anything else → Vendu. */
export function statusLabel(status: string | null | undefined): string {
  if (status === 'disponible') return 'Disponible';
  if (status === 'réservé') return 'Réservé';
  return 'Vendu';
}

export function conditionLabel(book: Pick<Book, 'condition' | 'condition_label'>): string {
  return book.condition_label || CONDITION_LABELS[book.condition as Condition] || book.condition || '';
}

/** Ids are compared as strings: book ids are numbers, user ids are UUIDs. */
export type Id = number | string;

export interface CategoryRef {
  id: number;
  name: string;
}

export interface Seller {
  id: string;
  name: string;
  username?: string | null;
  profile_image: string | null;
  city: string | null;
  province: string | null;
  created_at: string | null;
  show_email?: boolean;
  email: string | null;
  show_phone?: boolean;
  phone: string | null;
  rating?: { average: number | null; count: number } | null;
  /** The name of the seller's active member plan that gives a badge (issue 13), else null. */
  badge?: string | null;
}

export interface BookImage {
  slot: 1 | 2 | 3;
  url: string;
  thumbnail_url: string | null;
}

export interface Book {
  id: number;
  title: string;
  author: string;
  isbn: string | null;
  description: string | null;
  publisher: string | null;
  publication_year: number | null;
  condition: Condition;
  condition_label?: string;
  price: number;
  status: BookStatus | string;
  status_label?: string;
  /** Hidden by the moderation: out of the public catalogue, its owner sees it with the reason. */
  hidden?: boolean;
  hidden_reason?: string | null;
  is_negociable?: boolean;
  is_negotiable?: boolean;
  is_exchange_possible: boolean;
  city: { id: number; name: string; province: string | null } | null;
  city_id: number | null;
  category: CategoryRef | null;
  categories?: CategoryRef[];
  category_ids?: number[];
  image1: string | null;
  image2: string | null;
  image3: string | null;
  thumbnail: string | null;
  images?: BookImage[];
  user_id: string;
  views?: number;
  created_at: string;
  updated_at?: string;
  seller?: Seller;
  /** Boosted by a subscription: shown first with « Sponsorisé » (GET /books/featured, page 1 of GET /books). */
  sponsored?: boolean;
  /** A lot (several books of a class list in one listing), else null. */
  lot?: { items: LotBook[] } | null;
}

export interface LotBook {
  title: string;
  author: string;
  publisher: string | null;
  year: number | null;
  isbn: string | null;
  subject: CategoryRef | null;
}

export interface Paginated<T> {
  data: T[];
  total: number;
  per_page: number;
  current_page: number;
  last_page: number;
}

/** Both spellings exist (SPEC section 3): the list says is_negociable, the detail is_negotiable. */
export function isNegotiable(book: Pick<Book, 'is_negociable' | 'is_negotiable'>): boolean {
  return Boolean(book.is_negociable ?? book.is_negotiable);
}

/** The displayable images of a book, in slot order (display URL and thumbnail). */
export function bookImages(book: Book): BookImage[] {
  if (Array.isArray(book.images) && book.images.length > 0) {
    return [...book.images].sort((a, b) => a.slot - b.slot);
  }
  const slots: BookImage[] = [];
  for (const [index, url] of [book.image1, book.image2, book.image3].entries()) {
    if (url) slots.push({ slot: (index + 1) as 1 | 2 | 3, url, thumbnail_url: index === 0 ? book.thumbnail : null });
  }
  return slots;
}

/** Card titles are cut at 50 characters (SPEC section 2). */
export function truncate(text: string, max = 50): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

export function sameId(a: Id | null | undefined, b: Id | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);
}
