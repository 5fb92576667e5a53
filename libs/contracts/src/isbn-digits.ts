/**
 * ISBNs as a member types them or a scanner reads them (`@cartable/contracts/isbn-digits`, without
 * zod: the listing form checks a typed ISBN before its schemas are loaded). A book's barcode is its
 * ISBN-13 as an EAN-13 (978 or 979 first); an older book prints an ISBN-10, the same book as
 * 978 followed by its first nine digits and a new check digit. Both spellings name one book.
 */

export const isbnMessages = {
  invalid: 'ISBN invalide : 10 ou 13 chiffres avec leur clé de contrôle, au dos du livre.',
  notABook: 'Ce code-barres n’est pas celui d’un livre : l’ISBN commence par 978 ou 979.',
  unknown: (isbn: string) => `ISBN ${isbn} lu, manuel inconnu : complétez les champs.`,
} as const;

/** Digits and X only (hyphens, spaces and dots out), X upper-cased. */
export const compactIsbn = (text: string) => text.replace(/[\s.\-‐‑–]/g, '').toUpperCase();

const isbn10CheckDigit = (first9: string) => {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (10 - i) * Number(first9[i]);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
};

const ean13CheckDigit = (first12: string) => {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return String((10 - (sum % 10)) % 10);
};

export type IsbnProblem = 'invalid' | 'notABook';

/**
 * The ISBN-13 of what was typed or read (hyphens and spaces allowed, an ISBN-10 turned into its
 * 978 form), or why it is none: a wrong length or check digit, or an EAN-13 that is no book's.
 */
export function parseIsbn(text: string): { isbn13: string } | { problem: IsbnProblem } {
  const compact = compactIsbn(text);
  if (/^\d{9}[\dX]$/.test(compact)) {
    if (isbn10CheckDigit(compact.slice(0, 9)) !== compact[9]) return { problem: 'invalid' };
    const first12 = `978${compact.slice(0, 9)}`;
    return { isbn13: first12 + ean13CheckDigit(first12) };
  }
  if (/^\d{13}$/.test(compact)) {
    if (ean13CheckDigit(compact.slice(0, 12)) !== compact[12]) return { problem: 'invalid' };
    if (!/^97[89]/.test(compact)) return { problem: 'notABook' };
    return { isbn13: compact };
  }
  return { problem: 'invalid' };
}

/** The ISBN-13 of a valid ISBN-10 or ISBN-13, else null. */
export function isbn13Of(text: string): string | null {
  const parsed = parseIsbn(text);
  return 'isbn13' in parsed ? parsed.isbn13 : null;
}

/** The ISBN-10 of a 978 ISBN-13 (979 ones have none). */
export function isbn10Of(isbn13: string): string | null {
  if (!/^978\d{10}$/.test(isbn13)) return null;
  const first9 = isbn13.slice(3, 12);
  return first9 + isbn10CheckDigit(first9);
}

/** Every spelling a stored ISBN of this book may have once compacted: the ISBN-13, and its ISBN-10. */
export function isbnSpellings(isbn13: string): string[] {
  const isbn10 = isbn10Of(isbn13);
  return isbn10 ? [isbn13, isbn10] : [isbn13];
}
