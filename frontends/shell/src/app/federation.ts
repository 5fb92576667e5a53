import { loadRemote, preloadRemote } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

/**
 * The remotes the shell renders, as the federation runtime names them: the container (declared
 * with its manifest's URL in rspack.config.ts) and the module the shell mounts. The runtime reads
 * each remote's manifest, loads its entry, gives it the shell's shared modules and its plugin
 * (./remote-retry.ts) asks again for what did not arrive.
 */
export const REMOTES = {
  catalog: { container: 'cartable_catalog', module: './routes' },
  admin: { container: 'cartable_admin', module: './App' },
} as const;

export type RemoteName = keyof typeof REMOTES;

const loaded = new Map<RemoteName, ComponentType>();

/** The remote's root component, once loaded (for an instant render on later visits). */
export function loadedRemote(name: RemoteName): ComponentType | undefined {
  return loaded.get(name);
}

/** Loads in flight: the early start (below) and the page's loader share one. */
const loading = new Map<RemoteName, Promise<ComponentType>>();

/**
 * Loads a remote's exposed component. Rejects when its manifest, its entry or its chunks cannot be
 * fetched; a later call tries again (the runtime forgets failed loads).
 */
export function loadRemoteRoutes(name: RemoteName): Promise<ComponentType> {
  const cached = loaded.get(name);
  if (cached) return Promise.resolve(cached);
  let load = loading.get(name);
  if (!load) {
    load = fetchRemoteRoutes(name).finally(() => loading.delete(name));
    loading.set(name, load);
  }
  return load;
}

async function fetchRemoteRoutes(name: RemoteName): Promise<ComponentType> {
  const { container, module } = REMOTES[name];
  const exposed = await loadRemote<{ default?: ComponentType }>(`${container}/${module.slice(2)}`);
  const Component = exposed?.default;
  if (typeof Component !== 'function') {
    throw new Error(`Le module ${name}/${module} n'expose pas de composant.`);
  }
  loaded.set(name, Component);
  return Component;
}

/** The shell's own pages; every other path (home, /books, a book, messages…) is the catalog's. */
const SHELL_PAGES =
  /^\/(admin|about|contact|terms|privacy|cookies|legal|forgot-password|reset-password|register-success|verify-email|login|register|dashboard|profile|notifications)(\/|$)/;

/**
 * The catalog's pages a visitor most often opens first render a page of their own besides the
 * route table (exposed by the catalog under those names, see its rspack.config.ts).
 */
const FIRST_PAGES: Array<[RegExp, string]> = [
  [/^\/books\/?$/, './books-page'],
  [/^\/books\/\d+\/?$/, './book-page'],
];

/**
 * Starts loading the remote of the page the visitor opened, without waiting for React's first
 * render (on a slow phone, that render is a few hundred milliseconds the download can use): the
 * runtime preloads, from the catalog's manifest, the files of its route table and of the page, and
 * the route table is loaded. A failure is left to the page's loader, which asks again and offers
 * to retry.
 */
export function startLoadingRemoteFor(pathname: string): void {
  // A member's public profile (/profile/:userId) is the catalog's, their own (/profile) the shell's.
  if (SHELL_PAGES.test(pathname) && !/^\/profile\/[^/]+/.test(pathname)) return;
  const page = FIRST_PAGES.find(([pattern]) => pattern.test(pathname))?.[1];
  const { container, module } = REMOTES.catalog;
  preloadRemote([
    { nameOrAlias: container, exposes: page ? [module, page] : [module], resourceCategory: 'sync', share: false },
  ]).catch(() => {});
  loadRemoteRoutes('catalog').catch(() => {});
}
