import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoCatalogue } from '../src/modules/listings/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

const silent = pino({ level: 'silent' });

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.teardown());

it('seeds a demo catalogue once, with covers, sellers, cities and categories', async () => {
  expect(await seedDemoCatalogue(h.db, h.storage, silent)).toBe(40);
  expect(await seedDemoCatalogue(h.db, h.storage, silent)).toBe(0);
  const page = await h.call('GET', '/books?per_page=50');
  expect(page.body.total).toBeGreaterThan(35);
  const book = page.body.data[0];
  expect(book.thumbnail).toMatch(/\.webp$/);
  expect(book.city).not.toBeNull();
  expect(book.categories.length).toBe(2);
  const detail = await h.call('GET', `/books/${book.id}`);
  expect(detail.body.book.seller).toMatchObject({ rating: { average: 0, count: 0 } });
  const terminale = await h.call('GET', `/books?category_ids=${await h.categoryId('Terminale')}`);
  expect(terminale.body.total).toBeGreaterThan(5);
  expect(
    (await h.call('GET', '/books?price=0&max_price=0')).body.data.every((b: { price: number }) => b.price === 0),
  ).toBe(true);
});
