import type { BookCondition, BookConditionFlag } from '@cartable/contracts';
import type { Book } from '../../shared/books';

/**
 * The listing form's values, messages and multipart body. It is checked with the API's own schema
 * (./validation.ts, loaded when the form is first touched: ./checks.ts).
 */
export { MAX_BOOK_CATEGORIES } from '@cartable/contracts/limits';

export const bookFormMessages = {
  titleRequired: 'Le titre est obligatoire',
  authorRequired: "L'auteur est obligatoire",
  priceRequired: 'Le prix est obligatoire (0 pour un don)',
  priceInvalid: 'Le prix doit être un nombre entier de FCFA',
  imageType: 'Formats acceptés : JPEG, PNG ou WebP',
  imageSize: 'Chaque photo doit peser 5 Mo au plus',
} as const;

export const digits = (value: string) => value.replace(/[\s\u202f\u00a0]/g, '');

/** The form's values: what the fields hold (text), before the schema coerces them. */
export interface BookFormValues {
  title: string;
  author: string;
  isbn: string;
  description: string;
  publisher: string;
  publication_year: string;
  condition: BookCondition | '';
  /** What the condition does not say (annotated, exercises filled in…). */
  condition_flags: BookConditionFlag[];
  price: string;
  city_id: string;
  is_negociable: boolean;
  is_exchange_possible: boolean;
  category_ids: number[];
}

export type BookFormField = keyof BookFormValues;

export const BOOK_FORM_FIELDS: BookFormField[] = [
  'title',
  'author',
  'isbn',
  'description',
  'publisher',
  'publication_year',
  'condition',
  'condition_flags',
  'price',
  'city_id',
  'is_negociable',
  'is_exchange_possible',
  'category_ids',
];

export const EMPTY_BOOK_FORM: BookFormValues = {
  title: '',
  author: '',
  isbn: '',
  description: '',
  publisher: '',
  publication_year: '',
  condition: '',
  condition_flags: [],
  price: '',
  city_id: '',
  is_negociable: false,
  is_exchange_possible: false,
  category_ids: [],
};

export function bookToForm(book: Book): BookFormValues {
  const all = book.category_ids?.length
    ? book.category_ids
    : (book.categories?.map((c) => c.id) ?? (book.category ? [book.category.id] : []));
  // A lot's subjects come with its books and stay whatever the form sends: the form shows the rest.
  const lotSubjects = new Set(book.lot?.items.flatMap((i) => (i.subject ? [i.subject.id] : [])) ?? []);
  const ids = all.filter((id) => !lotSubjects.has(id));
  return {
    title: book.title ?? '',
    author: book.author ?? '',
    isbn: book.isbn ?? '',
    description: book.description ?? '',
    publisher: book.publisher ?? '',
    publication_year: book.publication_year ? String(book.publication_year) : '',
    condition: (book.condition ?? '') as BookCondition | '',
    condition_flags: book.condition_flags ?? [],
    price: String(book.price ?? ''),
    city_id: book.city_id ? String(book.city_id) : book.city ? String(book.city.id) : '',
    is_negociable: Boolean(book.is_negociable ?? book.is_negotiable),
    is_exchange_possible: Boolean(book.is_exchange_possible),
    category_ids: ids,
  };
}

/** The three photo slots: a kept image, a new file, or nothing (with a removal to send). */
export interface PhotoSlot {
  /** URL of the image already saved (edit), kept unless replaced or removed. */
  existing: string | null;
  file: File | null;
  /** Object URL of `file` for the preview. */
  preview: string | null;
  removed: boolean;
}

export { ACCEPTED_TYPES, MAX_IMAGE_BYTES } from '../../entities/listing/photo';

/** Multipart body of POST /books and POST /books/{id}. */
export function toFormData(values: BookFormValues, slots: PhotoSlot[], editing: boolean): FormData {
  const form = new FormData();
  form.set('title', values.title.trim());
  form.set('author', values.author.trim());
  // Every field is sent, empty ones too: an update replaces the listing (an emptied field is cleared).
  form.set('isbn', values.isbn.trim());
  form.set('description', values.description.trim());
  form.set('publisher', values.publisher.trim());
  form.set('publication_year', values.publication_year.trim());
  form.set('condition', values.condition);
  // None ticked is sent too (an empty value): an update then clears the flags.
  form.set('condition_flags', values.condition_flags.join(','));
  form.set('price', String(Number(digits(values.price))));
  form.set('city_id', values.city_id);
  form.set('is_negociable', values.is_negociable ? 'true' : 'false');
  form.set('is_exchange_possible', values.is_exchange_possible ? 'true' : 'false');
  form.set('category_ids', values.category_ids.join(','));
  slots.forEach((slot, index) => {
    const n = index + 1;
    if (slot.file) form.set(`image${n}`, slot.file, slot.file.name);
    else if (editing && slot.removed) form.set(`remove_image${n}`, 'true');
  });
  return form;
}

export { shrinkPhoto } from '../../entities/listing/photo';
