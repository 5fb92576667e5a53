import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedClassListDefinitions, seedClassLists } from '../src/db/class-lists-seed.ts';
import { classListItems, classLists } from '../src/db/schema.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

let h: CatalogHarness;

beforeAll(async () => {
  h = await startCatalog();
});
afterAll(async () => {
  await h?.teardown();
});

describe('seeded lists', () => {
  it('are written once, for every level, published and marked illustrative', async () => {
    const defs = seedClassListDefinitions();
    expect(await seedClassLists(h.db)).toBe(defs.length);
    expect(await seedClassLists(h.db)).toBe(0);
    const lists = await h.db.select().from(classLists);
    expect(lists).toHaveLength(defs.length);
    expect(lists.every((l) => l.status === 'published' && l.sourceNote?.includes('illustrative'))).toBe(true);
    const items = await h.db.select().from(classListItems);
    expect(items.every((i) => i.subjectId !== null)).toBe(true);
    expect(items.find((i) => i.title === 'Français CM2 – Préparer l’entrée en 6e')?.titleKey).toBe(
      'francaiscm2preparerlentreeen6e',
    );
  });
});
