import type { ClassListDetail } from '../api/class-lists';
import type { PublishOutcome } from '../api/sell-list';
import { digits, EMPTY_SALE, type Sale } from './SaleFields';

/** The state of « Vendre ma liste »: what each listing is to say, and where its publication stands. */

export type Item = ClassListDetail['items'][number];
export type Mode = 'separate' | 'lot';

/** Where one listing's publication stands. */
export interface Attempt {
  status: 'idle' | 'sending' | 'done' | 'error';
  error: string | null;
  bookId: number | null;
  /** The Idempotency-Key of its POST /books: the same while it is retried. */
  key: string | null;
  /** The server refused the last attempt (4xx): nothing was created, an edited retry is a new request. */
  refused: boolean;
}

const IDLE: Attempt = { status: 'idle', error: null, bookId: null, key: null, refused: false };

/** One book of the list as the family sets it: its own listing, or picked for the lot. */
export interface Row extends Sale, Attempt {
  selected: boolean;
}

/** The lot: one listing for the picked books. */
export interface Lot extends Sale, Attempt {
  /** Null: the title follows the books picked (« Lot de 3 manuels de 6e … »). */
  title: string | null;
}

export const EMPTY_ROW: Row = { ...EMPTY_SALE, ...IDLE, selected: false };
export const EMPTY_LOT: Lot = { ...EMPTY_SALE, ...IDLE, title: null };

export const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n > 1 ? many : one}`;

/** An edit after a refused attempt is a new request: a new key (a lost answer keeps its key). */
export function edit<T extends Attempt>(old: T, patch: Partial<T>): T {
  const next = { ...old, ...patch };
  if (old.status === 'error' && old.refused && !('status' in patch)) next.key = null;
  return next;
}

/** The attempt's next state once its POST /books answered. */
export function settled(outcome: PublishOutcome, key: string): Partial<Attempt> {
  return outcome.ok
    ? { status: 'done', bookId: outcome.bookId, key, error: null }
    : { status: 'error', error: outcome.error, key, refused: outcome.refused };
}

/** The fields of a listing taken from the list, and its sale. */
export function listingForm(fields: Record<string, string>, sale: Sale, cityId: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('condition', sale.condition);
  form.set('price', String(Number(digits(sale.price))));
  form.set('city_id', cityId);
  form.set('is_negociable', 'false');
  form.set('is_exchange_possible', sale.exchange ? 'true' : 'false');
  if (sale.photo) form.set('image1', sale.photo, sale.photo.name);
  return form;
}

/** A book's listing as the list describes it. */
export const bookFields = (list: ClassListDetail, item: Item) => ({
  title: item.title,
  author: item.author,
  isbn: item.isbn ?? '',
  publisher: item.publisher ?? '',
  publication_year: item.year ? String(item.year) : '',
  description: '',
  // As the listing form's autofill: the level, then the subject.
  category_ids: [list.level.id, item.subject?.id].filter(Boolean).join(','),
});

/** The lot's listing: its title, its books' authors, the level (the server adds the books' subjects). */
export const lotFields = (list: ClassListDetail, title: string, items: Item[]) => ({
  title: title.trim(),
  author: lotAuthors(items),
  description: '',
  category_ids: String(list.level.id),
  lot_items: items.map((i) => i.id).join(','),
});

export const suggestedLotTitle = (list: ClassListDetail, n: number) =>
  `Lot de ${n} manuels de ${list.level.name} (${list.school_year})`;

/** The lot's authors, each once, as its author (150 characters at most). */
export function lotAuthors(items: Item[]) {
  const all = [...new Set(items.map((i) => i.author.trim()).filter(Boolean))].join(', ');
  if (all.length < 2) return 'Collectif';
  return all.length > 150 ? `${all.slice(0, 149)}…` : all;
}

export function lotTitleProblem(title: string) {
  const t = title.trim();
  if (t.length < 2) return 'Le titre doit contenir au moins 2 caractères';
  if (t.length > 200) return 'Le titre ne peut pas dépasser 200 caractères';
  return undefined;
}
