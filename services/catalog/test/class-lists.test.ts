import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classListItems, classLists } from '../src/db/schema.ts';
import { alertFamilies } from '../src/modules/class-lists/domain/alerts.ts';
import { seedClassListDefinitions, seedClassLists } from '../src/modules/class-lists/index.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let manager: Member; // lists.manage
let admin: Member;
let parent: Member;
let teacher: Member;
let sellerA: Member;
let sellerB: Member;
const ids: Record<string, number> = {};

const register = (m: Member, name: string) => h.registerSeller(m.sub, name);

async function listBook(
  owner: Member,
  fields: { title: string; isbn?: string; price: number; city: string; categories: string[]; exchange?: boolean },
) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title: fields.title,
      author: 'Collectif',
      condition: 'bon',
      price: String(fields.price),
      city_id: String(await h.cityId(fields.city)),
      category_ids: await Promise.all(fields.categories.map(async (c) => String(await h.categoryId(c)))),
      is_exchange_possible: fields.exchange ? 'true' : 'false',
      ...(fields.isbn ? { isbn: fields.isbn } : {}),
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

/** A multipart CSV upload. */
const csv = (url: string, text: string, who: Member) =>
  h.form('POST', url, {}, { csv_file: Buffer.from(text, 'utf8') }, who.token);

beforeAll(async () => {
  h = await startCatalog();
  manager = await h.token({ permissions: ['lists.manage'] });
  admin = await h.token({ is_admin: true });
  parent = await h.token();
  teacher = await h.token();
  sellerA = await h.token();
  sellerB = await h.token();
  await register(sellerA, 'Awa Vendeuse');
  await register(sellerB, 'Brice Vendeur');
  await register(parent, 'Paule Parent');
  for (const name of ['5e', 'Mathématiques', 'Français', 'Sciences de la vie et de la Terre', 'Anglais', '4e'])
    ids[name] = await h.categoryId(name);
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
    // Every level of the school categories has its official list; the Libreville school its 6e.
    const levels = ['CP1', 'CM2', '6e', '3e', '2nde', '1ère D', 'Terminale C'];
    for (const level of levels) {
      const res = await h.call('GET', `/class-lists?level_id=${await h.categoryId(level)}&school_year=2026-2027`);
      expect(res.status).toBe(200);
      expect(res.body.data.some((l: { kind: string }) => l.kind === 'official')).toBe(true);
    }
    const school = await h.call('GET', '/class-lists?school=manguiers');
    expect(school.body.data).toHaveLength(1);
    expect(school.body.data[0]).toMatchObject({ kind: 'school', level: { name: '6e' }, city: { name: 'Libreville' } });
  });
});

describe('permissions', () => {
  it('refuses the back office to members without lists.manage, in French', async () => {
    for (const [method, url, body] of [
      ['GET', '/admin/class-lists', undefined],
      ['POST', '/admin/class-lists', { school_year: '2030-2031', level_id: 1 }],
      ['POST', '/admin/class-lists/1/approve', {}],
      ['POST', '/admin/class-lists/1/copy', { school_year: '2031-2032' }],
      ['DELETE', '/admin/class-lists/1', undefined],
    ] as const) {
      const res = await h.call(method, url, body, parent.token);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.message).toMatch(/autorisation/);
      expect((await h.call(method, url, body)).status).toBe(401);
    }
    expect((await h.call('GET', '/admin/class-lists', undefined, admin.token)).status).toBe(200);
    expect((await h.call('GET', '/admin/class-lists', undefined, manager.token)).status).toBe(200);
  });

  it('answers bad input with French 4xx, never a 5xx', async () => {
    const bad = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2030-2035', level_id: 99999 },
      manager.token,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.school_year).toBeDefined();
    const unknownLevel = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2030-2031', level_id: 999999 },
      manager.token,
    );
    expect(unknownLevel.status).toBe(422);
    expect(unknownLevel.body.errors.level_id).toEqual(['Ce niveau est introuvable.']);
    const subjectAsLevel = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2030-2031', level_id: ids.Mathématiques },
      manager.token,
    );
    expect(subjectAsLevel.status).toBe(422);
    const school = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2030-2031', level_id: ids['5e'], kind: 'school' },
      manager.token,
    );
    expect(school.status).toBe(422);
    expect(school.body.errors.school_name).toBeDefined();
    expect((await h.call('GET', '/class-lists/99999999999')).status).toBe(404);
    expect((await h.call('GET', '/class-lists/424242')).body.message).toBe('Liste de manuels introuvable.');
    const tooMany = await h.call(
      'POST',
      '/admin/class-lists',
      {
        school_year: '2030-2031',
        level_id: ids['5e'],
        items: Array.from({ length: 61 }, (_, i) => ({ title: `Livre ${i}` })),
      },
      manager.token,
    );
    expect(tooMany.status).toBe(422);
  });
});

describe('« Ma liste »', () => {
  let listId: number;
  const item: Record<string, number> = {};

  beforeAll(async () => {
    const res = await h.call(
      'POST',
      '/admin/class-lists',
      {
        school_year: '2030-2031',
        level_id: ids['5e'],
        status: 'published',
        source_note: 'Liste de test',
        items: [
          {
            title: 'Mathématiques 5e – CIAM Essai',
            author: 'Collectif CIAM',
            publisher: 'EDICEF',
            isbn: '978-2-01-123456-7',
            subject_id: ids.Mathématiques,
          },
          { title: 'Français 5e – Le Livre Unique Essai', subject_id: ids.Français },
          { title: 'Planète vivante SVT 5e Essai', subject_id: ids['Sciences de la vie et de la Terre'] },
          { title: 'Anglais introuvable 5e', subject_id: ids.Anglais, requirement: 'recommended' },
        ],
      },
      manager.token,
    );
    expect(res.status).toBe(201);
    listId = res.body.list.id;
    for (const i of res.body.list.items) item[i.title.split(' ')[0]] = i.id;
    // The ISBN, written differently, under another title; then a title with no accents, in capitals.
    await listBook(sellerA, {
      title: 'Maths CIAM cinquième',
      isbn: '9782011234567',
      price: 4000,
      city: 'Libreville',
      categories: ['5e'],
    });
    await listBook(sellerA, {
      title: 'MATHEMATIQUES 5E - CIAM essai',
      price: 3000,
      city: 'Port-Gentil',
      categories: ['5e'],
    });
    // A gift open to exchange in the province (Owendo, Estuaire), and the same title first in a longer one in town.
    await listBook(sellerB, {
      title: 'francais 5e le livre unique essai',
      price: 0,
      city: 'Owendo',
      categories: ['5e'],
      exchange: true,
    });
    await listBook(sellerB, {
      title: 'Français 5e — Le Livre Unique Essai (très bon état)',
      price: 2500,
      city: 'Libreville',
      categories: ['Français'],
    });
    // Only a same-subject same-level listing for the SVT book; one of 4e does not count.
    await listBook(sellerA, {
      title: 'Sciences de la vie 5e',
      price: 1500,
      city: 'Franceville',
      categories: ['5e', 'Sciences de la vie et de la Terre'],
    });
    await listBook(sellerA, {
      title: 'SVT 4e',
      price: 1000,
      city: 'Libreville',
      categories: ['4e', 'Sciences de la vie et de la Terre'],
    });
  });

  it('finds each book by ISBN or title variant, else by subject and level, nearest first', async () => {
    const libreville = await h.cityId('Libreville');
    const res = await h.call('GET', `/class-lists/${listId}/availability?city_id=${libreville}`);
    expect(res.status).toBe(200);
    const [maths, francais, svt, anglais] = res.body.items;
    expect(maths).toMatchObject({ match: 'exact', count: 2, cheapest_price: 3000, city_count: 1, gift_count: 0 });
    expect(maths.books.map((b: { title: string }) => b.title)).toEqual([
      'Maths CIAM cinquième',
      'MATHEMATIQUES 5E - CIAM essai',
    ]);
    expect(maths.books.map((b: { proximity: string; match: string }) => [b.proximity, b.match])).toEqual([
      ['city', 'isbn'],
      ['elsewhere', 'title'],
    ]);
    expect(francais).toMatchObject({
      match: 'exact',
      count: 2,
      cheapest_price: 0,
      gift_count: 1,
      exchange_count: 1,
      city_count: 1,
      province_count: 2,
    });
    expect(francais.books.map((b: { proximity: string }) => b.proximity)).toEqual(['city', 'province']);
    expect(svt).toMatchObject({ match: 'fallback', count: 1, cheapest_price: 1500 });
    expect(svt.books[0]).toMatchObject({ title: 'Sciences de la vie 5e', match: 'subject', proximity: 'elsewhere' });
    expect(anglais).toMatchObject({ match: 'none', count: 0, cheapest_price: null, books: [] });
    expect(res.body.totals).toEqual({
      items: 4,
      owned: 0,
      missing: 4,
      found: 2,
      fallback_only: 1,
      not_found: 1,
      cost: 3000,
      required_cost: 3000,
    });
    expect(res.body.city).toMatchObject({ name: 'Libreville', province: 'Estuaire' });
    expect(res.body.saved).toBe(false);
  });

  it('leaves the books marked « déjà obtenu » out of the total', async () => {
    const res = await h.call('GET', `/class-lists/${listId}/availability?owned=${item.Mathématiques}&per_item=1`);
    expect(res.status).toBe(200);
    expect(res.body.items[0].owned).toBe(true);
    expect(res.body.items[0].books).toHaveLength(1);
    expect(res.body.totals).toMatchObject({ owned: 1, missing: 3, found: 1, cost: 0 });
    expect(res.body.city).toBeNull();
  });

  it('leaves sold, hidden and deactivated sellers’ listings out', async () => {
    const id = await listBook(sellerB, {
      title: 'Anglais introuvable 5e',
      price: 100,
      city: 'Libreville',
      categories: ['5e'],
    });
    let res = await h.call('GET', `/class-lists/${listId}/availability`);
    expect(res.body.items[3]).toMatchObject({ match: 'exact', cheapest_price: 100 });
    expect((await h.call('PUT', `/books/${id}/status`, { status: 'vendu' }, sellerB.token)).status).toBeLessThan(300);
    res = await h.call('GET', `/class-lists/${listId}/availability`);
    expect(res.body.items[3].match).toBe('none');
  });

  it('saves the list with the town and the marks, which « Ma liste » then uses', async () => {
    const libreville = await h.cityId('Libreville');
    const save = await h.call(
      'PUT',
      `/my-class-lists/${listId}`,
      { city_id: libreville, owned_item_ids: [item.Mathématiques] },
      parent.token,
    );
    expect(save.status).toBe(200);
    expect(save.body.saved).toMatchObject({ owned_item_ids: [item.Mathématiques], missing_count: 3 });
    const mine = await h.call('GET', '/my-class-lists', undefined, parent.token);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({ list: { id: listId }, city: { name: 'Libreville' } });
    const res = await h.call('GET', `/class-lists/${listId}/availability`, undefined, parent.token);
    expect(res.body).toMatchObject({ saved: true, city: { name: 'Libreville' }, totals: { owned: 1 } });
    const wrong = await h.call('PUT', `/my-class-lists/${listId}`, { owned_item_ids: [999999] }, parent.token);
    expect(wrong.status).toBe(422);
    expect((await h.call('PUT', `/my-class-lists/${listId}`, {})).status).toBe(401);
  });
});

describe('alerts for a saved list', () => {
  it('tells the member once when a missing book is listed nearby, never for an owned one or far away', async () => {
    const libreville = await h.cityId('Libreville');
    const res = await h.call(
      'POST',
      '/admin/class-lists',
      {
        school_year: '2031-2032',
        level_id: ids['4e'],
        status: 'published',
        items: [
          { title: 'Physique-Chimie 4e Alerte', isbn: '9782011111111', subject_id: null },
          { title: 'Go for English 4e Alerte' },
        ],
      },
      manager.token,
    );
    expect(res.status).toBe(201);
    const [physique, english] = res.body.list.items;
    await h.call(
      'PUT',
      `/my-class-lists/${res.body.list.id}`,
      { city_id: libreville, owned_item_ids: [english.id] },
      parent.token,
    );
    const before = (await h.events('catalog.class_list.match_found')).length;
    // Same ISBN in Akanda (Estuaire: the province) → an alert.
    const near = await listBook(sellerA, {
      title: 'Physique 4e',
      isbn: '978-2-01-111111-1',
      price: 2000,
      city: 'Akanda',
      categories: ['4e'],
    });
    // The owned book, and the missing one far away (Franceville) or listed by the parent → nothing.
    await listBook(sellerA, { title: 'Go for English 4e alerte', price: 1000, city: 'Libreville', categories: ['4e'] });
    await listBook(sellerB, {
      title: 'Physique-Chimie 4e — alerte',
      price: 1000,
      city: 'Franceville',
      categories: ['4e'],
    });
    await listBook(parent, { title: 'Physique-Chimie 4e Alerte', price: 1000, city: 'Libreville', categories: ['4e'] });
    const events = (await h.events('catalog.class_list.match_found')).slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      user_id: parent.sub,
      list: { id: res.body.list.id, school_year: '2031-2032', level_name: '4e' },
      item: { id: physique.id, title: 'Physique-Chimie 4e Alerte' },
      book: { id: near, title: 'Physique 4e', price: 2000, city_name: 'Akanda' },
      city: { id: libreville, name: 'Libreville' },
      proximity: 'province',
      match: 'isbn',
    });
    // Once per (saved list, item, listing).
    expect(await h.uow.run((t) => alertFamilies(t, near))).toBe(0);
    expect((await h.events('catalog.class_list.match_found')).slice(before)).toHaveLength(1);

    // The English book is missing again; its listing, reserved then available again, is news.
    await h.call(
      'PUT',
      `/my-class-lists/${res.body.list.id}`,
      { city_id: libreville, owned_item_ids: [] },
      parent.token,
    );
    const english4e = await listBook(sellerB, {
      title: 'Go for English 4e Alerte',
      price: 1500,
      city: 'Libreville',
      categories: ['4e'],
    });
    const afterListing = (await h.events('catalog.class_list.match_found')).slice(before).length;
    expect(afterListing).toBe(2);
    for (const status of ['réservé', 'disponible'])
      expect((await h.call('PUT', `/books/${english4e}/status`, { status }, sellerB.token)).status).toBe(200);
    // Already told of this listing: a reservation that fell through says nothing new.
    expect((await h.events('catalog.class_list.match_found')).slice(before)).toHaveLength(2);
  });

  it('tells of a listing that becomes available again when it was reserved at its creation time', async () => {
    const libreville = await h.cityId('Libreville');
    const res = await h.call(
      'POST',
      '/admin/class-lists',
      {
        school_year: '2034-2035',
        level_id: ids['4e'],
        status: 'published',
        items: [{ title: 'Annales BEPC 3e Mathématiques Retour' }],
      },
      manager.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Listed and reserved before the parent saved the list: no alert then.
    const listing = await listBook(sellerA, {
      title: 'Annales BEPC 3e Mathématiques Retour',
      price: 800,
      city: 'Libreville',
      categories: ['4e'],
    });
    expect((await h.call('PUT', `/books/${listing}/status`, { status: 'réservé' }, sellerA.token)).status).toBe(200);
    await h.call(
      'PUT',
      `/my-class-lists/${res.body.list.id}`,
      { city_id: libreville, owned_item_ids: [] },
      parent.token,
    );
    const before = (await h.events('catalog.class_list.match_found')).length;
    expect((await h.call('PUT', `/books/${listing}/status`, { status: 'disponible' }, sellerA.token)).status).toBe(200);
    const events = (await h.events('catalog.class_list.match_found')).slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: parent.sub, book: { id: listing } });
  });
});

describe('the back office', () => {
  it('copies a list for another year as a draft, once', async () => {
    const [official6e] = (
      await h.call('GET', `/class-lists?level_id=${await h.categoryId('6e')}&kind=official&school_year=2026-2027`)
    ).body.data;
    const copy = await h.call(
      'POST',
      `/admin/class-lists/${official6e.id}/copy`,
      { school_year: '2027-2028' },
      manager.token,
    );
    expect(copy.status).toBe(201);
    expect(copy.body.list).toMatchObject({ school_year: '2027-2028', status: 'draft', level: { name: '6e' } });
    expect(copy.body.list.items).toHaveLength(official6e.items_count);
    const again = await h.call(
      'POST',
      `/admin/class-lists/${official6e.id}/copy`,
      { school_year: '2027-2028' },
      manager.token,
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/existe déjà/);
    const same = await h.call(
      'POST',
      `/admin/class-lists/${official6e.id}/copy`,
      { school_year: '2026-2027' },
      manager.token,
    );
    expect(same.status).toBe(422);
    // A draft is not public.
    expect((await h.call('GET', `/class-lists/${copy.body.list.id}`)).status).toBe(404);
    expect((await h.call('GET', `/class-lists/${copy.body.list.id}`, undefined, manager.token)).status).toBe(200);
  });

  it('previews a CSV import line by line, writes nothing, then applies it', async () => {
    const created = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2032-2033', level_id: ids['5e'], items: [{ title: 'Déjà là 5e' }] },
      manager.token,
    );
    const id = created.body.list.id;
    const file = [
      'title;author;publisher;year;isbn;subject;required',
      'Mathématiques 5e CSV;Collectif CIAM;EDICEF;2016;978-2-01-123456-7;mathematiques;oui',
      'Histoire 5e CSV;Collectif;Hatier;;;Histoire-Géographie;non',
      'Chimie 5e CSV;Collectif;Nathan;2019;;Chimie amusante;oui',
      'X;Collectif;Nathan;1800;123;Anglais;peut-être',
      'déjà là 5e;;;;;;',
      '"Guillemet jamais fermé;a;b',
    ].join('\n');
    const preview = await csv(`/admin/class-lists/${id}/import?dry_run=true`, file, manager);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ dry_run: true, imported: 0 });
    expect(preview.body.to_import).toHaveLength(2);
    expect(preview.body.to_import[0]).toMatchObject({
      line: 2,
      isbn: '9782011234567',
      subject: { name: 'Mathématiques' },
      requirement: 'required',
    });
    expect(preview.body.to_import[1]).toMatchObject({ line: 3, requirement: 'recommended', year: null });
    const rejected = Object.fromEntries(
      preview.body.rejected.map((r: { line: number; reasons: string[] }) => [r.line, r.reasons]),
    );
    expect(rejected[4]).toEqual(['Matière inconnue : Chimie amusante']);
    expect(rejected[5]).toEqual(
      expect.arrayContaining([
        'Colonne « obligatoire » : oui ou non',
        'Le titre doit contenir au moins 2 caractères',
        'Année d’édition invalide',
        'ISBN invalide (10 ou 13 chiffres)',
      ]),
    );
    expect(rejected[6]?.[0]).toMatch(/déjà dans la liste/);
    expect(Object.keys(rejected)).toHaveLength(4);
    expect((await h.call('GET', `/admin/class-lists/${id}`, undefined, manager.token)).body.list.items).toHaveLength(1);

    const applied = await csv(`/admin/class-lists/${id}/import`, file, manager);
    expect(applied.body).toMatchObject({ dry_run: false, imported: 2 });
    const items = (await h.call('GET', `/admin/class-lists/${id}`, undefined, manager.token)).body.list.items;
    expect(items.map((i: { title: string; position: number }) => [i.title, i.position])).toEqual([
      ['Déjà là 5e', 0],
      ['Mathématiques 5e CSV', 1],
      ['Histoire 5e CSV', 2],
    ]);
    const notCsv = await h.form(
      'POST',
      `/admin/class-lists/${id}/import`,
      {},
      { csv_file: Buffer.from([0xff, 0xfe, 0x00]) },
      manager.token,
    );
    expect(notCsv.status).toBe(422);
    expect((await h.call('POST', `/admin/class-lists/${id}/import`, {}, manager.token)).status).toBe(422);
  });

  it('edits, adds and removes the books of a list', async () => {
    const created = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2033-2034', level_id: ids['5e'] },
      manager.token,
    );
    const id = created.body.list.id;
    const added = await h.call(
      'POST',
      `/admin/class-lists/${id}/items`,
      { title: 'Nouveau livre', subject_id: ids.Anglais, isbn: '' },
      manager.token,
    );
    expect(added.status).toBe(201);
    expect(added.body.item).toMatchObject({ title: 'Nouveau livre', isbn: null, subject: { name: 'Anglais' } });
    const edited = await h.call(
      'PUT',
      `/admin/class-lists/${id}/items/${added.body.item.id}`,
      { requirement: 'recommended', year: 2020 },
      manager.token,
    );
    expect(edited.body.item).toMatchObject({ title: 'Nouveau livre', requirement: 'recommended', year: 2020 });
    expect(
      (await h.call('PUT', `/admin/class-lists/${id + 1000}/items/${added.body.item.id}`, {}, manager.token)).status,
    ).toBe(404);
    const published = await h.call('PUT', `/admin/class-lists/${id}`, { status: 'published' }, manager.token);
    expect(published.body.list).toMatchObject({ status: 'published', items_count: 1 });
    expect(published.body.list.published_at).not.toBeNull();
    expect(
      (await h.call('DELETE', `/admin/class-lists/${id}/items/${added.body.item.id}`, undefined, manager.token)).status,
    ).toBe(200);
    expect((await h.call('DELETE', `/admin/class-lists/${id}`, undefined, manager.token)).status).toBe(200);
    expect((await h.call('GET', `/class-lists/${id}`)).status).toBe(404);
  });
});

describe('proposals', () => {
  const proposal = (year: string, school: string) => ({
    school_year: year,
    level_id: ids['5e'],
    kind: 'school',
    school_name: school,
    source_note: 'Professeur principal de 5e',
    items: [{ title: 'Le Petit Prince', author: 'Antoine de Saint-Exupéry', subject_id: ids.Français }],
  });

  it('a member proposes a list, which an operator approves or rejects with a reason', async () => {
    const sent = await h.call('POST', '/class-lists/proposals', proposal('2030-2031', 'École Akébé'), teacher.token);
    expect(sent.status).toBe(201);
    expect(sent.body.list).toMatchObject({ status: 'proposed', proposed_by: teacher.sub, items_count: 1 });
    const id = sent.body.list.id;
    expect((await h.call('GET', `/class-lists/${id}`)).status).toBe(404);
    expect((await h.call('GET', `/class-lists/${id}`, undefined, teacher.token)).status).toBe(200);
    expect((await h.call('POST', `/admin/class-lists/${id}/approve`, {}, teacher.token)).status).toBe(403);
    const waiting = await h.call('GET', '/admin/class-lists?status=proposed', undefined, manager.token);
    expect(waiting.body.data.map((l: { id: number }) => l.id)).toContain(id);

    const approved = await h.call('POST', `/admin/class-lists/${id}/approve`, {}, manager.token);
    expect(approved.status).toBe(200);
    expect(approved.body.list.status).toBe('published');
    expect((await h.call('GET', `/class-lists/${id}`)).status).toBe(200);
    expect((await h.call('POST', `/admin/class-lists/${id}/approve`, {}, manager.token)).status).toBe(409);
    expect(await h.events('catalog.class_list.published')).toEqual([
      expect.objectContaining({ list_id: id, proposed_by: teacher.sub, school_name: 'École Akébé' }),
    ]);

    const other = await h.call('POST', '/class-lists/proposals', proposal('2030-2031', 'École Nzeng'), teacher.token);
    const short = await h.call(
      'POST',
      `/admin/class-lists/${other.body.list.id}/reject`,
      { reason: 'non' },
      manager.token,
    );
    expect(short.status).toBe(422);
    const rejected = await h.call(
      'POST',
      `/admin/class-lists/${other.body.list.id}/reject`,
      { reason: 'Cette liste est celle de l’an dernier.' },
      manager.token,
    );
    expect(rejected.body.list).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Cette liste est celle de l’an dernier.',
    });
    expect(await h.events('catalog.class_list.rejected')).toEqual([
      expect.objectContaining({ list_id: other.body.list.id, reason: 'Cette liste est celle de l’an dernier.' }),
    ]);
  });

  it('refuses a proposal without books, from a visitor, or an unverified member', async () => {
    const empty = await h.call(
      'POST',
      '/class-lists/proposals',
      { ...proposal('2030-2031', 'X'), items: [] },
      teacher.token,
    );
    expect(empty.status).toBe(422);
    expect((await h.call('POST', '/class-lists/proposals', proposal('2030-2031', 'X'))).status).toBe(401);
    const unverified = await h.token({ email_verified: false });
    expect((await h.call('POST', '/class-lists/proposals', proposal('2030-2031', 'X'), unverified.token)).status).toBe(
      403,
    );
  });
});

describe('listing-form autofill', () => {
  it('finds books of the published lists by title, author, publisher or ISBN, distinct, at most 10', async () => {
    const res = await h.call('GET', `/class-list-items/search?q=${encodeURIComponent('livre unique')}`);
    expect(res.status).toBe(200);
    const sixth = res.body.suggestions.find((s: { title: string }) => s.title === 'Français 6e – Le Livre Unique');
    expect(sixth).toMatchObject({
      publisher: 'Hatier',
      level: { name: '6e' },
      subject: { name: 'Français' },
      category_ids: [await h.categoryId('6e'), ids.Français],
    });
    // The official list and the school's both have it: one suggestion.
    expect(res.body.suggestions.filter((s: { title: string }) => s.title === sixth.title)).toHaveLength(1);
    // It names a book of the lists (an exchange wish can point at it).
    const [item] = await h.db.select().from(classListItems).where(eq(classListItems.id, sixth.item_id));
    expect(item?.title).toBe('Français 6e – Le Livre Unique');
    const byIsbn = await h.call('GET', '/class-list-items/search?q=978-2-01-123456-7');
    expect(byIsbn.body.suggestions[0]).toMatchObject({ title: 'Mathématiques 5e – CIAM Essai' });
    const accents = await h.call('GET', `/class-list-items/search?q=${encodeURIComponent('education civique cm2')}`);
    expect(accents.body.suggestions[0].title).toBe('Excellent Éducation civique et morale CM2');
    const typo = await h.call('GET', `/class-list-items/search?q=${encodeURIComponent('mathematqiues')}`);
    expect(typo.body.suggestions.length).toBeGreaterThan(0);
    const many = await h.call('GET', '/class-list-items/search?q=collectif');
    expect(many.body.suggestions).toHaveLength(10);
    const short = await h.call('GET', '/class-list-items/search?q=a');
    expect(short.status).toBe(422);
    expect(short.body.errors.q).toEqual(['Tapez au moins 2 caractères']);
    const hostile = await h.call('GET', `/class-list-items/search?q=${encodeURIComponent("%_\\' or 1=1 --")}`);
    expect(hostile.status).toBe(200);
  });
});

describe('saved lists', () => {
  it('are the member’s own, refused for a list not published, and forgotten on delete', async () => {
    const draft = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2034-2035', level_id: ids['5e'] },
      manager.token,
    );
    const refused = await h.call('PUT', `/my-class-lists/${draft.body.list.id}`, {}, parent.token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Cette liste n’est pas publiée.');
    const before = (await h.call('GET', '/my-class-lists', undefined, parent.token)).body.data.length;
    expect((await h.call('GET', '/my-class-lists', undefined, teacher.token)).body.data).toHaveLength(0);
    const listId = (await h.call('GET', '/my-class-lists', undefined, parent.token)).body.data[0].list.id;
    expect((await h.call('DELETE', `/my-class-lists/${listId}`, undefined, parent.token)).status).toBe(200);
    expect((await h.call('DELETE', `/my-class-lists/${listId}`, undefined, parent.token)).status).toBe(404);
    expect((await h.call('GET', '/my-class-lists', undefined, parent.token)).body.data).toHaveLength(before - 1);
  });
});

describe('what the community lacks', () => {
  it('ranks the latest official lists’ books by families’ demand against listings available', async () => {
    const libreville = await h.cityId('Libreville');
    const created = await h.call(
      'POST',
      '/admin/class-lists',
      {
        school_year: '2040-2041',
        level_id: ids['4e'],
        status: 'published',
        items: [{ title: 'Atlas du Gabon 4e Pénurie' }, { title: 'Grammaire 4e Pénurie' }],
      },
      manager.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [atlas, grammar] = created.body.list.items;
    await h.call(
      'PUT',
      `/my-class-lists/${created.body.list.id}`,
      { city_id: libreville, owned_item_ids: [] },
      parent.token,
    );
    expect((await h.call('POST', '/exchanges/wishes', { class_list_item_id: atlas.id }, teacher.token)).status).toBe(
      201,
    );
    await listBook(sellerA, { title: 'Grammaire 4e Pénurie', price: 1500, city: 'Libreville', categories: ['4e'] });

    const reporter = await h.token({ permissions: ['reports.view'] });
    const stats = await h.call('GET', '/admin/stats/catalog', undefined, reporter.token);
    expect(stats.status).toBe(200);
    const lacking = stats.body.shortages as Array<{ item_id: number; wanted: number; available: number }>;
    const atlasRow = lacking.find((s) => s.item_id === atlas.id);
    const grammarRow = lacking.find((s) => s.item_id === grammar.id);
    expect(atlasRow).toMatchObject({ title: 'Atlas du Gabon 4e Pénurie', level: '4e', wanted: 2, available: 0 });
    expect(grammarRow).toMatchObject({ wanted: 1, available: 1 });
    expect(lacking.indexOf(atlasRow!)).toBeLessThan(lacking.indexOf(grammarRow!));
  });
});
