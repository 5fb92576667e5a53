/**
 * Limits the forms show before their schemas are loaded (SPEC.md sections 3, 5 and 9), in a module
 * without zod (`@cartable/contracts/limits`); the schemas that hold the API to them import them from here.
 */

// ── a listing ──
export const MAX_BOOK_IMAGES = 3;
export const MAX_BOOK_PRICE = 10_000_000;
export const MAX_BOOK_CATEGORIES = 5;
/** Books in one lot, at most. */
export const LOT_ITEMS_MAX = 30;
export const BOOKS_PER_PAGE_MAX = 50;

// ── a catalogue search ──
/**
 * What one search may ask, so that no request costs the catalogue more than a family's search:
 * a title and an author fit in 100 characters and 12 words (« physique chimie terminale D
 * Hachette » is 6), and a level with its subjects and a few more fit in 20 categories. « Tout
 * sélectionner » sends no category filter at all.
 */
export const SEARCH_TEXT_MAX_LENGTH = 100;
export const SEARCH_TEXT_MAX_WORDS = 12;
export const SEARCH_CATEGORIES_MAX = 20;

// ── a message ──
export const MAX_MESSAGE_LENGTH = 2000;

// ── a comment, a rating's comment ──
/** SPEC.md section 5: 2 to 500 characters; the counter warns under 50 left (section 9). */
export const COMMENT_MIN_LENGTH = 2;
export const COMMENT_MAX_LENGTH = 500;
export const COMMENT_WARNING_LEFT = 50;

// ── a CSV the product writes ──
/**
 * A cell a spreadsheet would read as a formula: it begins with =, +, - or @, or with a tab or a
 * carriage return (OWASP, CSV injection); such a cell is written with a leading ' (text).
 * service-kit's writeCsv applies it on the server, the back office's figures-only export in the
 * browser; papaparse's own pattern stops at a line break (`=1\n2` would pass), hence this one.
 */
export const CSV_FORMULA_START = /^[=+\-@\t\r]/;

// ── the price guide ──
/** « Prix habituel » rests on at least this many confirmed sales of the same book and condition. */
export const PRICE_GUIDE_MIN_DEALS = 3;
/** Sales older than this many months are left out: editions and prices move. */
export const PRICE_GUIDE_MONTHS = 24;

// ── the school year ──
/**
 * A listing still on sale this many months after it was published may be put back on sale in one
 * tap (it shows as new again): one published at the rentrée comes back for next year's sellers'
 * season, in June and July.
 */
export const RELIST_AFTER_MONTHS = 10;

// ── alerts by SMS ──
/** SMS alerts a member may receive in 24 hours, all kinds together; past it, the alert stays by e-mail and in-app. */
export const SMS_ALERTS_PER_DAY = 5;
/** A phone verification code: 6 digits, 10 minutes, 5 tries; a new one a minute after the last at the earliest. */
export const PHONE_CODE_TTL_MINUTES = 10;
export const PHONE_CODE_MAX_ATTEMPTS = 5;
export const PHONE_CODE_RESEND_SECONDS = 60;
/** Codes per 24 hours: to one number (whoever asks), and asked by one member (whatever the numbers). */
export const PHONE_CODES_PER_NUMBER_PER_DAY = 5;
export const PHONE_CODES_PER_MEMBER_PER_DAY = 8;
/**
 * How long a listing stays « Réservé » for a family once its seller proposed them a deal for a
 * book their saved list misses (the seller accepted): two days to meet, then it is offered again.
 */
export const BASKET_HOLD_HOURS = 48;
