/// <reference lib="webworker" />
/**
 * The service worker: what a phone keeps so that Cartable opens without the network and reads
 * again the pages already seen. Built by frontends/shell/scripts/build-service-worker.mjs (rspack,
 * then Workbox's injectManifest, which lists the shell's files in `self.__WB_MANIFEST`).
 *
 * - The shell's own files are precached (Workbox keeps them by revision): a new build of the shell
 *   is a new service worker, which waits until the page says « Mettre à jour ».
 * - Pages, the remotes' manifests and entries and the API's reads go to the network first and fall
 *   back to what was stored, marked so that the page can say « hors ligne, vu il y a … ».
 * - The remotes' hashed files and the photos never change under one name: from the phone first.
 */
import {
  API_CACHE,
  FORGET_MEMBER,
  NEVER_OPENED_OFFLINE,
  OFFLINE_HEADER,
  PAGES_CACHE,
  PHOTOS_CACHE,
  RECEIVED_AT_HEADER,
  SCRIPTS_CACHE,
  SKIP_WAITING,
} from '@cartable/ui/offline-names';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { forgetWaitingWrites, queueOfflineWrites } from './write-queue';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

/** The start page and the catalogue's entry files: what an offline start needs before any visit. */
const WARM = {
  [PAGES_CACHE]: ['/'],
  [SCRIPTS_CACHE]: ['/mf/catalog/mf-manifest.json', '/mf/catalog/remoteEntry.js'],
};

const DAY = 24 * 3600;

/** Copies an answer with other headers (an answer's headers cannot be changed in place). */
async function withHeaders(response: Response, set: Record<string, string>): Promise<Response> {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(set)) headers.set(name, value);
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}

/** Stores when an answer was received, and tells the page that a stored answer stands in for the network. */
const marksOffline: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) =>
    response.status === 200 ? withHeaders(response, { [RECEIVED_AT_HEADER]: new Date().toISOString() }) : null,
  cachedResponseWillBeUsed: async ({ cachedResponse }) =>
    cachedResponse ? withHeaders(cachedResponse, { [OFFLINE_HEADER]: '1' }) : cachedResponse,
};

/**
 * Which member's reads may be stored: one more at each logout or change of member. A read started
 * under an earlier one is not stored (its answer may arrive after the cache was emptied).
 */
let memberGeneration = 0;
const sameMember: WorkboxPlugin = {
  requestWillFetch: async ({ request, state }) => {
    if (state) state.generation = memberGeneration;
    return request;
  },
  cacheWillUpdate: async ({ response, state }) => (state?.generation === memberGeneration ? response : null),
};

/** Only JSON is kept of the API: a receipt's PDF or an export's CSV is downloaded again. */
const jsonOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) =>
    response.status === 200 && (response.headers.get('content-type') ?? '').includes('application/json')
      ? response
      : null,
};

/** Neither the network nor the phone has it: a French answer the page shows like any error. */
const neverOpened: WorkboxPlugin = {
  handlerDidError: async () =>
    new Response(JSON.stringify({ message: NEVER_OPENED_OFFLINE }), {
      status: 503,
      headers: { 'content-type': 'application/json; charset=utf-8', [OFFLINE_HEADER]: '1' },
    }),
};

/** A page never opened here, offline: the start page's HTML (the shell routes on the phone). */
const anyPage: WorkboxPlugin = {
  handlerDidError: async () => {
    const cache = await caches.open(PAGES_CACHE);
    return (await cache.match('/')) ?? Response.error();
  },
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('install', (event) => {
  event.waitUntil(
    Promise.all(
      Object.entries(WARM).map(async ([name, urls]) => {
        const cache = await caches.open(name);
        // A failure here (offline at install) must not stop the install: the routes fill the caches later.
        await Promise.all(urls.map((url) => cache.add(url).catch(() => undefined)));
      }),
    ),
  );
});

// The first install takes the open page at once; a later one waits for « Mettre à jour ».
clientsClaim();
self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === SKIP_WAITING) void self.skipWaiting();
  if (type === FORGET_MEMBER) {
    memberGeneration++;
    event.waitUntil(Promise.all([caches.delete(API_CACHE), forgetWaitingWrites()]));
  }
});

registerRoute(
  new NavigationRoute(
    new NetworkFirst({
      cacheName: PAGES_CACHE,
      networkTimeoutSeconds: 5,
      plugins: [new ExpirationPlugin({ maxEntries: 60 }), anyPage],
    }),
  ),
);

const sameOrigin = (url: URL) => url.origin === self.location.origin;

// Writes made offline, kept and sent once the network returns (./write-queue.ts).
queueOfflineWrites();

// A remote's manifest and entry keep their names from one build to the next: the network's first.
registerRoute(
  ({ url }) => sameOrigin(url) && /^\/mf\/[^/]+\/(?:mf-manifest\.json|remoteEntry\.js)$/.test(url.pathname),
  new NetworkFirst({ cacheName: SCRIPTS_CACHE, networkTimeoutSeconds: 5 }),
);

// The remotes' files, and the shell's screens not precached (loaded as they are opened): their
// names carry their content's hash.
registerRoute(
  ({ url }) =>
    sameOrigin(url) && (url.pathname.startsWith('/mf/') || /^\/[\w-]+\.[0-9a-f]{8}\.(?:js|css)$/.test(url.pathname)),
  new CacheFirst({
    cacheName: SCRIPTS_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 90 * DAY }),
    ],
  }),
);

registerRoute(
  ({ url }) => sameOrigin(url) && url.pathname.startsWith('/storage/'),
  new CacheFirst({
    cacheName: PHOTOS_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 60 * DAY, purgeOnQuotaError: true }),
    ],
  }),
);

// The API's reads (never a stream of events, nor a write: only GETs are routed).
registerRoute(
  ({ url, request }) =>
    sameOrigin(url) &&
    url.pathname.startsWith('/api/') &&
    !(request.headers.get('accept') ?? '').includes('text/event-stream'),
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: 8,
    // A token renewed between two reads is the same member: the URL alone finds the answer.
    matchOptions: { ignoreVary: true },
    plugins: [
      sameMember,
      jsonOnly,
      marksOffline,
      new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 30 * DAY, purgeOnQuotaError: true }),
      neverOpened,
    ],
  }),
);
