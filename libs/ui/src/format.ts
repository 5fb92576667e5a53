import { once } from './once';

/*
 * Prices, counts and the day-month-year date are written here, not by Intl: the first Intl number
 * or date formatter a page builds loads ICU's formatting data, 40–80 ms of a phone's main thread
 * (150–400 ms at CPU ×4, in Chromium's profiles of those loads), and home, /books and a
 * book page paid it inside their first render, for « 12 500 F CFA » and « 1 juin 2025 ». Their
 * French forms are fixed (CLDR: digits grouped by a narrow no-break space, a decimal comma);
 * test/format.test.ts holds each to Intl's own output over thousands of values. Anything else
 * (another currency, a negative or huge number, the date with its time) still goes to Intl.
 */

/** French thousands separator (U+202F) and the no-break space before a unit (U+00A0). */
const GROUP = '\u202f';
const NO_BREAK = '\u00a0';

const intlNumbers = new Map<string, Intl.NumberFormat>();

function intlNumber(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let fmt = intlNumbers.get(key);
  if (!fmt) {
    fmt = new Intl.NumberFormat('fr-FR', options);
    intlNumbers.set(key, fmt);
  }
  return fmt;
}

/**
 * A non-negative number rounded half up to `digits` decimals, as French writes it; undefined
 * for what has no plain decimal form (Infinity; under a millionth or from 10²¹, written with an
 * exponent): Intl writes those.
 */
function frenchDecimal(value: number, digits: number): string | undefined {
  // The shortest decimal that reads back as this double is what Intl rounds (1.15 is
  // 1.149999… in binary and still rounds to 1,2): round that decimal, as text.
  const text = String(value);
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const [whole = '', decimals = ''] = text.split('.');
  let units = BigInt(whole + decimals.slice(0, digits).padEnd(digits, '0'));
  if ((decimals[digits] ?? '0') >= '5') units += 1n;
  const scale = 10n ** BigInt(digits);
  const integer = String(units / scale).replace(/\B(?=(\d{3})+(?!\d))/g, GROUP);
  const fraction = String(units % scale)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return fraction ? `${integer},${fraction}` : integer;
}

/** "12 345", or "4,5" with `maximumFractionDigits` 1: a count or an average, in French. */
export function formatNumber(value: number, maximumFractionDigits = 0): string {
  const written = value >= 0 ? frenchDecimal(value, maximumFractionDigits) : undefined;
  return written ?? intlNumber(`n${maximumFractionDigits}`, { maximumFractionDigits }).format(value);
}

export interface PriceOptions {
  /** Label for a price of zero: "Gratuit" (default) or "Don". */
  zeroLabel?: 'Gratuit' | 'Don';
  /** ISO currency code; XOF by default (XAF prints the same FCFA amounts). */
  currency?: string;
}

/** "12 500 F CFA" (French formatting, no decimals); 0 is a gift: "Gratuit" or "Don". */
export function formatPrice(price: number | string | null | undefined, options: PriceOptions = {}): string {
  const value = typeof price === 'string' ? Number(price) : price;
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  if (value === 0) return options.zeroLabel ?? 'Gratuit';
  const currency = options.currency ?? 'XOF';
  const written = currency === 'XOF' && value > 0 ? frenchDecimal(value, 0) : undefined;
  if (written !== undefined) return `${written}${NO_BREAK}F${GROUP}CFA`;
  return intlNumber(currency, {
    style: 'currency',
    currency,
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }).format(value);
}

const MONTHS = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];

/** "1 juin 2025" (the reader's time zone; empty for an invalid date). */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

const dateTimeFormatter = once(() => new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short' }));

/** "12 juin 2025, 14:05" (empty for a missing or invalid date). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormatter().format(date);
}

/** Two-letter initials ("Jean Mba" → "JM", "Administrateur" → "AD"). */
export function initials(name: string | null | undefined, fallback = 'AD'): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return fallback;
  const first = words[0] ?? '';
  const second = words[1] ?? '';
  const letters = second ? `${first[0] ?? ''}${second[0] ?? ''}` : first.slice(0, 2);
  return letters.toUpperCase() || fallback;
}

/**
 * URL of a stored profile image (SPEC section 3): a value starting with http is used as is,
 * anything else is a path under /storage/. Null when there is no image.
 */
export function profileImageUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  if (value.startsWith('http')) return value;
  return `/storage/${value.replace(/^\/+/, '').replace(/^storage\//, '')}`;
}

/**
 * A Gabonese mobile number as people write it (« 077 12 34 56 »): the server keeps digits only,
 * and nine digits in a row are hard to check against one's own phone.
 */
export function formatPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  const national = digits.length === 12 && digits.startsWith('241') ? digits.slice(3) : digits;
  if (!/^0\d{8}$/.test(national)) return phone;
  return national.replace(/^(\d{3})(\d{2})(\d{2})(\d{2})$/, '$1 $2 $3 $4');
}
