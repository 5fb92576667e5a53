import type { IsbnLookup } from '@cartable/contracts';
import { isbn13Of, isbnMessages, parseIsbn } from '@cartable/contracts/isbn-digits';
import { errorMessage, notify } from '@cartable/ui';
import { useRef, useState } from 'react';
import type { UseFormGetValues, UseFormSetValue } from 'react-hook-form';
import { useIsbnLookup } from '../api/isbn';
import { type BookFormValues, MAX_BOOK_CATEGORIES } from '../bookForm';

/** The fields an ISBN fills, as the class lists' autofill fills them. */
type FilledField = 'title' | 'author' | 'publisher' | 'publication_year' | 'category_ids';
type Filling = Partial<Pick<BookFormValues, FilledField>>;

export const filledFieldLabels: Record<FilledField, string> = {
  title: 'Titre',
  author: 'Auteur',
  publisher: 'Éditeur',
  publication_year: 'Année de publication',
  category_ids: 'Catégories',
};

export type IsbnStatus = { tone: 'info' | 'success' | 'warning' | 'error'; text: string } | null;

function fillingOf(found: IsbnLookup): Filling {
  const filling: Filling = {};
  if (found.title) filling.title = found.title;
  if (found.author) filling.author = found.author;
  if (found.publisher) filling.publisher = found.publisher;
  if (found.year) filling.publication_year = String(found.year);
  if (found.category_ids.length) filling.category_ids = found.category_ids.slice(0, MAX_BOOK_CATEGORIES);
  return filling;
}

const isBlank = (value: unknown) => (Array.isArray(value) ? value.length === 0 : String(value ?? '').trim() === '');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The listing form's ISBN autofill: a scanned ISBN, or one typed in the « ISBN » field, is looked
 * up (GET /books/isbn/{isbn}) and fills title, author, publisher, year and categories. Empty
 * fields are filled at once; a field the member already typed differently is replaced only when
 * they confirm. An unknown ISBN stays in its field and the member types the rest.
 */
export function useIsbnAutofill({
  getValues,
  setValue,
  validate,
}: {
  getValues: UseFormGetValues<BookFormValues>;
  setValue: UseFormSetValue<BookFormValues>;
  /** Check the filled fields at once (after a first submit showed errors). */
  validate: boolean;
}) {
  const lookUp = useIsbnLookup();
  const [status, setStatus] = useState<IsbnStatus>(null);
  const [looking, setLooking] = useState(false);
  /** Fields typed by the member that the book found would replace, waiting for their yes. */
  const [replacing, setReplacing] = useState<{ title: string; filling: Filling } | null>(null);
  // A listing being edited keeps its ISBN: leaving the field unchanged looks nothing up.
  const lastTyped = useRef<string | null>(isbn13Of(getValues('isbn') ?? ''));

  const put = (filling: Filling) => {
    const options = { shouldDirty: true, shouldValidate: validate };
    for (const [field, value] of Object.entries(filling) as Array<[FilledField, string & number[]]>)
      setValue(field, value, options);
  };

  async function fill(isbn13: string, how: 'scan' | 'typed') {
    setLooking(true);
    setStatus({ tone: 'info', text: `Recherche de l’ISBN ${isbn13}…` });
    try {
      const found = await lookUp(isbn13);
      if (!found.found) {
        const text = isbnMessages.unknown(isbn13);
        setStatus({ tone: 'warning', text });
        if (how === 'scan') void notify.info(text);
        return;
      }
      const filling = fillingOf(found);
      const current = getValues();
      const now: Filling = {};
      const later: Filling = {};
      for (const [field, value] of Object.entries(filling) as Array<[FilledField, unknown]>) {
        if (isBlank(current[field])) Object.assign(now, { [field]: value });
        else if (!same(current[field], value)) Object.assign(later, { [field]: value });
      }
      put(now);
      const title = found.title ?? `ISBN ${isbn13}`;
      const text = `« ${title} » : champs remplis. Vérifiez-les et complétez l’état et le prix.`;
      setStatus({ tone: 'success', text });
      void notify.success(text);
      if (Object.keys(later).length) setReplacing({ title, filling: later });
    } catch (error) {
      setStatus({
        tone: 'error',
        text: errorMessage(error, 'La recherche de l’ISBN n’a pas abouti. Complétez les champs.'),
      });
    } finally {
      setLooking(false);
    }
  }

  return {
    status,
    looking,
    replacing,
    /** The member said yes: their typed fields take the book's values. */
    confirmReplace() {
      if (replacing) put(replacing.filling);
      setReplacing(null);
    },
    keepTyped: () => setReplacing(null),
    /** A barcode was read: the ISBN field takes it, then the book is looked up. */
    fromScan(isbn13: string) {
      setValue('isbn', isbn13, { shouldDirty: true, shouldValidate: validate });
      lastTyped.current = isbn13;
      void fill(isbn13, 'scan');
    },
    /**
     * The ISBN field was left, or « Rechercher » pressed (`asked`): a valid ISBN is looked up
     * (once on leaving the field, again when asked); an invalid one is said only when asked.
     */
    fromTyped(text: string, asked: boolean) {
      const parsed = parseIsbn(text);
      if (!('isbn13' in parsed)) {
        if (asked)
          setStatus({
            tone: 'error',
            text: text.trim() ? isbnMessages[parsed.problem] : 'Tapez l’ISBN du livre, au dos, sous le code-barres.',
          });
        return;
      }
      if (!asked && lastTyped.current === parsed.isbn13) return;
      lastTyped.current = parsed.isbn13;
      void fill(parsed.isbn13, 'typed');
    },
  };
}
export type IsbnAutofill = ReturnType<typeof useIsbnAutofill>;
