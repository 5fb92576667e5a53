import { FAVOURITES_PER_PAGE, trustMessages } from '@cartable/contracts';
import { notFound, type UnitOfWork } from '@cartable/service-kit';
import { type Listings, shownIds } from '../../listings/index.ts';
import * as queries from '../db/queries.ts';
import { favouriteChanged } from '../events.ts';

/**
 * Favourites tied to the account (SPEC.md section 4 « Favourites »): only the member reads and
 * changes theirs (the token's subject, never an id in the request). A favourite counts while its
 * listing is in the public catalogue (not hidden, seller active). Each change records
 * catalog.favourite.added/removed, from which notifications knows whom to tell when a listing changes.
 */
export function favouriteService(uow: UnitOfWork, listings: Pick<Listings, 'cards'>) {
  const db = uow.db;

  /** The member's favourites others may see too, newest first. */
  async function ids(userId: string) {
    const all = await queries.favouriteIdsOf(db, userId);
    const shown = await shownIds(db, all);
    return all.filter((id) => shown.has(id));
  }

  return {
    ids,

    async page(userId: string, page: number, perPage = FAVOURITES_PER_PAGE) {
      const all = await ids(userId);
      return {
        data: await listings.cards.byIds(all.slice((page - 1) * perPage, page * perPage)),
        ids: all,
        total: all.length,
        per_page: perPage,
        current_page: page,
        last_page: Math.max(1, Math.ceil(all.length / perPage)),
      };
    },

    async add(userId: string, bookId: number) {
      if (!(await shownIds(db, [bookId])).size) throw notFound(trustMessages.bookNotFound);
      await uow.run(async (t) => {
        for (const added of await queries.addFavourites(t.db, userId, [bookId]))
          await favouriteChanged(t, true, userId, added);
      });
      return ids(userId);
    },

    /** Taking out what is not there is no error: the member's intent is met. */
    async remove(userId: string, bookId: number) {
      await uow.run(async (t) => {
        if (await queries.removeFavourite(t.db, userId, bookId)) await favouriteChanged(t, false, userId, bookId);
      });
      return ids(userId);
    },

    /**
     * The browser's offline copy at login: ids already there, unknown or hidden are skipped, so a
     * second merge of the same list changes nothing.
     */
    async merge(userId: string, bookIds: number[]) {
      const followable = [...(await shownIds(db, [...new Set(bookIds)]))];
      if (followable.length)
        await uow.run(async (t) => {
          const at = new Date().toISOString();
          for (const added of await queries.addFavourites(t.db, userId, followable))
            await favouriteChanged(t, true, userId, added, at);
        });
      return ids(userId);
    },
  };
}
export type FavouriteService = ReturnType<typeof favouriteService>;
