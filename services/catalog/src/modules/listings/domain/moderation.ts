import type { AdminBook, AdminBookPage, adminBookListQuerySchema, BookStatus } from '@cartable/contracts';
import { conflict, notFound, type Storage, type Transaction, type UnitOfWork } from '@cartable/service-kit';
import type { z } from 'zod';
import { type MemberCard, memberCards } from '../../members/index.ts';
import type { CategoryStore } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { listingModerated, listingStatusChanged, listingUpdated } from '../events.ts';
import type { ListingCards } from './cards.ts';
import { type DealSales, deleteListing, LISTING_NOT_FOUND, refuseIfSoldInDeal } from './listing-writes.ts';
import { deleteStoredPhotos } from './photos.ts';

export type AdminBookQuery = z.output<typeof adminBookListQuerySchema>;

/**
 * Hides a listing in the caller's transaction `t`, locked until it ends (two moderators, or a
 * moderator and a report's decision, never interleave): the listing leaves the catalogue and its
 * owner is told why (catalog.book.moderated). `already` when it was hidden, `gone` when deleted;
 * nothing is written then, so running it again changes nothing.
 */
export async function hideListing(
  t: Transaction,
  storage: Storage,
  id: number,
  moderatorId: string,
  reason: string,
): Promise<'applied' | 'already' | 'gone'> {
  const book = await queries.lockListing(t.db, id);
  if (!book) return 'gone';
  if (book.hiddenAt) return 'already';
  await queries.setListingHidden(t.db, book.id, { at: new Date(), reason });
  await listingUpdated(t, storage, book.id);
  await listingModerated(t, book, 'hidden', moderatorId, reason);
  return 'applied';
}

const owner = (m: MemberCard | undefined) =>
  m ? { id: m.id, name: m.name, username: m.username, email: m.email } : null;

/**
 * The back office's listings (SPEC.md section 2 « Gestion des livres »), for holders of
 * books.update.any: every listing, hidden and sold ones too; hide, show again, change the status,
 * delete, each with a reason its owner is told by e-mail (catalog.book.moderated). Each action
 * locks the row until its transaction ends, so two moderators' actions do not interleave.
 */
export function listingModeration(options: {
  uow: UnitOfWork;
  storage: Storage;
  categories: CategoryStore;
  cards: ListingCards;
  sales: DealSales;
}) {
  const { uow, storage, categories, cards, sales } = options;
  const db = uow.db;

  /** Listings as the back office shows them: the public Book plus its owner. */
  async function adminBooks(ids: number[]): Promise<AdminBook[]> {
    if (!ids.length) return [];
    const books = await cards.books(await cards.rows(ids));
    const owners = await memberCards(
      db,
      books.map((b) => b.user_id),
    );
    return books.map((book) => ({ ...book, owner: owner(owners.get(book.user_id)) }));
  }

  async function adminBook(id: number) {
    const [book] = await adminBooks([id]);
    if (!book) throw notFound(LISTING_NOT_FOUND);
    return book;
  }

  async function locked(t: { db: typeof db }, id: number) {
    const book = await queries.lockListing(t.db, id);
    if (!book) throw notFound(LISTING_NOT_FOUND);
    return book;
  }

  return {
    adminBook,

    async page(query: AdminBookQuery): Promise<AdminBookPage> {
      const view = await categories.view();
      const categoryIds =
        query.category_id === undefined
          ? undefined
          : view.graph.has(query.category_id)
            ? view.graph.within(query.category_id)
            : [];
      const { ids, total } = await queries.adminPage(
        db,
        {
          search: query.search,
          status: query.status,
          hidden: query.hidden,
          cityId: query.city_id,
          ownerId: query.owner_id,
          categoryIds,
        },
        { by: query.sort_by ?? 'created_at', direction: query.sort_direction ?? 'desc' },
        { limit: query.per_page, offset: (query.page - 1) * query.per_page },
      );
      return {
        data: await adminBooks(ids),
        meta: {
          current_page: query.page,
          last_page: Math.max(1, Math.ceil(total / query.per_page)),
          total,
          per_page: query.per_page,
        },
      };
    },

    /** Whether the status changed. */
    async setStatus(id: number, status: BookStatus, moderatorId: string, reason: string | null) {
      return uow.run(async (t) => {
        const book = await locked(t, id);
        if (book.status === status) return false;
        await refuseIfSoldInDeal(t.db, sales, book.id);
        await queries.setListingStatus(t.db, book.id, status);
        await listingStatusChanged(t, storage, book.id, book.status);
        await listingModerated(t, book, 'status_changed', moderatorId, reason, status);
        return true;
      });
    },

    async hide(id: number, moderatorId: string, reason: string) {
      await uow.run(async (t) => {
        const outcome = await hideListing(t, storage, id, moderatorId, reason);
        if (outcome === 'gone') throw notFound(LISTING_NOT_FOUND);
        if (outcome === 'already') throw conflict('Cette annonce est déjà masquée.');
      });
    },

    async unhide(id: number, moderatorId: string) {
      await uow.run(async (t) => {
        const book = await locked(t, id);
        if (!book.hiddenAt) throw conflict("Cette annonce n'est pas masquée.");
        await queries.setListingHidden(t.db, book.id, null);
        await listingUpdated(t, storage, book.id);
        await listingModerated(t, book, 'unhidden', moderatorId, null);
      });
    },

    /** The owner's own deletion (photos removed, catalog.book.deleted), plus the moderation event. */
    async remove(id: number, moderatorId: string, reason: string) {
      const book = await queries.listingById(db, id);
      if (!book) throw notFound(LISTING_NOT_FOUND);
      const photos = await queries.photosOf(db, book.id);
      await uow.run(async (t) => {
        await listingModerated(t, book, 'deleted', moderatorId, reason);
        await deleteListing(t, storage, book.id);
      });
      await deleteStoredPhotos(storage, photos);
    },
  };
}
export type ListingModeration = ReturnType<typeof listingModeration>;
