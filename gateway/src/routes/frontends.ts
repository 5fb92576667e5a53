import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { messages } from '@cartable/contracts';
import { MEMBER_HINT_COOKIE, VISITOR_BOOK_PAGE } from '@cartable/contracts/book-page';
import type { Storage } from '@cartable/service-kit';
import escapeHtml from 'escape-html';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { REMOTES, shellDist } from '../plugins/external/static.ts';

export interface FrontendsOptions {
  /** Folder holding shell/, catalog/ and admin/, each with its built dist/. */
  frontendsDir: string;
  /** With the S3 driver, images are streamed from the bucket under /storage/. */
  storage?: Storage | undefined;
}

export interface PageOptions {
  /** The address has a query string: filters, hence other API reads than the page's own. */
  filtered?: boolean;
  /** Changes to the page's HTML (a listing's link preview: routes/link-previews.ts). */
  edit?: (html: string) => string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The shell's HTML for a page path (client-side routing), with what its first render needs. */
    sendPage(reply: FastifyReply, path: string, options?: PageOptions): FastifyReply;
    /** Whether the shell is built (else a French page says how to build it). */
    shellBuilt: boolean;
  }
}

/** A build's JSON file, parsed again only when a build changes it (`fallback` when absent or broken). */
function builtJson<T>(file: string, fallback: T): () => T {
  let cached: { mtimeMs: number; value: T } | null = null;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return fallback;
    }
    if (cached?.mtimeMs !== mtimeMs) {
      let value = fallback;
      try {
        value = JSON.parse(readFileSync(file, 'utf8')) as T;
      } catch {
        // a build being written, or a broken file: no preloads rather than a failed page
      }
      cached = { mtimeMs, value };
    }
    return cached.value;
  };
}

interface PreloadManifest {
  routes?: Array<{ pattern: string; scripts?: string[]; shared?: Record<string, string[]>; data?: string[] }>;
}

/** What a page's first render asks for: its scripts, and the API reads of its unfiltered address. */
interface PagePreloads {
  scripts: string[];
  data: string[];
}

/**
 * The scripts the first render of a page needs (libs/ui/build/preloads.ts): the remote's chunks
 * for that page (its build's preload.json), and the shared modules they consume, from the shell
 * when it provides them (its shared.json; none when in its first script), else the remote's copy.
 */
function routePreloads(remoteManifest: () => PreloadManifest, shellShared: () => Record<string, string[]>) {
  const patterns = new Map<string, RegExp | null>();
  const compiled = (pattern: string) => {
    if (!patterns.has(pattern)) {
      try {
        patterns.set(pattern, new RegExp(pattern));
      } catch {
        patterns.set(pattern, null);
      }
    }
    return patterns.get(pattern);
  };
  type Route = NonNullable<PreloadManifest['routes']>[number];
  const preloadsOf = (route: Route, groups: Record<string, string>): PagePreloads => {
    const host = shellShared();
    const shared = Object.entries(route.shared ?? {}).flatMap(([key, own]) => host[key] ?? own);
    const data = (route.data ?? [])
      // Only API paths: a broken or tampered manifest cannot make pages fetch elsewhere.
      .filter((url) => typeof url === 'string' && url.startsWith('/api/'))
      // `{id}`: that group of the page's path; a URL naming a group the pattern lacks is left out.
      .flatMap((url) => {
        let complete = true;
        const filled = url.replace(/\{(\w+)\}/g, (_, name: string) => {
          const value = groups[name];
          if (value === undefined) complete = false;
          return encodeURIComponent(value ?? '');
        });
        return complete ? [filled] : [];
      });
    return { scripts: [...new Set([...(route.scripts ?? []), ...shared])], data };
  };
  return (path: string): PagePreloads => {
    for (const route of remoteManifest().routes ?? []) {
      const match = compiled(route.pattern)?.exec(path);
      if (match) return preloadsOf(route, match.groups ?? {});
    }
    return { scripts: [], data: [] };
  };
}

/**
 * Preloads placed after the page's own stylesheet and script, which the browser asks for first.
 * An API read is preloaded `as="fetch"` with `crossorigin` (anonymous, same origin): the mode and
 * credentials of the client's fetch, which the browser needs to hand it the preloaded response.
 */
export function withPreloads(html: string, scripts: string[], data: string[] = []): string {
  if (scripts.length === 0 && data.length === 0) return html;
  const links = [
    ...data.map((url) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(url)}">`),
    ...scripts.map((src) => `<link rel="preload" as="script" href="${escapeHtml(src)}">`),
  ].join('');
  return html.replace('</head>', `${links}</head>`);
}

const NOT_BUILT = `<!doctype html><html lang="fr"><meta charset="utf-8"><title>Cartable</title>
<body style="font-family:sans-serif;padding:2rem"><h1>Cartable</h1>
<p>L'interface n'est pas encore construite. Lancez <code>npm run build:frontends</code> puis rechargez la page.</p></body></html>`;

/**
 * The pages: the shell's HTML at / and for every other page path (client-side routing), with the
 * preloads of what each page's first render needs; images from the object store under /storage/;
 * and the gateway's not-found handler (a page, or a 404 JSON for the API and for assets). The
 * built files themselves are plugins/external/static.ts's.
 */
const frontends: FastifyPluginAsync<FrontendsOptions> = async (app, options) => {
  const shell = shellDist(options.frontendsDir);

  if (options.storage) {
    const storage = options.storage;
    app.get('/storage/*', async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const object = await storage.get(key).catch(() => null);
      if (!object) return reply.status(404).send({ message: messages.notFound });
      // Keys are never reused (a new photo gets a new key), so they can be cached for ever.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
      return reply.type(key.endsWith('.webp') ? 'image/webp' : 'application/octet-stream').send(object);
    });
  }

  // The shell's HTML, read again only when a build changes it.
  let html: { mtimeMs: number; text: string } | null = null;
  const shellHtml = (dist: string) => {
    const file = join(dist, 'index.html');
    const { mtimeMs } = statSync(file);
    if (html?.mtimeMs !== mtimeMs) html = { mtimeMs, text: readFileSync(file, 'utf8') };
    return html.text;
  };

  // The scripts a remote's first pages need (their builds' preload.json), announced in the HTML.
  const shellShared = builtJson<Record<string, string[]>>(shell ? join(shell, 'shared.json') : '', {});
  const preloads = REMOTES.map((remote) =>
    routePreloads(
      builtJson<PreloadManifest>(resolve(options.frontendsDir, remote, 'dist', 'preload.json'), {}),
      shellShared,
    ),
  );

  app.decorate('shellBuilt', shell !== null);
  app.decorate('sendPage', (reply: FastifyReply, path: string, { filtered = false, edit }: PageOptions = {}) => {
    if (!shell) return reply.status(200).type('text/html; charset=utf-8').send(NOT_BUILT);
    reply.header('cache-control', 'no-cache');
    const wanted = preloads.map((preloadsFor) => preloadsFor(path));
    // A remote's page: that remote's manifest and entry first, which the shell's runtime reads
    // before the page's chunks. Only there: a page of the shell or of another remote would
    // download them for nothing (and the browser warns of a preload left unused).
    const remotes = REMOTES.filter((_, i) => wanted[i]!.scripts.length > 0);
    // A member's page reads its own book page, never the visitor's: not preloaded for them.
    const member = new RegExp(`(?:^|;\\s*)${MEMBER_HINT_COOKIE}=1(?:;|$)`).test(reply.request.headers.cookie ?? '');
    const reads = wanted
      .flatMap((p) => p.data)
      .filter((url) => !(member && new URL(url, 'http://x').searchParams.get('as') === VISITOR_BOOK_PAGE.as));
    reply.header('vary', 'cookie, save-data');
    // Its API reads only at its bare address (a query string means filters, hence other reads).
    const page = withPreloads(
      shellHtml(shell),
      [...remotes.map((remote) => `/mf/${remote}/remoteEntry.js`), ...wanted.flatMap((p) => p.scripts)],
      [...(filtered ? [] : reads), ...remotes.map((remote) => `/mf/${remote}/mf-manifest.json`)],
    );
    if (!edit && page === html?.text) return reply.sendFile('index.html', shell);
    return reply.type('text/html; charset=utf-8').send(edit ? edit(page) : page);
  });

  app.get('/', (_request, reply) => app.sendPage(reply, '/'));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !path.startsWith('/mf/') &&
      !path.startsWith('/storage/') &&
      // A missing asset (a .js or .png) is a real 404, not a page.
      !/\.[a-z0-9]{2,5}$/i.test(path);
    if (isPage) return app.sendPage(reply, path, { filtered: request.url.includes('?') });
    return reply.status(404).send({ message: path.startsWith('/api') ? messages.routeNotFound : messages.notFound });
  });
};

// Registered at the root scope: its not-found handler is the whole gateway's.
export const frontendsPlugin = fp(frontends, { name: 'cartable-frontends' });
