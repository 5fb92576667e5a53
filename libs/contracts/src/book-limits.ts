/**
 * A listing's limits (SPEC.md section 3), in a module without zod (`@cartable/contracts/book-limits`):
 * the listing form draws with them before its schema is loaded.
 */
export const MAX_BOOK_IMAGES = 3;
export const MAX_BOOK_PRICE = 10_000_000;
export const MAX_BOOK_CATEGORIES = 5;
/** Books in one lot, at most. */
export const LOT_ITEMS_MAX = 30;
export const BOOKS_PER_PAGE_MAX = 50;
