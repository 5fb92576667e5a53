import { describe, expect, it } from 'vitest';
import { formatDate, formatNumber, formatPhone, formatPrice } from '../src/format';

// The kit writes prices, counts and dates by hand (src/format.ts says why): each must read
// exactly as Intl writes it in French, separators included. Node carries the full ICU.
const intlPrice = new Intl.NumberFormat('fr-FR', {
  style: 'currency',
  currency: 'XOF',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const intlWhole = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const intlOneDecimal = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });
const intlDate = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' });

/** Whole numbers of every length, halves, and doubles that are not what they were written as. */
function samples(): number[] {
  const values: number[] = [];
  for (let n = 0; n <= 2_000; n++) values.push(n, n + 0.5, n / 100);
  for (let n = 1; n < 1e15; n *= 7) values.push(n, n + 0.25, n - 0.05);
  for (const tricky of [0.05, 0.15, 1.15, 1.005, 2.675, 4.35, 4.45, 9.95, 99.95, 999.95, 12_499.5, 1e14 + 0.5])
    values.push(tricky);
  let seed = 42;
  for (let i = 0; i < 5_000; i++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    values.push((seed / 2 ** 31) * 10 ** (i % 13));
  }
  return values;
}

describe('formatPrice', () => {
  it('formats XOF in French without decimals and shows zero as a gift', () => {
    expect(formatPrice(12500)).toBe('12\u202f500\u00a0F\u202fCFA');
    expect(formatPrice('3500')).toBe('3\u202f500\u00a0F\u202fCFA');
    expect(formatPrice(0)).toBe('Gratuit');
    expect(formatPrice(0, { zeroLabel: 'Don' })).toBe('Don');
    expect(formatPrice(null)).toBe('');
    expect(formatPrice('abc')).toBe('');
  });

  it('reads exactly as Intl writes an XOF amount', () => {
    for (const value of samples()) {
      if (value === 0) continue;
      expect(formatPrice(value), String(value)).toBe(intlPrice.format(value));
    }
  });

  it('leaves other currencies and negative amounts to Intl', () => {
    expect(formatPrice(12500, { currency: 'XAF' })).toBe(
      new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'XAF', maximumFractionDigits: 0 }).format(12500),
    );
    expect(formatPrice(-250)).toBe(intlPrice.format(-250));
  });
});

describe('formatNumber', () => {
  it('reads exactly as Intl writes a count or an average', () => {
    for (const value of samples()) {
      expect(formatNumber(value), String(value)).toBe(intlWhole.format(value));
      expect(formatNumber(value, 1), String(value)).toBe(intlOneDecimal.format(value));
    }
    for (const value of [-3, -0.4, 1e21, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatNumber(value), String(value)).toBe(intlWhole.format(value));
    }
  });
});

describe('formatDate', () => {
  it('reads exactly as Intl writes a day, its month and its year', () => {
    // Every day of 1999–2031, early, midday and late (the reader's time zone, as Intl's).
    for (let day = new Date(1999, 0, 1); day.getFullYear() < 2032; day.setDate(day.getDate() + 1)) {
      for (const hour of [0, 12, 23]) {
        const moment = new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour, 30);
        expect(formatDate(moment)).toBe(intlDate.format(moment));
        expect(formatDate(moment.toISOString())).toBe(intlDate.format(moment));
      }
    }
  });

  it('is empty for an invalid date', () => {
    expect(formatDate('pas une date')).toBe('');
  });
});

describe('formatPhone', () => {
  it('groups a Gabonese mobile number as people write it, and leaves anything else alone', () => {
    expect(formatPhone('077123456')).toBe('077 12 34 56');
    expect(formatPhone('+241077123456')).toBe('077 12 34 56');
    expect(formatPhone('07 12 34 56')).toBe('07 12 34 56');
  });
});
