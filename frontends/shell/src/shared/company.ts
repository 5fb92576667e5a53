/**
 * Facts shared by the static pages (about, terms, privacy, cookies, legal notice), so the
 * publisher, the contact details and the revision date read the same everywhere.
 * The phone number and the host are placeholders until the company's details are final.
 */
export const COMPANY = {
  brand: 'Cartable',
  name: 'Cartable SAS',
  form: 'société par actions simplifiée de droit gabonais',
  city: 'Libreville',
  address: 'Libreville, Gabon',
  email: 'contact@cartable.ga',
  phone: '+241 011 00 00 00',
  /** "tel:" form of the phone number. */
  phoneHref: 'tel:+241011000000',
  website: 'cartable.ga',
} as const;

/**
 * Host named in the legal notice. Placeholder: Cartable operates its own servers; replace with
 * the hosting provider's legal name, address and phone if the site moves to one.
 */
export const HOSTING = {
  operator: 'Cartable SAS',
  location: 'Libreville, Gabon',
  email: 'contact@cartable.ga',
} as const;

/** The legal notice states these hours; the contact page states its own (SPEC section 2). */
export const LEGAL_PHONE_HOURS = 'du lundi au vendredi, de 9h à 17h (heure de Libreville)';

/** Support reply target (SPEC section 9). */
export const SUPPORT_REPLY = '24 heures';

/** Minimum age to use the platform (SPEC section 1). */
export const MINIMUM_AGE = 15;

/** Revision date of the four legal documents (SPEC section 2). */
export const LAST_UPDATED = { iso: '2025-06-01', label: '1er juin 2025' } as const;
