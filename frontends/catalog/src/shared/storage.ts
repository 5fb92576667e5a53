import type { Id } from './books';

/** A list of ids in localStorage, shared by every component through one small store. */
export function createIdListStore(key: string) {
  const listeners = new Set<() => void>();
  let cache: Id[] | null = null;

  const read = (): Id[] => {
    if (cache) return cache;
    try {
      const value = JSON.parse(localStorage.getItem(key) ?? '[]') as unknown;
      cache = Array.isArray(value) ? value.filter((v): v is Id => typeof v === 'number' || typeof v === 'string') : [];
    } catch {
      cache = [];
    }
    return cache;
  };

  const write = (ids: Id[]) => {
    cache = ids;
    try {
      localStorage.setItem(key, JSON.stringify(ids));
    } catch {
      // storage disabled: the list lives for this visit only
    }
    for (const listener of listeners) listener();
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key) {
        cache = null;
        listener();
      }
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  };

  return { read, write, subscribe };
}

/** A preference such as the grid/list view. */
export function readPreference<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return allowed.includes(value as T) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

export function writePreference(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // ignore
  }
}
