import { type Book, conditionLabels, type Seller, statusLabel } from '@cartable/contracts';
import type { Db, Storage } from '@cartable/service-kit';
import type { CategoryStore, CategoryView } from '../../taxonomy/index.ts';
import { type BookPageRow, type BookRow, findListingRows, lotItemsOf } from '../db/queries.ts';

/**
 * Where the rows of the listings last shown are kept (the search module's feed keeps them equal
 * to the table): pages it answers cost no trip to PostgreSQL. Absent, every row is read.
 */
export interface ListingRowsCache {
  rows(ids: number[], read: (ids: number[]) => Promise<BookRow[]>): Promise<BookRow[]>;
}

/**
 * Listings as the API shows them (services/catalog/API.md « Book »): their rows, read through the
 * rows cache when there is one, turned into Books with the category names of the current view.
 */
export function listingCards(options: {
  db: Db;
  storage: Storage;
  categories: CategoryStore;
  rowsCache?: ListingRowsCache | undefined;
}) {
  const { db, storage, categories, rowsCache } = options;
  const read = (ids: number[]) => findListingRows(db, ids);

  /**
   * The Book of each row kept (the rows cache hands the same row objects page after page), built
   * once per category view: building them was a tenth of a listing page's CPU. Lots are built
   * each time (their books are read apart).
   */
  const built = new WeakMap<BookRow, { view: CategoryView; book: Book }>();

  /** The lots among these rows, as the API shows them (one query, only when the page holds a lot). */
  async function lotsOf(view: CategoryView, rows: BookRow[]) {
    const lots = new Map<number, NonNullable<Book['lot']>>();
    const ids = rows.filter((r) => r.isLot).map((r) => r.id);
    if (!ids.length) return lots;
    for (const r of await lotItemsOf(db, ids)) {
      const subject = r.subjectId !== null ? view.graph.nodes.get(r.subjectId) : undefined;
      const lot = lots.get(r.bookId) ?? { items: [] };
      lot.items.push({
        title: r.title,
        author: r.author,
        publisher: r.publisher,
        year: r.year,
        isbn: r.isbn,
        subject: subject ? { id: subject.id, name: subject.name } : null,
      });
      lots.set(r.bookId, lot);
    }
    return lots;
  }

  function toBook(r: BookRow, view: CategoryView, lots: Map<number, Book['lot']>): Book {
    const bookCategories = r.categoryIds
      .filter((id) => view.graph.has(id))
      .map((id) => ({ id, name: view.graph.nodes.get(id)!.name }));
    const photos = r.images.map((i) => ({
      slot: i.slot,
      url: storage.url(i.displayKey),
      thumbnail_url: storage.url(i.thumbnailKey),
    }));
    const slot = (n: number) => photos.find((i) => i.slot === n)?.url ?? null;
    return {
      id: r.id,
      title: r.title,
      author: r.author,
      isbn: r.isbn,
      description: r.description,
      publisher: r.publisher,
      publication_year: r.publicationYear,
      condition: r.condition,
      condition_label: conditionLabels[r.condition],
      condition_flags: r.conditionFlags,
      price: r.price,
      status: r.status,
      status_label: statusLabel(r.status),
      is_negociable: r.isNegotiable,
      is_negotiable: r.isNegotiable,
      is_exchange_possible: r.isExchangePossible,
      city: r.cityId && r.cityName ? { id: r.cityId, name: r.cityName, province: r.province } : null,
      city_id: r.cityId,
      category: bookCategories[0] ?? null,
      categories: bookCategories,
      category_ids: bookCategories.map((c) => c.id),
      image1: slot(1),
      image2: slot(2),
      image3: slot(3),
      thumbnail: photos[0]?.thumbnail_url ?? null,
      images: photos,
      user_id: r.userId,
      views: r.views,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
      hidden: r.hiddenAt !== null,
      hidden_at: r.hiddenAt?.toISOString() ?? null,
      hidden_reason: r.hiddenAt ? r.hiddenReason : null,
      lot: lots.get(r.id) ?? null,
    };
  }

  /** The Books of these rows, in their order. */
  async function books(rows: BookRow[]): Promise<Book[]> {
    const view = await categories.view();
    const lots = await lotsOf(view, rows);
    return rows.map((r) => {
      const kept = r.isLot ? undefined : built.get(r);
      if (kept?.view === view) {
        // The one field that changes without a new row (the rows cache applies counted views).
        kept.book.views = r.views;
        return kept.book;
      }
      const book = toBook(r, view, lots);
      if (!r.isLot) built.set(r, { view, book });
      return book;
    });
  }

  return {
    /** The rows of these listings, in the order of the ids (those that no longer exist left out). */
    rows: (ids: number[]) => (rowsCache ? rowsCache.rows(ids, read) : read(ids)),
    /** The Books of these listings, in the order of the ids. */
    byIds: async (ids: number[]) => books(await (rowsCache ? rowsCache.rows(ids, read) : read(ids))),
    books,
  };
}
export type ListingCards = ReturnType<typeof listingCards>;

/**
 * The seller block of the book page, from the members projection (no call to auth); a viewer the
 * seller blocked, or who blocked the seller (messaging's blocks, projected), does not get their
 * phone and e-mail.
 */
export function sellerOf(row: BookPageRow): { seller: Seller | null; away: boolean } {
  const s = row.seller;
  if (!s?.userId) return { seller: null, away: false };
  const hidden = row.blockedViewer;
  return {
    away: Boolean(s.deactivatedAt ?? s.deletedAt),
    seller: {
      id: s.userId,
      name: s.name,
      username: s.username,
      profile_image: s.profileImage,
      city: row.sellerCity,
      province: row.sellerProvince,
      created_at: s.createdAt.toISOString(),
      show_email: !hidden && s.email !== null,
      email: hidden ? null : s.email,
      show_phone: !hidden && s.phone !== null,
      phone: hidden ? null : s.phone,
      rating: { average: s.ratingAverage, count: s.ratingCount },
      badge: row.badge,
    },
  };
}
