import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.teardown());

it('boots with the school categories and an empty catalogue', async () => {
  const tree = await h.call('GET', '/categories/hierarchy');
  expect(tree.body.categories.map((c: { name: string }) => c.name)).toEqual(['Primaire', 'Collège', 'Lycée']);
  const books = await h.call('GET', '/books');
  expect(books.body).toEqual({ data: [], total: 0, per_page: 12, current_page: 1, last_page: 1 });
});
