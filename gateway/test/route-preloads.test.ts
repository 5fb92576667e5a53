import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticPlugin } from '../src/plugins/external/static.ts';
import { frontendsPlugin } from '../src/routes/frontends.ts';

/**
 * A page's first scripts announced in its HTML: the
 * catalog's build writes which chunks the first render of /, /books and a book page needs
 * (preload.json), and the gateway adds them as preloads, so a phone asks for them beside the
 * shell's script instead of one round trip after another.
 */
const SHELL = `<!doctype html><html lang="fr"><head><title>Cartable</title><script defer src="/main.abc.js"></script></head><body><div id="root"></div></body></html>`;

let gateway: FastifyInstance;
let dir: string;
let manifest: string;

function writeManifest(
  routes: Array<{ pattern: string; scripts: string[]; shared?: Record<string, string[]>; data?: string[] }>,
  mtime: number,
) {
  writeFileSync(manifest, JSON.stringify({ routes }));
  utimesSync(manifest, mtime, mtime);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cartable-preloads-'));
  mkdirSync(join(dir, 'shell', 'dist'), { recursive: true });
  mkdirSync(join(dir, 'catalog', 'dist'), { recursive: true });
  writeFileSync(join(dir, 'shell', 'dist', 'index.html'), SHELL);
  writeFileSync(join(dir, 'catalog', 'dist', 'remoteEntry.js'), '/* entry */');
  // The shell provides the design system in its first script and the dialogs in a chunk of its own.
  writeFileSync(
    join(dir, 'shell', 'dist', 'shared.json'),
    JSON.stringify({ '@cartable/ui': [], '@cartable/ui/overlays': ['/overlays.5.js'] }),
  );
  manifest = join(dir, 'catalog', 'dist', 'preload.json');
  // Each shared module with the remote's own copy: taken only when the shell does not provide it.
  const shared = {
    '@cartable/ui': ['/mf/catalog/ui.6.js'],
    '@cartable/ui/overlays': ['/mf/catalog/overlays.7.js'],
    '@cartable/ui/categories': ['/mf/catalog/categories.8.js'],
  };
  writeManifest(
    [
      { pattern: '^/$', scripts: ['/mf/catalog/routes.1.js'], shared },
      {
        pattern: '^/books/?$',
        scripts: ['/mf/catalog/routes.1.js', '/mf/catalog/books-page.2.js'],
        // A manifest naming anything but an API path is not followed.
        data: ['/api/books?sort_by=created_at&page=1', 'https://elsewhere.example/track'],
      },
      {
        pattern: '^/books/(?<id>\\d+)/?$',
        scripts: ['/mf/catalog/routes.1.js', '/mf/catalog/book-page.3.js'],
        // `{id}` is the page's own; a group the pattern does not have leaves its URL out.
        data: ['/api/books/{id}?as=visitor', '/api/books/{slug}'],
      },
    ],
    1_000_000,
  );
  gateway = Fastify();
  await gateway.register(staticPlugin, { frontendsDir: dir, storageDir: join(dir, 'storage') });
  await gateway.register(frontendsPlugin, { frontendsDir: dir });
});

afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

const preloadsOf = async (path: string) => {
  const res = await gateway.inject({ method: 'GET', url: path });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/html');
  expect(res.headers['cache-control']).toBe('no-cache');
  return [...res.body.matchAll(/<link rel="preload" as="script" href="([^"]+)">/g)].map((m) => m[1]);
};

const fetched = async (url: string) =>
  [
    ...(await gateway.inject({ method: 'GET', url })).body.matchAll(
      /<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g,
    ),
  ].map((m) => m[1]);

describe('route preloads', () => {
  it('announces the chunks of the page’s first render after the shell’s own script', async () => {
    expect(await preloadsOf('/')).toEqual([
      '/mf/catalog/remoteEntry.js',
      '/mf/catalog/routes.1.js',
      '/overlays.5.js',
      '/mf/catalog/categories.8.js',
    ]);
    expect(await preloadsOf('/books?query=maths+6e')).toEqual([
      '/mf/catalog/remoteEntry.js',
      '/mf/catalog/routes.1.js',
      '/mf/catalog/books-page.2.js',
    ]);
    // Without a book preview function the page goes through the not-found handler: same preloads.
    expect(await preloadsOf('/books/42')).toEqual([
      '/mf/catalog/remoteEntry.js',
      '/mf/catalog/routes.1.js',
      '/mf/catalog/book-page.3.js',
    ]);
    const html = (await gateway.inject({ method: 'GET', url: '/books' })).body;
    expect(html.indexOf('/mf/catalog/books-page.2.js')).toBeGreaterThan(html.indexOf('/main.abc.js'));
  });

  it('preloads the first page of results of /books at its bare address only', async () => {
    const manifest = '/mf/catalog/mf-manifest.json';
    expect(await fetched('/books')).toEqual(['/api/books?sort_by=created_at&amp;page=1', manifest]);
    expect(await fetched('/books/')).toEqual(['/api/books?sort_by=created_at&amp;page=1', manifest]);
    // Filters make another read: nothing is preloaded that the page would not use.
    expect(await fetched('/books?query=maths')).toEqual([manifest]);
    expect(await fetched('/')).toEqual([manifest]);
  });

  it('leaves the visitor’s read of a book page out for a browser that holds a session', async () => {
    const asMember = async (url: string, cookie: string) =>
      [
        ...(await gateway.inject({ method: 'GET', url, headers: { cookie } })).body.matchAll(
          /<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g,
        ),
      ].map((m) => m[1]);
    const manifest = '/mf/catalog/mf-manifest.json';
    expect(await asMember('/books/42', 'theme=clair; cartable_member=1')).toEqual([manifest]);
    // The first page of /books is the same for everyone: still preloaded.
    expect(await asMember('/books', 'cartable_member=1')).toEqual([
      '/api/books?sort_by=created_at&amp;page=1',
      manifest,
    ]);
    // A cookie that only looks like it changes nothing.
    expect(await asMember('/books/42', 'cartable_member=0; xcartable_member=1')).toEqual([
      '/api/books/42?as=visitor',
      manifest,
    ]);
  });

  it('preloads a book page’s own read, with the id taken from its path', async () => {
    const manifest = '/mf/catalog/mf-manifest.json';
    expect(await fetched('/books/42')).toEqual(['/api/books/42?as=visitor', manifest]);
    expect(await fetched('/books/42/')).toEqual(['/api/books/42?as=visitor', manifest]);
    expect(await fetched('/books/42?from=whatsapp')).toEqual([manifest]);
  });

  it('adds nothing to a page the manifest does not name, not even the remote’s entry', async () => {
    expect(await preloadsOf('/login')).toEqual([]);
    expect(await fetched('/login')).toEqual([]);
    expect(await preloadsOf('/admin/dashboard')).toEqual([]);
    expect(await preloadsOf('/books/add')).toEqual([]);
  });

  it('follows a new build of the remote without a restart, and ignores a broken manifest', async () => {
    writeManifest([{ pattern: '^/$', scripts: ['/mf/catalog/routes.9.js'] }], 2_000_000);
    expect(await preloadsOf('/')).toEqual(['/mf/catalog/remoteEntry.js', '/mf/catalog/routes.9.js']);
    writeFileSync(manifest, '{ not json');
    utimesSync(manifest, 3_000_000, 3_000_000);
    expect(await preloadsOf('/')).toEqual([]);
    rmSync(manifest);
    expect(await preloadsOf('/')).toEqual([]);
  });
});
