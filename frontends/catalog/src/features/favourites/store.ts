import { useSyncExternalStore } from 'react';
import type { Id } from '../../shared/books';
import { createIdListStore } from '../../shared/storage';

/* Favourites (SPEC section 4): only for a signed-in member, ids kept under "favourites". */
export const favouritesStore = createIdListStore('favourites');

export function useFavouriteIds(): Id[] {
  return useSyncExternalStore(favouritesStore.subscribe, favouritesStore.read, favouritesStore.read);
}

/** Adds or removes the id; returns the new state (true = favourite). */
export function toggleFavourite(id: Id): boolean {
  const ids = favouritesStore.read();
  const present = ids.some((v) => String(v) === String(id));
  favouritesStore.write(present ? ids.filter((v) => String(v) !== String(id)) : [id, ...ids]);
  return !present;
}
