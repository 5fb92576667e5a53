import { once } from './once';

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string): Intl.NumberFormat {
  let fmt = formatters.get(currency);
  if (!fmt) {
    fmt = new Intl.NumberFormat('fr-FR', {
      style: 'currency',
      currency,
      minimumFractionDigits: 0,
      maximumFractionDigits: 0,
    });
    formatters.set(currency, fmt);
  }
  return fmt;
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
  return formatter(options.currency ?? 'XOF').format(value);
}

const dateFormatter = once(() => new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' }));

/** "1 juin 2025". */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormatter().format(date);
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
