import { readFileSync } from 'node:fs';
import { demoMembers } from '@cartable/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { books } from '../src/db/schema.ts';
import { seedDemoCatalogue } from '../src/modules/listings/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

const silent = pino({ level: 'silent' });

interface RelevanceCase {
  q: string;
  first: string[];
  absent?: string[];
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/relevance.json', import.meta.url), 'utf8')) as {
  books: Array<[string, string, string]>;
  queries: RelevanceCase[];
};

let h: CatalogHarness;

beforeAll(async () => {
  h = await startCatalog();
  await seedDemoCatalogue(h.db, h.storage, silent);
  const libreville = await h.cityId('Libreville');
  for (const [index, [subject, level, title]] of fixture.books.entries()) {
    await h.db.insert(books).values({
      userId: demoMembers[index % demoMembers.length]!.id,
      title,
      author: 'Collectif IPN',
      condition: 'bon',
      price: 3000 + index * 100,
      cityId: libreville,
      categoryIds: [await h.categoryId(level), await h.categoryId(subject)],
      createdAt: new Date(Date.now() - (60 + index) * 3600_000),
    });
  }
  h.categoryStore.clear();
}, 120_000);
afterAll(() => h?.teardown());

const search = async (q: string, extra = '') =>
  (await h.call('GET', `/books?query=${encodeURIComponent(q)}&per_page=10${extra}`)).body;

describe('relevance set: what parents type finds the right books first', () => {
  it(`has at least 40 real queries (${fixture.queries.length})`, () => {
    expect(fixture.queries.length).toBeGreaterThanOrEqual(40);
  });

  it('puts the expected books first for every query', async () => {
    const failures: string[] = [];
    for (const c of fixture.queries) {
      const page = await search(c.q);
      const titles: string[] = page.data.map((b: { title: string }) => b.title);
      const top = titles.slice(0, c.first.length);
      const missing = c.first.filter((t) => !top.includes(t));
      const intruders = (c.absent ?? []).filter((t) => titles.includes(t));
      if (missing.length || intruders.length) {
        failures.push(`« ${c.q} »: got [${titles.slice(0, 4).join(' | ')}]; expected first [${c.first.join(' | ')}]`);
      }
    }
    console.log(`relevance set: ${fixture.queries.length - failures.length}/${fixture.queries.length} queries pass`);
    expect(failures).toEqual([]);
  });
});

describe('what the search understood', () => {
  it('tells the client the level, the subject and the remaining text', async () => {
    const page = await search('maths 6e');
    expect(page.interpreted).toEqual({
      level: { name: '6e', category_ids: [await h.categoryId('6e')] },
      subject: { name: 'Mathématiques', category_ids: [await h.categoryId('Mathématiques')] },
      text: '',
    });
    expect(page.total).toBe(2);
    expect((await search('annales maths tle d')).interpreted).toMatchObject({
      level: { name: 'Terminale D' },
      text: 'annales',
    });
  });

  it('searches the text as typed when asked (literal=true), or when nothing is recognised', async () => {
    const literal = await search('maths 6e', '&literal=true');
    expect(literal.interpreted ?? null).toBeNull();
    expect(literal.data.map((b: { title: string }) => b.title)).toEqual(['Maths 6e – Cahier d’exercices']);
    expect((await search('réussir le cep')).interpreted ?? null).toBeNull();
  });

  it('lets an explicit category filter win over the parsed one of the same kind', async () => {
    const cinquieme = await h.categoryId('5e');
    const page = await search('maths 6e', `&category_ids=${cinquieme}`);
    expect(page.interpreted).toMatchObject({ level: null, subject: { name: 'Mathématiques' } });
    expect(page.data.map((b: { title: string }) => b.title)).toEqual(['Mathématiques 5e – CIAM']);
  });

  it('falls back to the words as typed when the understood filters find nothing', async () => {
    // Philosophie is not taught in 6e: the filters find nothing, the words as typed find the philosophy books.
    const page = await search('philo 6e');
    expect(page.interpreted ?? null).toBeNull();
    expect(page.data.map((b: { title: string }) => b.title)).toContain('Philosophie Terminale D');
  });

  it('answers a French 422 to a bad flag', async () => {
    const res = await h.call('GET', '/books?query=maths&literal=peut-être');
    expect(res.status).toBe(422);
    expect(typeof res.body.message).toBe('string');
  });
});

describe('« Vouliez-vous dire … »', () => {
  it('proposes the closest known words when nothing matches, and only a query that finds something', async () => {
    const page = await search('mathematik fransais');
    expect(page.total).toBe(0);
    expect(page.did_you_mean).toBe('Mathématiques Français');
    expect((await search(page.did_you_mean)).total).toBeGreaterThan(0);
    expect((await search('matematik')).did_you_mean).toBe('Mathématiques');
  });

  it('says nothing when results were found, or when nothing is close', async () => {
    expect((await search('maths 6e')).did_you_mean ?? null).toBeNull();
    expect((await search('xqzwv')).did_you_mean ?? null).toBeNull();
  });
});

describe('suggestions while typing', () => {
  const suggest = async (q: string) => h.call('GET', `/books/suggestions?q=${encodeURIComponent(q)}`);
  const marked = (s: { label: string; highlights: Array<[number, number]> }) =>
    s.highlights.map(([a, b]) => s.label.slice(a, b));

  it('proposes the level and subject understood, with the typed part marked, then titles', async () => {
    const res = await suggest('maths 6e');
    expect(res.status).toBe(200);
    const [first, ...rest] = res.body.suggestions;
    expect(first).toMatchObject({ kind: 'filter', label: 'Mathématiques · 6e', query: 'Mathématiques 6e' });
    expect(marked(first)).toEqual(['Math', '6e']);
    const titles = rest.filter((s: { kind: string }) => s.kind === 'title').map((s: { label: string }) => s.label);
    expect(titles).toEqual(
      expect.arrayContaining(['Mathématiques 6e – Collection Excellence', 'Maths 6e – Cahier d’exercices']),
    );
  });

  it('completes a level or a subject being typed', async () => {
    const six = (await suggest('maths 6')).body.suggestions;
    expect(six[0]).toMatchObject({ kind: 'filter', label: 'Mathématiques · 6e' });
    const svt = (await suggest('sciences de la v')).body.suggestions;
    expect(svt.map((s: { label: string }) => s.label)).toContain('Sciences de la vie et de la Terre');
    const seconde = (await suggest('physique chimie sec')).body.suggestions;
    expect(seconde[0]).toMatchObject({
      kind: 'filter',
      label: 'Physique-Chimie · 2nde',
      query: 'Physique-Chimie 2nde',
    });
    // A level completed after a subject comes with it, never alone (choosing it keeps « svt »).
    const svt3 = (await suggest('svt 3')).body.suggestions.map((s: { label: string }) => s.label);
    expect(svt3[0]).toBe('Sciences de la vie et de la Terre · 3e');
    expect(svt3).not.toContain('3e');
    const annee = (await suggest('maths 4e an')).body.suggestions.map((s: { label: string }) => s.label);
    expect(annee).toContain('Mathématiques · 4e année');
    const term = (await suggest('termi')).body.suggestions;
    expect(term[0]).toMatchObject({ kind: 'level', label: 'Terminale' });
    expect(marked(term[0])).toEqual(['Termi']);
  });

  it('finds titles by a word inside them, accents ignored', async () => {
    const res = (await suggest('excellen')).body.suggestions;
    const excellence = res.find((s: { label: string }) => s.label === 'SVT 3e – Collection Excellence');
    expect(excellence).toBeDefined();
    expect(marked(excellence)).toEqual(['Excellen']);
    const espanol = (await suggest('espanol')).body.suggestions;
    expect(espanol.map((s: { label: string }) => s.label)).toContain('¡Español! 4e');
  });

  it('is cached briefly and public', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/books/suggestions?q=anglais' });
    expect(res.headers['cache-control']).toBe('public, max-age=30');
  });

  it('refuses an empty or over-long text with a French 422', async () => {
    for (const q of ['', '   ', 'a'.repeat(101)]) {
      const res = await suggest(q);
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/[a-zé]/);
    }
    expect((await h.call('GET', '/books/suggestions')).status).toBe(422);
    expect((await h.call('GET', '/books/suggestions?q=maths&limit=99')).status).toBe(422);
  });
});
