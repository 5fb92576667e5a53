import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Numbers without a country code are Gabon's (077 12 34 56 is +241 77 12 34 56). */
export const DEFAULT_COUNTRY = 'GA';

export type PhoneCheck = { ok: true; e164: string; display: string } | { ok: false; reason: 'invalid' | 'not_mobile' };

/** A number as typed, in E.164 when it is a valid number able to receive SMS (mobile, or fixed-or-mobile). */
export function normalisePhone(input: string): PhoneCheck {
  const parsed = parsePhoneNumberFromString(input, DEFAULT_COUNTRY);
  if (!parsed?.isValid()) return { ok: false, reason: 'invalid' };
  const type = parsed.getType();
  if (type && type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') return { ok: false, reason: 'not_mobile' };
  return { ok: true, e164: parsed.number, display: parsed.formatInternational() };
}

/** As a person reads it; the stored E.164 when it cannot be parsed again. */
export function displayPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/** For logs: the country code and the last two digits only (+241******56). */
export function maskPhone(e164: string): string {
  if (e164.length <= 6) return '***';
  return `${e164.slice(0, 4)}${'*'.repeat(e164.length - 6)}${e164.slice(-2)}`;
}
