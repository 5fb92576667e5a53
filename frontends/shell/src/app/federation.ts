import { init, loadRemote } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

/**
 * Remotes are resolved at run time, relative to the current origin: the gateway serves each one
 * under /mf/<name>/. Nothing about them is baked into the shell's build.
 */
export const REMOTES = {
  catalog: { name: 'cartable_catalog', entry: '/mf/catalog/remoteEntry.js', module: 'catalog/routes' },
  admin: { name: 'cartable_admin', entry: '/mf/admin/remoteEntry.js', module: 'admin/App' },
} as const;

export type RemoteName = keyof typeof REMOTES;

// Same name as the build-time container: `init` joins the instance created by the build plugin,
// so remotes get the host's shared singletons (react, react-router, @cartable/ui...).
init({
  name: 'cartable_shell',
  remotes: (Object.keys(REMOTES) as RemoteName[]).map((alias) => ({
    name: REMOTES[alias].name,
    alias,
    entry: new URL(REMOTES[alias].entry, window.location.origin).href,
  })),
});

const loaded = new Map<RemoteName, ComponentType>();

/** The remote's root component, once loaded (for an instant render on later visits). */
export function loadedRemote(name: RemoteName): ComponentType | undefined {
  return loaded.get(name);
}

/**
 * Loads a remote's exposed routes component. Rejects when the remote entry or its chunks cannot be
 * fetched; a later call tries again (the runtime does not keep failed loads).
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

/** Loads in flight: the early start (below) and the page's loader share one. */
const loading = new Map<RemoteName, Promise<ComponentType>>();

async function fetchRemoteRoutes(name: RemoteName): Promise<ComponentType> {
  const mod = await loadRemote<{ default?: ComponentType }>(REMOTES[name].module);
  const Component = mod?.default;
  if (typeof Component !== 'function') {
    throw new Error(`Le module ${REMOTES[name].module} n'expose pas de composant.`);
  }
  loaded.set(name, Component);
  return Component;
}

/** The shell's own pages; every other path (home, /books, a book, messages…) is the catalog's. */
const SHELL_PAGES =
  /^\/(admin|about|contact|terms|privacy|cookies|legal|forgot-password|reset-password|register-success|verify-email|login|register|dashboard|profile|notifications)(\/|$)/;

/**
 * Starts loading the remote of the page the visitor opened, without waiting for React's first
 * render (on a slow phone, that render is a few hundred milliseconds the download can use).
 * A failure is left to the page's loader, which asks again and offers to retry.
 */
export function startLoadingRemoteFor(pathname: string): void {
  // A member's public profile (/profile/:userId) is the catalog's, their own (/profile) the shell's.
  if (SHELL_PAGES.test(pathname) && !/^\/profile\/[^/]+/.test(pathname)) return;
  loadRemoteRoutes('catalog').catch(() => {});
}
