import type { AccessClaims, BookDetail } from '@cartable/contracts';
import { Cache, type Db, hasPermission, notFound } from '@cartable/service-kit';
import { findBookPage, type SellerBadgeSql } from '../db/queries.ts';
import { type ListingCards, sellerOf } from './cards.ts';
import { LISTING_NOT_FOUND } from './listing-writes.ts';
import type { PriceGuides } from './price-guide.ts';

export interface BookPage {
  userId: string;
  book: BookDetail;
}

/**
 * The book page (GET /books/{id}): the listing, its photos, its seller as this viewer may see
 * them, and what the same book usually sells for (« Prix habituel »). A visitor's page is the same for every visitor: it is kept 10 s (a listing's link goes
 * round a class's WhatsApp group, and its visitors come within the same minutes), until an event
 * it depends on is committed (`visitorPages.clear`, wired in listings.ts). Members always read
 * the row (their seller block, their own listing).
 */
export function bookPages(options: { db: Db; sellerBadge: SellerBadgeSql; cards: ListingCards; prices: PriceGuides }) {
  const { db, sellerBadge, cards, prices } = options;
  const visitorPages = new Cache<number, BookPage>({ max: 2000, ttlMs: 10_000 });

  /** The page as this viewer may see it (a visitor without claims); 404 when they may not. */
  async function read(id: number, claims?: AccessClaims): Promise<BookPage> {
    // One prepared statement: the book, its photos, its seller and the viewer's block.
    const row = await findBookPage(db, sellerBadge, id, claims?.sub);
    if (!row) throw notFound(LISTING_NOT_FOUND);
    const { seller, away } = sellerOf(row);
    const privileged = claims?.sub === row.userId || Boolean(claims && hasPermission(claims, 'books.update.any'));
    // Hidden by the moderation, or its seller deactivated by an administrator (until
    // reactivation): only its owner and the moderators still see it.
    if ((row.hiddenAt || away) && !privileged) throw notFound(LISTING_NOT_FOUND);
    const [[book], usualPrice] = await Promise.all([
      cards.books([row]),
      prices.usual({ isbn: row.isbn, title: row.title, condition: row.condition }),
    ]);
    return { userId: row.userId, book: { ...book!, seller, usual_price: usualPrice } };
  }

  return {
    /** A member's page (read each time), or a visitor's (kept). */
    page: (id: number, claims?: AccessClaims) => (claims ? read(id, claims) : visitorPages.read(id, () => read(id))),
    visitorPages,
  };
}
export type BookPages = ReturnType<typeof bookPages>;
