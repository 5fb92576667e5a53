import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { messages } from '@cartable/contracts';
import type { Storage } from '@cartable/service-kit';
import fastifyStatic from '@fastify/static';
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
  for (const remote of ['catalog', 'admin']) {
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

  const sendShell = (reply: FastifyReply) => {
    if (!shellBuilt) return reply.status(200).type('text/html; charset=utf-8').send(NOT_BUILT);
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html', shellDist);
  };

  app.get('/', (_request, reply) => sendShell(reply));

  // The shell's HTML, read again only when a build changes it.
  let html: { mtimeMs: number; text: string } | null = null;
  const shellHtml = () => {
    const file = join(shellDist, 'index.html');
    const { mtimeMs } = statSync(file);
    if (html?.mtimeMs !== mtimeMs) html = { mtimeMs, text: readFileSync(file, 'utf8') };
    return html.text;
  };

  // A listing's page carries its preview in the HTML (crawlers of WhatsApp, Facebook… run no script).
  const bookPreview = options.bookPreview;
  if (shellBuilt && bookPreview) {
    app.get('/books/:id', async (request, reply) => {
      const id = (request.params as { id: string }).id;
      if (!/^\d{1,9}$/.test(id)) return sendShell(reply);
      const meta = await bookPreview(Number(id), `${request.protocol}://${request.host}`);
      if (!meta) return sendShell(reply);
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').send(withPreview(shellHtml(), meta));
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
    if (isPage) return sendShell(reply);
    return reply.status(404).send({ message: path.startsWith('/api') ? messages.routeNotFound : messages.notFound });
  });
};

// Registered at the root scope: its not-found handler is the whole gateway's.
export const frontendsPlugin = fp(frontends, { name: 'cartable-frontends' });
