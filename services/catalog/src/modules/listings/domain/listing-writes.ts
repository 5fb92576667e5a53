import {
  type AccessClaims,
  type BookFields,
  type BookStatus,
  dealMessages,
  RELIST_AFTER_MONTHS,
} from '@cartable/contracts';
import {
  conflict,
  type Db,
  forbidden,
  hasPermission,
  notFound,
  type Storage,
  type Transaction,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import { existingCategoryIds, existingCityIds } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { listingCreated, listingDeleted, listingStatusChanged, listingUpdated } from '../events.ts';
import { deleteStoredPhotos, type PhotoKeys, type ProcessedPhoto, storePhotos } from './photos.ts';

export const LISTING_NOT_FOUND = 'Ce manuel est introuvable.';
const LOT_IS_FIXED = 'Les manuels d’un lot ne se changent pas : supprimez l’annonce et publiez un nouveau lot.';

/** A listing's form as the member sent it: its fields, new photos by slot, and slots to empty. */
export interface ListingForm {
  fields: BookFields;
  photos: Map<number, ProcessedPhoto>;
  remove: Set<number>;
}

/**
 * The books of a lot, from the class list they were picked in: all of one published list, in
 * its order, else a 422 on lot_items. The class lists module answers; the service wires it in
 * (listings imports nothing of class lists, which reads listings).
 */
export interface LotSource {
  resolve(
    db: Db,
    itemIds: number[],
  ): Promise<{ levelId: number; items: Array<queries.LotItemValues & { subjectId: number | null }> }>;
}
type Lot = Awaited<ReturnType<LotSource['resolve']>>;

/**
 * Whether a listing was sold in a confirmed deal (trust's, wired in by the service: listings
 * imports nothing of trust, which reads listings). Such a listing stays sold: put back on sale,
 * it could be « sold » again to the same friend for one more rating.
 */
export interface DealSales {
  soldInConfirmedDeal(db: Db, bookId: number): Promise<boolean>;
  /** What the same book in this condition sold for over the last `months` (price-guide.ts). */
  soldPrices(
    db: Db,
    book: { isbn?: string | null | undefined; title?: string | null | undefined; condition: string },
    months: number,
  ): Promise<{ deals: number; median: number | null; low: number | null; high: number | null }>;
}

const RELIST_OWNER_ONLY = 'Seul le propriétaire de l’annonce peut la remettre en vente.';
const RELIST_AVAILABLE_ONLY = 'Seule une annonce disponible peut être remise en vente.';
const RELIST_TOO_SOON = `Cette annonce a moins de ${RELIST_AFTER_MONTHS} mois : elle est encore parmi les récentes.`;

/** Refuses any status change of a listing a confirmed deal sold (409). */
export async function refuseIfSoldInDeal(db: Db, sales: DealSales, bookId: number) {
  if (await sales.soldInConfirmedDeal(db, bookId)) throw conflict(dealMessages.soldInDeal);
}

/** The listing's columns a lot sets: what its search vector reads, and its level and subjects among its categories. */
function lotColumns(lot: Lot, categoryIds: number[]) {
  const subjects = lot.items.map((i) => i.subjectId).filter((id): id is number => id !== null);
  return {
    lotTitles: lot.items.map((i) => [i.title, i.isbn].filter(Boolean).join(' ')).join(' · '),
    lotAuthors: [...new Set(lot.items.map((i) => i.author).filter(Boolean))].join(' · '),
    categoryIds: [...new Set([...categoryIds, lot.levelId, ...subjects])],
  };
}

/** Deletes a listing with its event (recorded before the row goes); the stored photos after the commit. */
export async function deleteListing(t: Transaction, storage: Storage, bookId: number) {
  await listingDeleted(t, storage, bookId);
  await queries.deleteListing(t.db, bookId);
}

/** A listing's new status (a deal confirmed sells it), with its event, in the caller's transaction. */
export async function changeStatus(t: Transaction, storage: Storage, book: queries.ListingRow, status: BookStatus) {
  await queries.setListingStatus(t.db, book.id, status);
  await listingStatusChanged(t, storage, book.id, book.status);
}

/**
 * A member's listings: publishing, editing, deleting and changing their status (SPEC.md section 2
 * « Mes manuels »). Each write records its event in the same transaction; other modules react to
 * it there (a sold listing's boost ends, a saved search or « Ma liste » is told), and the caches
 * that show listings hear of it once it is committed.
 */
export function listingWrites(options: { uow: UnitOfWork; storage: Storage; lots: LotSource; sales: DealSales }) {
  const { uow, storage, lots, sales } = options;
  const db = uow.db;

  /** Refuses unknown categories and towns with field errors. */
  async function checkReferences(fields: BookFields) {
    const [found, towns] = await Promise.all([
      existingCategoryIds(db, fields.category_ids),
      existingCityIds(db, [fields.city_id]),
    ]);
    const errors: Record<string, string[]> = {};
    if (found.length !== new Set(fields.category_ids).size) errors.category_ids = ['Catégorie inconnue'];
    if (!towns.length) errors.city_id = ['Ville inconnue'];
    if (Object.keys(errors).length) throw unprocessable(errors);
  }

  /** The listing, if this member may change it (its owner, or a holder of books.update.any). */
  async function owned(id: number, claims: AccessClaims) {
    const book = await queries.listingById(db, id);
    if (!book) throw notFound(LISTING_NOT_FOUND);
    if (book.userId !== claims.sub && !hasPermission(claims, 'books.update.any')) throw forbidden();
    return book;
  }

  /** Runs the write with its photos stored first; a write that fails leaves no photo behind. */
  async function withPhotos<T>(
    photos: Map<number, ProcessedPhoto>,
    write: (stored: Map<number, PhotoKeys>) => Promise<T>,
  ) {
    const stored = await storePhotos(storage, photos);
    try {
      return await write(stored);
    } catch (err) {
      await deleteStoredPhotos(storage, [...stored.values()]);
      throw err;
    }
  }

  return {
    owned,

    /** Publishes a listing (a lot when the form names class list books); returns its id. */
    async create(userId: string, form: ListingForm) {
      await checkReferences(form.fields);
      const lot = form.fields.lot_items ? await lots.resolve(db, form.fields.lot_items) : null;
      return withPhotos(form.photos, (stored) =>
        uow.run(async (t) => {
          const values = queries.listingValues(form.fields);
          const bookId = await queries.insertListing(t.db, userId, {
            ...values,
            ...(lot ? lotColumns(lot, values.categoryIds) : {}),
          });
          if (lot) await queries.insertLotItems(t.db, bookId, lot.items);
          // Photos fill the slots in order: image1 and image3 sent make slots 1 and 2.
          const ordered = [...stored.entries()].sort(([a], [b]) => a - b);
          await queries.insertPhotos(
            t.db,
            ordered.map(([, keys], i) => ({ bookId, slot: i + 1, ...keys })),
          );
          await listingCreated(t, storage, bookId);
          return bookId;
        }),
      );
    },

    /** Edits a listing its editor may change (`owned`); a lot keeps its books and their subjects. */
    async update(existing: queries.ListingRow, form: ListingForm) {
      if (form.fields.lot_items) throw unprocessable({ lot_items: [LOT_IS_FIXED] });
      await checkReferences(form.fields);
      const values = queries.listingValues(form.fields);
      if (existing.lotTitles !== null)
        values.categoryIds = [...new Set([...values.categoryIds, ...(await queries.lotSubjects(db, existing.id))])];
      const before = await queries.photosOf(db, existing.id);
      const replaced = await withPhotos(form.photos, async (stored) => {
        await uow.run(async (t) => {
          await queries.updateListing(t.db, existing.id, values);
          await queries.removePhotoRows(t.db, existing.id, [...new Set([...stored.keys(), ...form.remove])]);
          await queries.insertPhotos(
            t.db,
            [...stored.entries()].map(([slot, keys]) => ({ bookId: existing.id, slot, ...keys })),
          );
          await listingUpdated(t, storage, existing.id, existing.price);
        });
        return before.filter((photo) => stored.has(photo.slot) || form.remove.has(photo.slot));
      });
      await deleteStoredPhotos(storage, replaced);
      return existing.id;
    },

    async remove(id: number, claims: AccessClaims) {
      const book = await owned(id, claims);
      const photos = await queries.photosOf(db, book.id);
      await uow.run((t) => deleteListing(t, storage, book.id));
      await deleteStoredPhotos(storage, photos);
    },

    /**
     * Puts the owner's listing back on sale as new, once it has waited RELIST_AFTER_MONTHS months
     * unsold: the next school year's buyers see it among the recent ones.
     */
    async relist(id: number, claims: AccessClaims) {
      const book = await owned(id, claims);
      if (book.userId !== claims.sub) throw forbidden(RELIST_OWNER_ONLY);
      await uow.run(async (t) => {
        // Under the listing's lock: its status and date as they are now, a deal confirmed meanwhile seen.
        const locked = await queries.lockListing(t.db, book.id);
        if (!locked) throw notFound(LISTING_NOT_FOUND);
        await refuseIfSoldInDeal(t.db, sales, book.id);
        if (locked.status !== 'disponible') throw conflict(RELIST_AVAILABLE_ONLY);
        const due = new Date(locked.createdAt);
        due.setMonth(due.getMonth() + RELIST_AFTER_MONTHS);
        if (due > new Date()) throw conflict(RELIST_TOO_SOON);
        await queries.relistListing(t.db, book.id);
        await listingUpdated(t, storage, book.id, book.price);
      });
    },

    /** Whether the status changed. */
    async setStatus(id: number, claims: AccessClaims, status: BookStatus) {
      const book = await owned(id, claims);
      if (status === book.status) return false;
      await uow.run(async (t) => {
        // Under the listing's lock: a deal confirmed at this moment is seen.
        await queries.lockListing(t.db, book.id);
        await refuseIfSoldInDeal(t.db, sales, book.id);
        await changeStatus(t, storage, book, status);
      });
      return true;
    },
  };
}
export type ListingWrites = ReturnType<typeof listingWrites>;
