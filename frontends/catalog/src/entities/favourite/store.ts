import { favouriteIdsQuery, isFavourite, setFavourite, useFavouriteIds, useSession } from '@cartable/ui';
import { useQuery } from '@tanstack/react-query';
import type { Id } from '../../shared/books';

/*
 * Favourites (SPEC section 4): on the server for the member (catalog's /favourites), the
 * browser's "favourites" key kept as the offline copy. The store itself is @cartable/ui's (one
 * instance shared with the shell, which merges the copy at login).
 */
export { useFavouriteIds };

/** Reads the member's favourites from the server once a minute at most (every heart shares it). */
export function useFavouritesSync() {
  const { user, isAuthenticated } = useSession();
  useQuery({ ...favouriteIdsQuery(user?.id ?? ''), enabled: isAuthenticated && Boolean(user) });
}

/** Adds or removes the id on the server; resolves with the new state (true = favourite). */
export async function toggleFavourite(id: Id, ids: Id[]): Promise<boolean> {
  const on = !isFavourite(ids, id);
  await setFavourite(id, on);
  return on;
}
