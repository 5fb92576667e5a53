import { type AddressInfo, createServer } from 'node:net';
import { VISITOR_BOOK_PAGE_SHARED_SECONDS } from '@cartable/contracts';
import { createRedis } from '@cartable/service-kit';
import { inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.ts';
import { ANONYMOUS_VIEWS_PER_ADDRESS, createViewCounter } from '../src/modules/listings/domain/view-counter.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * A book's views count once per visitor per book per day (a member
 * by their id, a visitor by their address and User-Agent), so 200 hits do not make it featured.
 */
let h: CatalogHarness;
let seller: string;
beforeAll(async () => {
  h = await startCatalog();
  seller = (await h.token()).token;
});
afterAll(() => h?.teardown());

describe('view counts', () => {
  async function newBook(title: string) {
    const res = await h.form(
      'POST',
      '/books',
      {
        title,
        author: 'IPN',
        condition: 'bon',
        price: '2500',
        city_id: String(await h.cityId('Libreville')),
        category_ids: String(await h.categoryId('CM1')),
      },
      {},
      seller,
    );
    expect(res.status).toBe(201);
    return res.body.book.id as number;
  }
  const view = (id: number, from: { address?: string; userAgent?: string; token?: string } = {}) =>
    h.app.inject({
      method: 'GET',
      url: `/books/${id}`,
      remoteAddress: from.address ?? '198.51.100.7',
      headers: {
        'user-agent': from.userAgent ?? 'Mozilla/5.0 (Linux; Android 14)',
        ...(from.token ? { authorization: `Bearer ${from.token}` } : {}),
      },
    });
  const viewsOf = async (id: number) => {
    await h.views.flush();
    return (await h.call('GET', `/books/${id}`, undefined, seller)).body.book.views as number;
  };

  it('counts a visitor once per book and day, however often they reload', async () => {
    const id = await newBook('Lecture CM1 vues');
    for (let i = 0; i < 200; i++) expect((await view(id)).statusCode).toBe(200);
    expect(await viewsOf(id)).toBe(1);
    // Another visitor, and a member twice: two more.
    await view(id, { address: '203.0.113.9' });
    const member = (await h.token()).token;
    await view(id, { token: member });
    await view(id, { token: member, address: '192.0.2.44' });
    expect(await viewsOf(id)).toBe(3);
  });

  it('counts a visitor once across replicas: another one asks Redis, having no memory of them', async () => {
    const id = await newBook('Lecture CM1 deux répliques');
    const redis = createRedis(h.config.REDIS_URL);
    const replica = createViewCounter(h.db, pino({ level: 'silent' }), {
      flushMs: 60_000,
      redis,
      prefix: h.config.REDIS_KEY_PREFIX,
    });
    try {
      await view(id, { address: '198.51.100.20', userAgent: 'Mozilla/5.0 (Linux; Android 13)' });
      await h.views.flush();
      replica.add(id, { address: '198.51.100.20', userAgent: 'Mozilla/5.0 (Linux; Android 13)' });
      replica.add(id, { address: '198.51.100.21', userAgent: 'Mozilla/5.0 (Linux; Android 13)' });
      await replica.flush();
      expect(await viewsOf(id)).toBe(2);
    } finally {
      await replica.stop();
      await redis.quit();
    }
  });

  it('lets a shared cache in front keep a visitor’s page a few seconds, never a member’s', async () => {
    const id = await newBook('Lecture CM1 partagée');
    const visitorPage = await view(id, { address: '198.51.100.30' });
    expect(visitorPage.headers['cache-control']).toBe(
      `public, max-age=0, s-maxage=${VISITOR_BOOK_PAGE_SHARED_SECONDS}`,
    );
    const memberPage = await view(id, { token: (await h.token()).token });
    expect(memberPage.headers['cache-control']).toBeUndefined();
  });

  it('tells visitors with long User-Agents apart, and counts each once', async () => {
    const id = await newBook('Lecture CM1 navigateurs bavards');
    const long = (n: number) => `Mozilla/5.0 ${'(extension) '.repeat(400)}${n}`;
    for (let i = 0; i < 20; i++) await view(id, { address: '198.51.100.80', userAgent: long(1) });
    for (let i = 0; i < 20; i++) await view(id, { address: '198.51.100.80', userAgent: long(2) });
    expect(await viewsOf(id)).toBe(2);
  });

  it('counts at most a few visitors from one address, whatever User-Agent a script sends', async () => {
    const id = await newBook('Lecture CM1 robots');
    for (let i = 0; i < 200; i++) await view(id, { address: '198.51.100.66', userAgent: `robot/${i}` });
    expect(await viewsOf(id)).toBe(ANONYMOUS_VIEWS_PER_ADDRESS);
  });

  it('does not make a book featured with 200 anonymous hits', async () => {
    const pumped = await newBook('Lecture CM1 gonflée');
    const liked = await newBook('Lecture CM1 appréciée');
    for (let i = 0; i < 200; i++) await view(pumped, { address: '198.51.100.99' });
    for (let i = 0; i < 3; i++) await view(liked, { token: (await h.token()).token });
    await h.views.flush();
    const featured = (await h.call('GET', '/books/featured')).body.featured_books.map((b: { id: number }) => b.id);
    expect(featured.indexOf(liked)).toBeGreaterThanOrEqual(0);
    expect(featured.indexOf(liked)).toBeLessThan(featured.indexOf(pumped));
  });
  it('writes the counts of more books than one statement takes (FLUSH_CHUNK), each once', async () => {
    const rows = Array.from({ length: 1_200 }, (_, i) => ({
      userId: '5e11e000-0000-4000-8000-0000000000aa',
      title: `Vu ${i}`,
      author: 'IPN',
      condition: 'bon' as const,
      price: 1000,
    }));
    const ids = (await h.db.insert(schema.books).values(rows).returning({ id: schema.books.id })).map((r) => r.id);
    for (const id of ids) h.views.add(id, { memberId: '5e11e000-0000-4000-8000-0000000000bb' });
    await h.views.flush();
    const counted = await h.db
      .select({ views: schema.books.views })
      .from(schema.books)
      .where(inArray(schema.books.id, ids));
    expect(counted).toHaveLength(ids.length);
    expect(counted.every((r) => r.views === 1)).toBe(true);
  });
  it('still counts with Redis away, by its own memory: once a viewer, a few an address', async () => {
    const id = await newBook('Lecture CM1 sans Redis');
    // A port nothing listens on: every command fails at once (no offline queue).
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const away = createRedis(`redis://127.0.0.1:${port}`);
    away.on('error', () => {});
    const counter = createViewCounter(h.db, pino({ level: 'silent' }), { flushMs: 60_000, redis: away });
    try {
      for (let i = 0; i < ANONYMOUS_VIEWS_PER_ADDRESS + 5; i++) {
        counter.add(id, { address: '198.51.100.99', userAgent: `Script/${i}` });
        counter.add(id, { address: '198.51.100.99', userAgent: `Script/${i}` });
      }
      counter.add(id, { memberId: '5e11e000-0000-4000-8000-0000000000cc' });
      await counter.flush();
      expect(await viewsOf(id)).toBe(ANONYMOUS_VIEWS_PER_ADDRESS + 1);
    } finally {
      await counter.stop();
      away.disconnect();
    }
  });
});
