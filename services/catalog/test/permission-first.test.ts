import { refusedBeforeValidation } from '@cartable/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.teardown());

describe('every protected route of catalog', () => {
  it('refuses a member without the permission (403) before judging what they sent', async () => {
    const { walked, wrong } = await refusedBeforeValidation(h.app, (await h.token()).token);
    expect(walked).toContain('PUT /admin/categories/:id');
    expect(walked).toContain('POST /banners');
    expect(walked).toContain('GET /admin/stats/catalog/supply-demand.csv');
    expect(wrong).toEqual([]);
  });
});
