/**
 * GET /books/{id}?as=visitor: the page as a visitor sees it, whoever asks. The client reads it so
 * when it has no session, and the gateway preloads that address from a book page's HTML: a
 * distinct address, because the browser hands a preloaded answer to any fetch of the same URL,
 * even one carrying a member's token (whose page may differ: their own hidden listing, a block).
 * A module without zod (`@cartable/contracts/book-page`): the public pages' first script stays small.
 */
export const VISITOR_BOOK_PAGE = { as: 'visitor' } as const;

/**
 * A cookie the client keeps while it holds a session: no credential (the token stays in the
 * page's storage), only a hint that lets the gateway leave out the visitor's read of a book
 * page, which a member's page would download for nothing before reading its own.
 */
export const MEMBER_HINT_COOKIE = 'cartable_member';

/**
 * Set by the pages while the phone saves data (libs/ui data-saver): the gateway then does not
 * preload a book page's large photo, which the page shows only on a tap.
 */
export const DATA_SAVER_COOKIE = 'cartable_data_saver';
