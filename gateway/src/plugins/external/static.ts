import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** The federated frontends: the shell at /, each remote at /mf/<remote>/. */
export const REMOTES = ['catalog', 'admin'] as const;

export interface StaticOptions {
  /** Folder holding shell/, catalog/ and admin/, each with its built dist/. */
  frontendsDir: string;
  /** Local image storage, served under /storage/ (none with an object store: routes/frontends.ts). */
  storageDir?: string | undefined;
}

/** The shell's built files, or null before `npm run build:frontends`. */
export function shellDist(frontendsDir: string): string | null {
  const dist = resolve(frontendsDir, 'shell', 'dist');
  return existsSync(join(dist, 'index.html')) ? dist : null;
}

/**
 * Entry files must always be fresh (the service worker above all: a phone learns of a new version
 * through it), as must the files whose names carry no hash; hashed chunks never change, so they
 * are cached for a year.
 */
function cacheHeaders(reply: FastifyReply, file: string) {
  // The file sent may be the one precompressed beside it (sw.js.br): the rule is the original's.
  const path = file.replace(/\.(?:br|gz)$/, '');
  const entry =
    path.endsWith('.html') ||
    path.endsWith('remoteEntry.js') ||
    path.endsWith('mf-manifest.json') ||
    path.endsWith('/sw.js') ||
    path.endsWith('.webmanifest') ||
    path.includes('/icons/');
  reply.header('cache-control', entry ? 'no-cache' : 'public, max-age=31536000, immutable');
}

const immutable = (reply: FastifyReply) => reply.header('cache-control', 'public, max-age=31536000, immutable');

/**
 * Files served as they are (@fastify/static): the frontends' builds with the .br and .gz written
 * beside each file at build time (scripts/precompress.mjs), and local images. Files are looked up
 * at request time, so a rebuild is served without a restart; a missing file falls through to the
 * not-found handler (routes/frontends.ts: a page or a 404 JSON).
 */
const staticFiles: FastifyPluginAsync<StaticOptions> = async (app, options) => {
  const shell = shellDist(options.frontendsDir);
  if (shell) {
    await app.register(fastifyStatic, {
      root: shell,
      prefix: '/',
      index: false,
      cacheControl: false,
      setHeaders: cacheHeaders,
      preCompressed: true,
    });
  }
  for (const remote of REMOTES) {
    const dist = resolve(options.frontendsDir, remote, 'dist');
    if (!existsSync(dist)) continue;
    await app.register(fastifyStatic, {
      root: dist,
      prefix: `/mf/${remote}/`,
      // reply.sendFile comes with the first registration.
      decorateReply: !shell && remote === 'catalog',
      cacheControl: false,
      setHeaders: cacheHeaders,
      preCompressed: true,
    });
  }
  if (options.storageDir) {
    mkdirSync(options.storageDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: resolve(options.storageDir),
      prefix: '/storage/',
      decorateReply: false,
      // Keys are never reused (a new photo gets a new key), so they can be cached for ever.
      cacheControl: false,
      setHeaders: immutable,
    });
  }
};

export const staticPlugin = fp(staticFiles, { name: 'cartable-static' });
