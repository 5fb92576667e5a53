// Types only: @cartable/ui is loaded eagerly, the shared contracts are not (Module Federation).
import type { FavouritesPage, FavouriteWriteResponse } from '@cartable/contracts';
import { queryOptions } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { ApiError, api } from '../api/client';
import { sessionStore } from '../session/store';
import { queryKeys } from './keys';

/**
 * Favourites (SPEC section 4): stored on the server for the member (catalog's /favourites), with
 * the browser's `favourites` key (SPEC section 3) as the offline copy. Every heart, the favourites
 * page and the shell's login read this one store (a federated singleton); the server's answer
 * replaces the copy after each change, and the copy is merged into the account at login.
 */
export const FAVOURITES_KEY = 'favourites';

type Id = number | string;
const listeners = new Set<() => void>();
let cache: Id[] | null = null;

function read(): Id[] {
  if (cache) return cache;
  try {
    const value = JSON.parse(localStorage.getItem(FAVOURITES_KEY) ?? '[]') as unknown;
    cache = Array.isArray(value) ? value.filter((v): v is Id => typeof v === 'number' || typeof v === 'string') : [];
  } catch {
    cache = [];
  }
  return cache;
}

function write(ids: Id[]) {
  cache = ids;
  try {
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify(ids));
  } catch {
    // storage disabled: the list lives for this visit only
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === FAVOURITES_KEY) {
      cache = null;
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export const favouritesStore = { read, write, subscribe };

// A member who signs out (button, inactivity, a refused token) leaves no favourites behind for
// the next person on a shared phone: only members have favourites (SPEC section 4).
let signedIn = Boolean(sessionStore.getState().user);
sessionStore.subscribe(() => {
  const now = Boolean(sessionStore.getState().user);
  if (signedIn && !now) write([]);
  signedIn = now;
});

export function useFavouriteIds(): Id[] {
  return useSyncExternalStore(subscribe, read, read);
}

const sameId = (a: Id, b: Id) => String(a) === String(b);
export const isFavourite = (ids: Id[], id: Id) => ids.some((v) => sameId(v, id));

/** At most this many ids in one merge (FAVOURITES_MERGE_MAX of @cartable/contracts). */
const MERGE_MAX = 200;

/** The ids of the offline copy the server can take (whole positive numbers, at most 200). */
function offlineIds(): number[] {
  return [...new Set(read().map(Number))]
    .filter((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647)
    .slice(0, MERGE_MAX);
}

/** At login: the offline copy joins the account's favourites; the copy becomes the union. */
export async function mergeFavouritesAtLogin(): Promise<Id[]> {
  const answer = await api.post<FavouriteWriteResponse>('/favourites/merge', { book_ids: offlineIds() });
  write(answer.ids);
  return answer.ids;
}

/**
 * Adds or removes a favourite: the heart changes at once, the server decides, and its list
 * replaces the copy. On failure the heart goes back and the error is thrown.
 */
export async function setFavourite(id: Id, on: boolean): Promise<Id[]> {
  const before = read();
  write(on ? [id, ...before.filter((v) => !sameId(v, id))] : before.filter((v) => !sameId(v, id)));
  try {
    const path = `/favourites/${encodeURIComponent(String(id))}`;
    const answer = on ? await api.put<FavouriteWriteResponse>(path) : await api.delete<FavouriteWriteResponse>(path);
    write(answer.ids);
    return answer.ids;
  } catch (error) {
    // Kept on the phone to be sent when the network returns: the heart says what will be.
    if (!(error instanceof ApiError && error.isQueued)) write(before);
    throw error;
  }
}

/** The member's favourite ids as the server has them (refreshes the offline copy when read). */
export const favouriteIdsQuery = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.favourites.ids(userId),
    queryFn: async ({ signal }) => {
      const page = await api.get<FavouritesPage>('/favourites?per_page=1', { signal });
      write(page.ids);
      return page.ids;
    },
    staleTime: 60_000,
    retry: false,
  });

/** A page of the favourites page (the books, newest favourite first). */
export const favouritesPageQuery = (userId: string, page: number) =>
  queryOptions({
    queryKey: queryKeys.favourites.page(userId, page),
    queryFn: ({ signal }) => api.get<FavouritesPage>(`/favourites?page=${page}`, { signal }),
  });
