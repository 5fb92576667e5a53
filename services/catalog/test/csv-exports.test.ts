import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.teardown());

/** A search anyone types, as a spreadsheet would run it (OWASP, CSV injection). */
const PAYLOAD = "=cmd|' /C calc'!A0";

describe('« Exporter l’offre et la demande »', () => {
  it('writes an anonymous search that found nothing as text, never as a formula', async () => {
    const search = await h.call('GET', `/books?query=${encodeURIComponent(PAYLOAD)}`);
    expect(search.status).toBe(200);
    expect(search.body.total).toBe(0);

    const reporter = (await h.token({ permissions: ['reports.view'] })).token;
    // The miss is written off the search's path: wait for the figures to show it.
    await expect
      .poll(async () => (await h.call('GET', '/admin/stats/catalog', undefined, reporter)).body.search_misses.length, {
        timeout: 10_000,
      })
      .toBeGreaterThan(0);

    const res = await h.app.inject({
      method: 'GET',
      url: '/admin/stats/catalog/supply-demand.csv',
      headers: { authorization: `Bearer ${reporter}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="cartable-offre-demande-.*\.csv"/);
    const rows = parse(res.body.replace(/^\uFEFF/, ''), { delimiter: ';' }) as string[][];
    expect(rows[0]).toEqual(['Type', 'Niveau ou catégorie', 'Matière ou recherche', 'Nombre']);
    const miss = rows.find((row) => row[0] === 'Recherche sans résultat');
    // Searches are kept in lower case; the cell begins with a quote, so it is text.
    expect(miss?.[2]).toBe(`'${PAYLOAD.toLocaleLowerCase('fr')}`);
    expect(miss?.[3]).toBe('1');
    expect(rows.every((row) => row.every((cell) => !/^[=+\-@\t\r]/.test(cell)))).toBe(true);
  });

  it('is for reports.view only', async () => {
    const member = (await h.token()).token;
    expect((await h.call('GET', '/admin/stats/catalog/supply-demand.csv', undefined, member)).status).toBe(403);
  });
});
