import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticPlugin } from '../src/plugins/external/static.ts';
import { frontendsPlugin } from '../src/routes/frontends.ts';
import { createBookPreviews, linkPreviewRoutes } from '../src/routes/link-previews.ts';

/**
 * A listing's link carries its preview in the HTML the gateway serves (Open Graph, Twitter), from
 * a real HTTP catalog stand-in: found, removed (404), and catalog too slow (the page is still
 * served at once with the generic tags).
 */
const SHELL = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="description" content="Cartable : manuels."><title>Cartable · Manuels</title></head><body><div id="root"></div></body></html>`;

let catalog: FastifyInstance;
let gateway: FastifyInstance;
let dir: string;
let catalogCalls = 0;

/** The slow catalog's request: held until released, and when it was answered. */
const slowCatalog = (() => {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { released, release: () => release(), answeredAt: undefined as number | undefined };
})();

beforeAll(async () => {
  catalog = Fastify({ forceCloseConnections: true });
  catalog.get('/books/:id', async (request, reply) => {
    catalogCalls++;
    const id = Number((request.params as { id: string }).id);
    if (id === 7) {
      return {
        book: {
          id: 7,
          title: 'Maths 6e <Collection "Excellence">',
          price: 3500,
          condition: 'bon',
          city: { id: 1, name: 'Libreville', province: 'Estuaire' },
          description: 'Très peu servi. '.repeat(20),
          image1: '/storage/books/7/display.webp',
          images: [
            { slot: 2, url: '/storage/books/7/back.webp', thumbnail_url: '/storage/books/7/back-thumb.webp' },
            { slot: 1, url: '/storage/books/7/display.webp', thumbnail_url: '/storage/books/7/thumb.webp' },
          ],
        },
      };
    }
    if (id === 8)
      return {
        book: { id: 8, title: 'Lecture CP1', price: 0, condition: 'neuf', city: null, description: null, image1: null },
      };
    if (id === 9) {
      // Catalog too slow: it answers only when the test lets it (or after 30 s).
      await Promise.race([slowCatalog.released, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      slowCatalog.answeredAt = Date.now();
      return reply.status(500).send();
    }
    return reply.status(404).send({ message: 'Ce manuel est introuvable.' });
  });
  await catalog.listen({ port: 0, host: '127.0.0.1' });
  const address = catalog.server.address();
  const catalogUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  dir = mkdtempSync(join(tmpdir(), 'cartable-preview-'));
  mkdirSync(join(dir, 'shell', 'dist'), { recursive: true });
  writeFileSync(join(dir, 'shell', 'dist', 'index.html'), SHELL);
  gateway = Fastify();
  await gateway.register(staticPlugin, { frontendsDir: dir, storageDir: join(dir, 'storage') });
  await gateway.register(frontendsPlugin, { frontendsDir: dir });
  await gateway.register(linkPreviewRoutes, { bookPreview: createBookPreviews(catalogUrl) });
});

afterAll(async () => {
  slowCatalog.release();
  await gateway?.close();
  await catalog?.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = (path: string) => gateway.inject({ method: 'GET', url: path, headers: { host: 'cartable.ga' } });

describe('link previews of listings', () => {
  it('puts the title, the price in FCFA, the condition, the city and the photo in the HTML, escaped', async () => {
    const res = await page('/books/7');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html).toContain(
      '<meta property="og:title" content="Maths 6e &lt;Collection &quot;Excellence&quot;&gt; — Cartable">',
    );
    expect(html).toContain('<title>Maths 6e &lt;Collection &quot;Excellence&quot;&gt; — Cartable</title>');
    expect(html).toMatch(
      /<meta property="og:description" content="3 500 F\s?CFA · Bon état · Libreville — Très peu servi/,
    );
    const description = /<meta name="description" content="([^"]*)">/.exec(html)?.[1] ?? '';
    expect(description.length).toBeLessThanOrEqual(160);
    expect(html).toContain('<meta property="og:image" content="http://cartable.ga/storage/books/7/display.webp">');
    expect(html).toContain('<meta property="product:price:amount" content="3500">');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).toContain('<div id="root"></div>');
    // The first photo loads beside the JavaScript, with the page image's own srcset and sizes.
    expect(html).toContain(
      '<link rel="preload" as="image" href="/storage/books/7/display.webp" imagesrcset="/storage/books/7/thumb.webp 400w, /storage/books/7/display.webp 1200w" imagesizes="(min-width: 1024px) 40vw, (min-width: 640px) 60vw, 100vw" fetchpriority="high">',
    );
  });

  it('does not preload the large photo for a phone that saves data, by its browser or by its member', async () => {
    for (const headers of [{ 'save-data': 'on' }, { cookie: 'cartable_member=1; cartable_data_saver=1' }]) {
      const res = await gateway.inject({
        method: 'GET',
        url: '/books/7',
        headers: { host: 'cartable.ga', ...headers },
      });
      expect(res.body).toContain('<meta property="og:image"');
      expect(res.body).not.toContain('rel="preload" as="image"');
      expect(String(res.headers.vary)).toMatch(/save-data/);
    }
  });

  it('says « Don » for a gift and leaves the image out when there is none', async () => {
    const html = (await page('/books/8')).body;
    expect(html).toContain('<meta property="og:description" content="Don · Neuf">');
    expect(html).not.toContain('og:image');
    expect(html).not.toContain('rel="preload" as="image"');
    expect(html).toContain('<meta name="twitter:card" content="summary">');
  });

  it('says a removed listing is no longer available, as catalog says at each request', async () => {
    const before = catalogCalls;
    const first = await page('/books/404');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(
      '<meta property="og:title" content="Cette annonce n&#39;est plus disponible — Cartable">',
    );
    // No copy of catalog's listings in the gateway: catalog keeps its own, cleared by its events.
    await page('/books/404');
    expect(catalogCalls - before).toBe(2);
  });

  it('serves the generic page at once when catalog is slow, and the shell for other paths', async () => {
    const slow = await page('/books/9');
    // The page came back while catalog still held the request.
    expect(slowCatalog.answeredAt).toBeUndefined();
    slowCatalog.release();
    expect(slow.statusCode).toBe(200);
    expect(slow.body).toContain('<title>Cartable · Manuels</title>');
    expect(slow.body).not.toContain('og:title');
    expect((await page('/books/abc')).body).toContain('<title>Cartable · Manuels</title>');
    expect((await page('/books')).body).not.toContain('og:title');
  });
});
