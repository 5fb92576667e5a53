import { schoolYearOf } from '@cartable/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listCoverage } from '../src/modules/class-lists/domain/coverage.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let manager: Member;
const YEAR = '2033-2034';
const item: Record<string, number> = {};
const list: Record<string, number> = {};

const listBook = (owner: Member, title: string, price: number, city: string) =>
  h.publish(owner.token, { title, price, city, level: '6e' });

async function createList(level: string, titles: string[]) {
  const res = await h.call(
    'POST',
    '/admin/class-lists',
    {
      school_year: YEAR,
      level_id: await h.categoryId(level),
      status: 'published',
      items: titles.map((title) => ({ title })),
    },
    manager.token,
  );
  expect(res.status).toBe(201);
  for (const i of res.body.list.items as Array<{ id: number; title: string }>) item[i.title.split(' ')[0]!] = i.id;
  return res.body.list.id as number;
}

/** A family saving the list for a town (null: none chosen), owning these books. */
async function family(listId: number, city: string | null, owned: string[]) {
  const member = await h.token();
  const body = { ...(city ? { city_id: await h.cityId(city) } : {}), owned_item_ids: owned.map((t) => item[t]!) };
  expect((await h.call('PUT', `/my-class-lists/${listId}`, body, member.token)).status).toBe(200);
}

beforeAll(async () => {
  h = await startCatalog();
  manager = await h.token({ permissions: ['lists.manage'] });
  list.sixth = await createList('6e', ['Maths Couverture 6e', 'Français Couverture 6e', 'Anglais Couverture 6e']);
  list.fifth = await createList('5e', ['Histoire Couverture 5e', 'SVT Couverture 5e']);

  const seller = async (name: string) => {
    const m = await h.token();
    await h.registerSeller(m.sub, `${name} Vendeur`);
    return m;
  };
  const [awa, brice, didier, chantal] = await Promise.all(['Awa', 'Brice', 'Didier', 'Chantal'].map(seller));
  // Libreville: Awa, Brice; Owendo (same province): Chantal; Franceville (Haut-Ogooué): Didier.
  // Nobody sells Anglais or SVT; Français is not sold in Haut-Ogooué.
  await listBook(awa!, 'Maths Couverture 6e', 2000, 'Libreville');
  await listBook(awa!, 'Français Couverture 6e', 1000, 'Libreville');
  await listBook(awa!, 'Histoire Couverture 5e', 2000, 'Libreville');
  await listBook(brice!, 'Maths Couverture 6e', 1500, 'Libreville');
  await listBook(chantal!, 'Français Couverture 6e', 500, 'Owendo');
  await listBook(didier!, 'Maths Couverture 6e', 3000, 'Franceville');
  await listBook(didier!, 'Histoire Couverture 5e', 800, 'Franceville');
  await listBook(didier!, 'Histoire Couverture 5e', 1200, 'Franceville');

  // 6e in Libreville: four families, three coverable.
  await family(list.sixth, 'Libreville', ['Anglais']); // Brice's maths 1,500 + Chantal's French 500
  await family(list.sixth, 'Libreville', ['Anglais', 'Maths']); // Chantal's French 500
  await family(list.sixth, 'Libreville', []); // Anglais nowhere
  await family(list.sixth, 'Libreville', ['Anglais', 'Maths', 'Français']); // nothing missing
  // 6e in Franceville: Français and Anglais nowhere in the province.
  await family(list.sixth, 'Franceville', []);
  // 6e without a town: no basket.
  await family(list.sixth, null, ['Anglais']);
  // 5e in Franceville: one coverable (Didier's history 800), one missing SVT.
  await family(list.fifth, 'Franceville', ['SVT']);
  await family(list.fifth, 'Franceville', []);
});
afterAll(async () => {
  await h?.teardown();
});

describe('the coverage of saved lists in the back office', () => {
  it('checks the permission before the school year, then the school year', async () => {
    const url = `/admin/class-lists/coverage?school_year=pas-une-annee`;
    expect((await h.call('GET', url)).status).toBe(401);
    const member = await h.token();
    expect((await h.call('GET', url, undefined, member.token)).status).toBe(403);
    const bad = await h.call('GET', url, undefined, manager.token);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('Année scolaire invalide');
    expect(bad.body.errors).toBeDefined();
  });

  it('counts families, coverable lists, the median saving and the titles most wanted, per level and town', async () => {
    const res = await h.call('GET', `/admin/class-lists/coverage?school_year=${YEAR}`, undefined, manager.token);
    expect(res.status).toBe(200);
    const libreville = await h.cityId('Libreville');
    const franceville = await h.cityId('Franceville');
    expect(res.body).toMatchObject({ school_year: YEAR, lists: 8, truncated: false });
    const rows = res.body.rows.map(
      (r: {
        level: { name: string };
        city: { id: number } | null;
        families: number;
        coverable: number;
        coverable_share: number;
        median_saving: number | null;
        most_wanted: Array<{ title: string; families: number }>;
      }) => [
        r.level.name,
        r.city?.id ?? null,
        r.families,
        r.coverable,
        r.coverable_share,
        r.median_saving,
        r.most_wanted.map((w) => `${w.title}:${w.families}`),
      ],
    );
    // Medians on the whole site: maths 2,000 (1,500, 2,000, 3,000), French 500 (500, 1,000; the
    // lower middle, as the baskets read it), history 1,200 (800, 1,200, 2,000).
    // 6e Libreville savings: 2,500 − 2,000 = 500 and 500 − 500 = 0 → median 250.
    expect(rows).toEqual([
      ['6e', franceville, 1, 0, 0, null, ['Anglais Couverture 6e:1', 'Français Couverture 6e:1']],
      ['6e', libreville, 4, 3, 0.75, 250, ['Anglais Couverture 6e:1']],
      ['6e', null, 1, 0, 0, null, []],
      // 1,200 − 800 = 400.
      ['5e', franceville, 2, 1, 0.5, 400, ['SVT Couverture 5e:1']],
    ]);
    expect(res.body.rows[1].city).toEqual({ id: libreville, name: 'Libreville', province: 'Estuaire' });
    expect(res.body.most_wanted).toEqual([
      { title: 'Anglais Couverture 6e', families: 2 },
      { title: 'Français Couverture 6e', families: 1 },
      { title: 'SVT Couverture 5e', families: 1 },
    ]);
  });

  it('answers the current school year by default, empty when nobody saved a list', async () => {
    const res = await h.call('GET', '/admin/class-lists/coverage', undefined, manager.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ school_year: schoolYearOf(), rows: [], most_wanted: [], lists: 0 });
  });

  it('stops at its cap and says so', async () => {
    const capped = listCoverage(h.db, { maxLists: 3, ttlMs: 0 });
    const answer = await capped(YEAR);
    expect(answer.lists).toBe(3);
    expect(answer.truncated).toBe(true);
    expect(answer.rows.reduce((n, r) => n + r.families, 0)).toBe(3);
  });
});
