import {
  type BookClassLists,
  CLASS_LIST_SUGGESTIONS_MAX,
  type ClassListItemSuggestion,
  classListMessages as m,
  SAVED_CLASS_LISTS_MAX,
  type SavedClassList,
} from '@cartable/contracts';
import { conflict, notFound, type Storage, type UnitOfWork, unprocessable } from '@cartable/service-kit';
import { townNames } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import * as versions from '../db/versions.ts';
import { availability } from './availability.ts';
import { basketsOf, type ExchangeWishes } from './baskets.ts';
import type { ClassListBooks } from './lists.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

const ref = (r: versions.BookListRow) => ({
  id: Number(r.id),
  level_id: Number(r.level_id),
  school_year: r.school_year,
  level_name: r.level_name ?? '',
  school_name: r.school_name,
});

/** What families do with the lists: « Ma liste », the lists they save, the listing form's autofill. */
export function familyLists(uow: UnitOfWork, storage: Storage, books: ClassListBooks, wishes?: ExchangeWishes) {
  const db = uow.db;

  async function savedLists(userId: string, listId?: number): Promise<SavedClassList[]> {
    const rows = await queries.savedListsOf(db, userId, listId);
    const [lists, towns, itemIds] = await Promise.all([
      books.listDtos(rows.map((r) => r.list)),
      townNames(
        db,
        rows.flatMap((r) => (r.saved.cityId ? [r.saved.cityId] : [])),
      ),
      queries.itemIdsOfLists(
        db,
        rows.map((r) => r.list.id),
      ),
    ]);
    return rows.map((r, i) => {
      const ids = new Set(itemIds.filter((x) => x.listId === r.list.id).map((x) => x.id));
      const owned = r.saved.ownedItemIds.filter((id) => ids.has(id));
      const town = r.saved.cityId ? towns.get(r.saved.cityId) : undefined;
      return {
        list: lists[i]!,
        city: r.saved.cityId && town ? { id: r.saved.cityId, name: town.name, province: town.province } : null,
        owned_item_ids: owned,
        missing_count: ids.size - owned.length,
        created_at: iso(r.saved.createdAt),
        updated_at: iso(r.saved.updatedAt),
      };
    });
  }

  return {
    savedLists,

    /** « Ma liste » for this list: the town and owned books asked for, else those the member saved. */
    async availability(
      row: queries.ListRow,
      memberId: string | undefined,
      ask: { cityId?: number | undefined; owned?: number[] | undefined; perItem: number },
    ) {
      const saved = memberId ? await queries.savedList(db, memberId, row.id) : undefined;
      const [[list], items, latest] = await Promise.all([
        books.listDtos([row]),
        queries.itemsOf(db, row.id),
        versions.latestVersion(db, row.id),
      ]);
      const ids = new Set(items.map((i) => i.id));
      if (ask.cityId) await books.checkReferences({ city_id: ask.cityId });
      const marked = ask.owned ?? saved?.ownedItemIds ?? [];
      // A mark on a book since withdrawn stays in the saved list: the family had it, and it shows
      // as no longer needed rather than vanishing.
      const gone = await versions.withdrawnAmong(
        db,
        row.id,
        marked.filter((id) => !ids.has(id)),
      );
      const result = await availability(db, storage, list!, await books.itemDtos(items), {
        cityId: ask.cityId ?? saved?.cityId ?? null,
        owned: marked.filter((id) => ids.has(id)),
        perItem: ask.perItem,
        saved: Boolean(saved),
      });
      return { ...result, version: latest ? versions.versionDto(latest) : null, no_longer_needed: gone };
    },

    /** The published lists that name a listing's book, and those that withdrew it. */
    async listsOfBook(bookId: number): Promise<BookClassLists> {
      const rows = await versions.listsOfBook(db, bookId);
      return {
        named: rows.filter((r) => !r.withdrawn_at).map(ref),
        withdrawn: rows.flatMap((r) => (r.withdrawn_at ? [{ ...ref(r), withdrawn_at: iso(r.withdrawn_at) }] : [])),
      };
    },

    /** Of a page of listings, those a published list withdrew and names no more: the cards' mark. */
    async withdrawnBooks(bookIds: number[]) {
      const unique = [...new Set(bookIds)];
      if (!unique.length) return [];
      const byBook = new Map<number, ReturnType<typeof ref>[]>();
      for (const row of await versions.withdrawnListsOfBooks(db, unique)) {
        byBook.set(row.book_id, [...(byBook.get(row.book_id) ?? []), ref(row)]);
      }
      return unique.flatMap((bookId) => {
        const withdrawn = byBook.get(bookId);
        return withdrawn ? [{ book_id: bookId, withdrawn }] : [];
      });
    },

    /** Saves the list (published ones only, at most SAVED_CLASS_LISTS_MAX), or changes its town and owned books. */
    async save(userId: string, listId: number, cityId: number | null, owned: number[]) {
      const row = await books.listOrNotFound(listId);
      if (cityId) await books.checkReferences({ city_id: cityId });
      const ids = new Set((await queries.itemsOf(db, row.id)).map((i) => i.id));
      if (owned.some((id) => !ids.has(id))) throw unprocessable({ owned_item_ids: [m.ownedInvalid] });
      await uow.run(async (t) => {
        const before = await queries.savedList(t.db, userId, row.id);
        if (!before) {
          if (row.status !== 'published') throw conflict(m.notPublished);
          await queries.lockMemberSaves(t.db, userId);
          if ((await queries.savedCountOf(t.db, userId)) >= SAVED_CLASS_LISTS_MAX) throw conflict(m.tooManySaved);
        }
        // The marks on books since withdrawn are kept (« plus nécessaire »): the screen only sends
        // the current books' marks.
        const kept = (before?.ownedItemIds ?? []).filter((id) => !ids.has(id));
        await queries.saveList(t.db, userId, row.id, cityId, [...new Set([...owned, ...kept])]);
      });
      return (await savedLists(userId, row.id))[0]!;
    },

    /** « Compléter ma liste »: three baskets for the books the member's saved list still misses. */
    baskets: (userId: string, listId: number) => basketsOf(db, userId, listId, wishes),

    async unsave(userId: string, listId: number) {
      if (!(await queries.unsaveList(db, userId, listId))) throw notFound(m.savedNotFound);
    },

    /** Books of the published lists matching what is typed in the listing form. */
    async searchItems(q: string, levelId?: number): Promise<ClassListItemSuggestion[]> {
      const rows = await queries.searchItems(db, q, levelId, CLASS_LIST_SUGGESTIONS_MAX);
      return rows.map((r) => ({
        item_id: Number(r.item_id),
        title: r.title,
        author: r.author,
        publisher: r.publisher,
        year: r.year,
        isbn: r.isbn,
        level: { id: r.level_id, name: r.level_name ?? '' },
        subject: r.subject_id ? { id: r.subject_id, name: r.subject_name ?? '' } : null,
        category_ids: [r.level_id, ...(r.subject_id ? [r.subject_id] : [])],
      }));
    },
  };
}
export type FamilyLists = ReturnType<typeof familyLists>;
