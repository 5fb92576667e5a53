/*
 * French alphabetical order for short names (towns, provinces) without Intl.Collator: building a
 * collator loads ICU's collation rules, 35–55 ms of a phone's main thread at CPU ×4, which home
 * paid in its first render to sort Gabon's towns. Names are compared with their accents and case
 * folded, as the collator's « base » strength does; test/collate.test.ts holds the order to
 * Intl.Collator's on Gabon's provinces and towns and on French words that differ only by an
 * accent, a hyphen or a space. The accents are folded by the table below, not by
 * `normalize('NFD')` as categories/tree.ts's search does: the first `normalize` loads ICU's
 * normalizer, 68–89 ms at ×4. (compareNames there still sorts categories with a collator: its
 * order on admins' free-form names is not proven the same yet.)
 */

const FOLDED: Record<string, string> = {
  à: 'a',
  á: 'a',
  â: 'a',
  ä: 'a',
  ç: 'c',
  è: 'e',
  é: 'e',
  ê: 'e',
  ë: 'e',
  í: 'i',
  î: 'i',
  ï: 'i',
  ñ: 'n',
  ó: 'o',
  ô: 'o',
  ö: 'o',
  ù: 'u',
  ú: 'u',
  û: 'u',
  ü: 'u',
  ÿ: 'y',
  æ: 'ae',
  œ: 'oe',
};

function sortKey(text: string): string {
  return text.toLowerCase().replace(/[àáâäçèéêëíîïñóôöùúûüÿæœ]/g, (letter) => FOLDED[letter] ?? letter);
}

/** Negative, zero or positive as `a` comes before, with or after `b` in French order. */
export function compareFrench(a: string, b: string): number {
  const x = sortKey(a);
  const y = sortKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
