import { SEARCH_CATEGORIES_MAX, SEARCH_TEXT_MAX_LENGTH, SEARCH_TEXT_MAX_WORDS } from '@cartable/contracts/limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

/**
 * One catalogue request costs at most what a family's search costs: a bounded text, a bounded
 * number of categories, and a statement timeout on the searches' own pool that answers a French
 * 503 instead of holding a connection.
 */
let h: CatalogHarness;
let slow: CatalogHarness;
let categoryIds: number[];
beforeAll(async () => {
  [h, slow] = await Promise.all([
    startCatalog(),
    // Every search statement is stopped at once: what a search past its timeout answers.
    startCatalog({ SEARCH_STATEMENT_TIMEOUT_MS: '1' }),
  ]);
  categoryIds = (await h.call('GET', '/categories')).body.categories.map((c: { id: number }) => c.id);
});
afterAll(() => Promise.all([h?.teardown(), slow?.teardown()]));

describe('the cost of one catalogue request', () => {
  it('refuses a text past its characters or its words with a French 422 naming the field', async () => {
    const long = 'a'.repeat(SEARCH_TEXT_MAX_LENGTH + 1);
    const tooLong = await h.call('GET', `/books?query=${long}`);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.query).toEqual([
      `La recherche ne peut pas dépasser ${SEARCH_TEXT_MAX_LENGTH} caractères`,
    ]);

    const words = Array.from({ length: SEARCH_TEXT_MAX_WORDS + 1 }, (_, i) => `m${i}`).join(' ');
    const tooMany = await h.call('GET', `/books?query=${encodeURIComponent(words)}`);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.query).toEqual([`La recherche ne peut pas dépasser ${SEARCH_TEXT_MAX_WORDS} mots`]);

    const justRight = Array.from({ length: SEARCH_TEXT_MAX_WORDS }, (_, i) => `m${i}`).join(' ');
    expect((await h.call('GET', `/books?query=${encodeURIComponent(justRight)}`)).status).toBe(200);
  });

  it('takes a level with its subjects and a few more, and refuses more categories than that', async () => {
    expect(categoryIds.length).toBeGreaterThan(SEARCH_CATEGORIES_MAX);
    const most = await h.call('GET', `/books?category_ids=${categoryIds.slice(0, SEARCH_CATEGORIES_MAX).join(',')}`);
    expect(most.status).toBe(200);
    const tooMany = await h.call(
      'GET',
      `/books?category_ids=${categoryIds.slice(0, SEARCH_CATEGORIES_MAX + 1).join(',')}`,
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors.category_ids[0]).toMatch(/^20 catégories au plus/);
  });

  it('keeps a saved search to the same text bounds', async () => {
    const member = (await h.token()).token;
    const long = await h.call(
      'POST',
      '/saved-searches',
      { name: 'Trop long', filters: { query: 'b'.repeat(SEARCH_TEXT_MAX_LENGTH + 1) } },
      member,
    );
    expect(long.status).toBe(422);
  });

  it('answers a search past its statement timeout with a French 503 and Retry-After, and serves the rest', async () => {
    const res = await slow.app.inject({ method: 'GET', url: '/books?query=math%C3%A9matiques' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.json().message).toMatch(/^La recherche a pris trop de temps/);
    // The other pages run on the service's own pool, whose timeout is not the searches'.
    expect((await slow.call('GET', '/categories')).status).toBe(200);
  });
});
