import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { messages } from '@cartable/contracts';
import type { Storage } from '@cartable/service-kit';
import fastifyStatic from '@fastify/static';
import escapeHtml from 'escape-html';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { type PreviewMeta, withPreview } from '../link-preview.ts';

export interface FrontendsOptions {
  /** Folder holding shell/, catalog/ and admin/, each with its built dist/. */
  frontendsDir: string;
  /** Local image storage, served under /storage/ from disk… */
  storageDir: string;
  /** …or, with the S3 driver, the objects streamed from the bucket. */
  storage?: Storage | undefined;
  /** A listing's link preview (Open Graph tags), for /books/{id}. */
  bookPreview?: ((id: number, origin: string) => Promise<PreviewMeta | null>) | undefined;
}

/** Entry files must always be fresh; hashed chunks never change, so they are cached for a year. */
function cacheHeaders(reply: FastifyReply, path: string) {
  const entry = path.endsWith('.html') || path.endsWith('remoteEntry.js') || path.endsWith('mf-manifest.json');
  reply.header('cache-control', entry ? 'no-cache' : 'public, max-age=31536000, immutable');
}

const REMOTES = ['catalog', 'admin'] as const;

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
 * credentials of the client's fetch, which the browser needs to hand it the preloaded answer.
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
 * The shell at /, the remotes at /mf/catalog/ and /mf/admin/, images at /storage/, and the
 * shell's index.html for every other page path (client-side routing); /api stays JSON.
 */
const frontends: FastifyPluginAsync<FrontendsOptions> = async (app, options) => {
  const shellDist = resolve(options.frontendsDir, 'shell', 'dist');
  const shellBuilt = existsSync(join(shellDist, 'index.html'));

  if (shellBuilt) {
    await app.register(fastifyStatic, {
      root: shellDist,
      prefix: '/',
      index: false,
      // Files are looked up at request time, so a rebuild is served without a restart; a
      // missing file falls through to the not-found handler below (page or JSON 404).
      wildcard: true,
      cacheControl: false,
      setHeaders: cacheHeaders,
      // The .br and .gz written at build time (scripts/precompress.mjs), with Vary: Accept-Encoding.
      preCompressed: true,
    });
  }
  for (const remote of REMOTES) {
    const dist = resolve(options.frontendsDir, remote, 'dist');
    if (!existsSync(dist)) continue;
    await app.register(fastifyStatic, {
      root: dist,
      prefix: `/mf/${remote}/`,
      decorateReply: !shellBuilt && remote === 'catalog',
      cacheControl: false,
      setHeaders: cacheHeaders,
      preCompressed: true,
    });
  }
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
  } else {
    mkdirSync(options.storageDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: resolve(options.storageDir),
      prefix: '/storage/',
      decorateReply: false,
      cacheControl: false,
      setHeaders: (reply: FastifyReply) => reply.header('cache-control', 'public, max-age=31536000, immutable'),
    });
  }

  // The shell's HTML, read again only when a build changes it.
  let html: { mtimeMs: number; text: string } | null = null;
  const shellHtml = () => {
    const file = join(shellDist, 'index.html');
    const { mtimeMs } = statSync(file);
    if (html?.mtimeMs !== mtimeMs) html = { mtimeMs, text: readFileSync(file, 'utf8') };
    return html.text;
  };

  // The scripts a remote's first pages need (their builds' preload.json), announced in the HTML.
  const shellShared = builtJson<Record<string, string[]>>(join(shellDist, 'shared.json'), {});
  const preloads = REMOTES.map((remote) =>
    routePreloads(
      builtJson<PreloadManifest>(resolve(options.frontendsDir, remote, 'dist', 'preload.json'), {}),
      shellShared,
    ),
  );
  /**
   * The shell's HTML for a page: with preloads of what its first render will ask for, if known;
   * its API reads only at its bare address (a query string means filters, hence other reads).
   */
  const pageHtml = (path: string, filtered: boolean) => {
    const wanted = preloads.map((preloadsFor) => preloadsFor(path));
    return withPreloads(
      shellHtml(),
      wanted.flatMap((p) => p.scripts),
      filtered ? [] : wanted.flatMap((p) => p.data),
    );
  };

  const sendShell = (reply: FastifyReply, path: string, filtered = false) => {
    if (!shellBuilt) return reply.status(200).type('text/html; charset=utf-8').send(NOT_BUILT);
    reply.header('cache-control', 'no-cache');
    const page = pageHtml(path, filtered);
    if (page === html?.text) return reply.sendFile('index.html', shellDist);
    return reply.type('text/html; charset=utf-8').send(page);
  };

  app.get('/', (_request, reply) => sendShell(reply, '/'));

  // A listing's page carries its preview in the HTML (crawlers of WhatsApp, Facebook… run no script).
  const bookPreview = options.bookPreview;
  if (shellBuilt && bookPreview) {
    app.get('/books/:id', async (request, reply) => {
      const id = (request.params as { id: string }).id;
      const path = `/books/${id}`;
      if (!/^\d{1,9}$/.test(id)) return sendShell(reply, path);
      const filtered = request.url.includes('?');
      const meta = await bookPreview(Number(id), `${request.protocol}://${request.host}`);
      if (!meta) return sendShell(reply, path, filtered);
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').send(withPreview(pageHtml(path, filtered), meta));
    });
  }

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
    if (isPage) return sendShell(reply, path, request.url.includes('?'));
    return reply.status(404).send({ message: path.startsWith('/api') ? messages.routeNotFound : messages.notFound });
  });
};

// Registered at the root scope: its not-found handler is the whole gateway's.
export const frontendsPlugin = fp(frontends, { name: 'cartable-frontends' });
