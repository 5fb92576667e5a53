import type { ComponentType } from 'react';

/**
 * Remotes are resolved at run time, relative to the current origin: the gateway serves each one
 * under /mf/<name>/. Nothing about them is baked into the shell's build.
 */
export const REMOTES = {
  catalog: { name: 'cartable_catalog', entry: '/mf/catalog/remoteEntry.js', module: './routes' },
  admin: { name: 'cartable_admin', entry: '/mf/admin/remoteEntry.js', module: './App' },
} as const;

export type RemoteName = keyof typeof REMOTES;

/** A remote entry's container (Module Federation): `init` with our share scope, then `get` a module. */
interface Container {
  init(shareScope: unknown): unknown;
  get(module: string): Promise<() => { default?: ComponentType }>;
}

// The bundler's sharing runtime (rspack's ModuleFederationPluginV1, libs/ui/build/rspack.ts).
declare const __webpack_init_sharing__: (scope: string) => Promise<void>;
declare const __webpack_share_scopes__: Record<string, unknown>;

/** The remote entry's script, added once; a failed one is removed so that a retry asks again. */
function loadEntry(name: RemoteName): Promise<Container> {
  const { name: global, entry } = REMOTES[name];
  const found = (window as unknown as Record<string, Container | undefined>)[global];
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = entry;
    script.async = true;
    script.onload = () => {
      const container = (window as unknown as Record<string, Container | undefined>)[global];
      if (container) resolve(container);
      else {
        script.remove();
        reject(new Error(`Le module ${name} ne s'est pas déclaré.`));
      }
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`Impossible de charger ${entry}.`));
    };
    document.head.appendChild(script);
  });
}

/** Containers given the shell's shared modules (react, the router, @cartable/ui…): once each. */
const initialised = new Map<RemoteName, Promise<Container>>();

function container(name: RemoteName): Promise<Container> {
  let ready = initialised.get(name);
  if (!ready) {
    ready = (async () => {
      const remote = await loadEntry(name);
      await __webpack_init_sharing__('default');
      await remote.init(__webpack_share_scopes__.default);
      return remote;
    })();
    ready.catch(() => initialised.delete(name));
    initialised.set(name, ready);
  }
  return ready;
}

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
  const factory = await (await container(name)).get(REMOTES[name].module);
  const Component = factory()?.default;
  if (typeof Component !== 'function') {
    throw new Error(`Le module ${name}/${REMOTES[name].module} n'expose pas de composant.`);
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
