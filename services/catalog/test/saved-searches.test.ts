import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedSearches } from '../src/db/schema.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let searcher: Member;
let other: Member;
let seller: Member;
const ids: Record<string, number> = {};

const register = (m: Member, name: string) => h.registerSeller(m.sub, name);

async function listBook(
  owner: Member,
  fields: {
    title: string;
    price: number;
    city: string;
    categories: string[];
    isbn?: string;
    condition?: string;
    flags?: string[];
  },
) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title: fields.title,
      author: 'Collectif',
      condition: fields.condition ?? 'bon',
      price: String(fields.price),
      city_id: String(await h.cityId(fields.city)),
      category_ids: await Promise.all(fields.categories.map(async (c) => String(await h.categoryId(c)))),
      ...(fields.isbn ? { isbn: fields.isbn } : {}),
      ...(fields.flags ? { condition_flags: fields.flags } : {}),
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

const save = (who: Member, body: object) => h.call('POST', '/saved-searches', body, who.token);

/** The matched events since `from`, for a saved search. */
async function matchesOf(savedSearchId: number) {
  return (await h.events('catalog.saved_search.matched')).filter((e) => e.saved_search_id === savedSearchId);
}

beforeAll(async () => {
  h = await startCatalog();
  searcher = await h.token();
  other = await h.token();
  seller = await h.token();
  await register(searcher, 'Sandra Parent');
  await register(other, 'Olivier Autre');
  await register(seller, 'Sylvain Vendeur');
  for (const name of ['6e', '5e', 'Collège', 'Mathématiques', 'Français', 'Lycée', 'Terminale D'])
    ids[name] = await h.categoryId(name);
  for (const name of ['Libreville', 'Port-Gentil']) ids[name] = await h.cityId(name);
});
afterAll(async () => {
  await h?.teardown();
});

describe('saving, listing, editing and deleting', () => {
  it('saves the /books filters under a name, paging and sorting dropped, and answers them back in words', async () => {
    const res = await save(searcher, {
      name: 'Maths 6e à Libreville',
      frequency: 'daily',
      filters: { query: 'maths 6e', city_id: String(ids.Libreville), max_price: '5000', page: '2', sort_by: 'price' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toMatch(/Recherche enregistrée/);
    const s = res.body.saved_search;
    expect(s).toMatchObject({
      name: 'Maths 6e à Libreville',
      frequency: 'daily',
      frequency_label: 'Une fois par jour',
      filters: { query: 'maths 6e', city_id: ids.Libreville, max_price: 5000 },
      active: true,
      match_count: 0,
    });
    expect(s.summary).toBe('« maths 6e » · Libreville · 5 000 FCFA au plus');
    expect(s.query_string).toBe(`query=maths+6e&city_id=${ids.Libreville}&max_price=5000`);
    const list = await h.call('GET', '/saved-searches', undefined, searcher.token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: number }) => x.id)).toContain(s.id);
    expect(list.body.limits).toEqual({ max: 20, mails_per_day: 10 });
    await h.call('DELETE', `/saved-searches/${s.id}`, undefined, searcher.token);
  });

  it('refuses, in French: no name, no filter, a bad frequency, unknown categories and towns, a name used twice', async () => {
    const noName = await save(searcher, { name: ' ', filters: { query: 'x' } });
    expect(noName.status).toBe(422);
    expect(JSON.stringify(noName.body)).toMatch(/Donnez un nom/);
    const noFilter = await save(searcher, { name: 'Tout', filters: { page: '1' } });
    expect(noFilter.status).toBe(422);
    expect(JSON.stringify(noFilter.body)).toMatch(/au moins un critère/);
    const badFrequency = await save(searcher, { name: 'X', frequency: 'hourly', filters: { query: 'x' } });
    expect(badFrequency.status).toBe(422);
    expect(JSON.stringify(badFrequency.body)).toMatch(/fréquence/);
    const unknown = await save(searcher, { name: 'X', filters: { category_ids: [999999], city_id: 999999 } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toMatchObject({
      'filters.category_ids': ['Catégorie inconnue'],
      'filters.city_id': ['Ville inconnue'],
    });
    expect((await save(searcher, { name: 'Doublon', filters: { query: 'a' } })).status).toBe(201);
    const twice = await save(searcher, { name: 'doublon', filters: { query: 'b' } });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(/déjà une recherche enregistrée sous ce nom/);
  });

  it('keeps at most 20 saved searches per member', async () => {
    const member = await h.token();
    for (let i = 0; i < 20; i++)
      expect((await save(member, { name: `R${i}`, filters: { query: `m${i}` } })).status).toBe(201);
    const over = await save(member, { name: 'R20', filters: { query: 'm20' } });
    expect(over.status).toBe(409);
    expect(over.body.message).toBe('Vous pouvez enregistrer au plus 20 recherches.');
  });

  it('lets only its member edit or delete it (404 for another member, 401 without a token)', async () => {
    const { body } = await save(searcher, { name: 'À modifier', filters: { query: 'histoire' } });
    const id = body.saved_search.id;
    expect((await h.call('PUT', `/saved-searches/${id}`, { name: 'Volée' }, other.token)).status).toBe(404);
    expect((await h.call('DELETE', `/saved-searches/${id}`, undefined, other.token)).status).toBe(404);
    expect((await h.call('GET', '/saved-searches')).status).toBe(401);
    const edited = await h.call(
      'PUT',
      `/saved-searches/${id}`,
      { name: 'Histoire hebdo', frequency: 'weekly', filters: { query: 'histoire', condition: 'bon' } },
      searcher.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.saved_search).toMatchObject({
      name: 'Histoire hebdo',
      frequency: 'weekly',
      filters: { query: 'histoire', condition: 'bon' },
      summary: '« histoire » · Bon état',
    });
    const deleted = await h.call('DELETE', `/saved-searches/${id}`, undefined, searcher.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Recherche enregistrée supprimée');
    expect((await h.call('DELETE', `/saved-searches/${id}`, undefined, searcher.token)).status).toBe(404);
    const stopped = (await h.events('catalog.saved_search.stopped')).filter((e) => e.saved_search_id === id);
    expect(stopped.map((e) => e.reason)).toEqual(['deleted']);
  });
});

describe('matching a new listing', () => {
  it('reads « maths 6e » as the 6e level and the Mathématiques subject, in the saved town and price range', async () => {
    const { body } = await save(searcher, {
      name: 'Maths 6e à Libreville',
      frequency: 'instant',
      filters: { query: 'maths 6e', city_id: ids.Libreville, max_price: 5000 },
    });
    const id = body.saved_search.id;
    const hit = await listBook(seller, {
      title: 'Cahier d’exercices',
      price: 3000,
      city: 'Libreville',
      categories: ['6e', 'Mathématiques'],
    });
    // Other level, other subject, other town, too dear: none of them.
    await listBook(seller, {
      title: 'Cahier 5e',
      price: 3000,
      city: 'Libreville',
      categories: ['5e', 'Mathématiques'],
    });
    await listBook(seller, { title: 'Français', price: 3000, city: 'Libreville', categories: ['6e', 'Français'] });
    await listBook(seller, { title: 'Maths', price: 3000, city: 'Port-Gentil', categories: ['6e', 'Mathématiques'] });
    await listBook(seller, { title: 'Maths', price: 9000, city: 'Libreville', categories: ['6e', 'Mathématiques'] });
    const events = await matchesOf(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      saved_search_id: id,
      user_id: searcher.sub,
      name: 'Maths 6e à Libreville',
      frequency: 'instant',
      book: { id: hit, title: 'Cahier d’exercices', price: 3000, city_name: 'Libreville', thumbnail: null },
    });
    expect(events[0].unsubscribe_token).toMatch(new RegExp(`^${id}\\.`));
    const [dto] = (await h.call('GET', '/saved-searches', undefined, searcher.token)).body.data.filter(
      (x: { id: number }) => x.id === id,
    );
    expect(dto.match_count).toBe(1);
    expect(dto.last_match_at).not.toBeNull();
  });

  it('covers the categories below the chosen one (Collège: 5e; Lycée: Terminale D)', async () => {
    const college = (await save(searcher, { name: 'Collège', filters: { category_ids: String(ids.Collège) } })).body
      .saved_search.id;
    const lycee = (await save(searcher, { name: 'Lycée', filters: { category_id: ids.Lycée } })).body.saved_search.id;
    const b5 = await listBook(seller, { title: 'Grammaire 5e', price: 1000, city: 'Libreville', categories: ['5e'] });
    const bTD = await listBook(seller, {
      title: 'Annales Terminale D',
      price: 1000,
      city: 'Port-Gentil',
      categories: ['Terminale D'],
    });
    expect((await matchesOf(college)).map((e) => e.book.id)).toEqual([b5]);
    expect((await matchesOf(lycee)).map((e) => e.book.id)).toEqual([bTD]);
  });

  it('leaves out the listings with a condition flag the member does not want, and says so in words', async () => {
    const saved = (
      await save(searcher, {
        name: 'Cahiers vierges',
        filters: { query: 'cahier activités', without_flags: 'filled_in,pages_missing', sort_by: 'price' },
      })
    ).body.saved_search;
    expect(saved.filters.without_flags).toEqual(['filled_in', 'pages_missing']);
    expect(saved.summary).toBe('« cahier activités » · Exercices vierges · Aucune page manquante');
    const listing = (title: string, flags: string[]) =>
      listBook(seller, { title, price: 1500, city: 'Libreville', categories: ['Français'], flags });
    const clean = await listing('Cahier d’activités Français 6e neuf', []);
    await listing('Cahier d’activités Français 6e rempli', ['filled_in']);
    const stamped = await listing('Cahier d’activités Français 6e tamponné', ['stamped']);
    expect((await matchesOf(saved.id)).map((e) => e.book.id)).toEqual([clean, stamped]);
  });

  it('matches the remaining words by French full text, accents and plurals ignored, and an ISBN exactly', async () => {
    const words = (await save(searcher, { name: 'Bescherelle', filters: { query: 'Bescherellé conjugaisons' } })).body
      .saved_search.id;
    const isbn = (await save(searcher, { name: 'ISBN', filters: { query: '978-2-01-000000-2' } })).body.saved_search.id;
    const b1 = await listBook(seller, {
      title: 'Bescherelle La conjugaison pour tous',
      price: 2500,
      city: 'Libreville',
      categories: ['Français'],
    });
    await listBook(seller, {
      title: 'Bescherelle Grammaire',
      price: 2500,
      city: 'Libreville',
      categories: ['Français'],
    });
    const b2 = await listBook(seller, {
      title: 'Un livre',
      price: 2500,
      city: 'Libreville',
      categories: ['Français'],
      isbn: '9782010000002',
    });
    expect((await matchesOf(words)).map((e) => e.book.id)).toEqual([b1]);
    expect((await matchesOf(isbn)).map((e) => e.book.id)).toEqual([b2]);
  });

  it('never alerts a member of their own listing, and alerts once per listing (edited or available again)', async () => {
    const id = (await save(searcher, { name: 'Passerelle', filters: { query: 'passerelle', condition: 'bon' } })).body
      .saved_search.id;
    const own = await listBook(searcher, {
      title: 'Passerelle 5e',
      price: 100,
      city: 'Libreville',
      categories: ['5e'],
    });
    expect(await matchesOf(id)).toHaveLength(0);
    // Another member's listing in a worse state does not match, then does once edited.
    const book = await listBook(seller, {
      title: 'Passerelle facile',
      price: 100,
      city: 'Libreville',
      categories: ['5e'],
      condition: 'acceptable',
    });
    expect(await matchesOf(id)).toHaveLength(0);
    const edit = await h.form(
      'POST',
      `/books/${book}`,
      {
        title: 'Passerelle facile',
        author: 'Collectif',
        condition: 'bon',
        price: '100',
        city_id: String(ids.Libreville),
        category_ids: [String(ids['5e'])],
      },
      {},
      seller.token,
    );
    expect(edit.status).toBe(200);
    expect((await matchesOf(id)).map((e) => e.book.id)).toEqual([book]);
    // Reserved, then available again: already alerted, nothing new.
    for (const status of ['réservé', 'disponible'])
      expect((await h.call('PUT', `/books/${book}/status`, { status }, seller.token)).status).toBe(200);
    expect(await matchesOf(id)).toHaveLength(1);
    expect(own).toBeGreaterThan(0);
  });

  it('follows the hierarchy: a category added under Collège is covered by a search saved before', async () => {
    const id = (await save(other, { name: 'Tout le collège', filters: { category_ids: [ids.Collège] } })).body
      .saved_search.id;
    const admin = await h.token({ is_admin: true });
    const created = await h.call(
      'POST',
      '/admin/categories',
      { name: 'Collège bilingue', parent_id: ids.Collège },
      admin.token,
    );
    expect(created.status).toBe(201);
    // The refresh runs after the answer; waiting for it (the same run) keeps the test exact.
    await h.catalog.savedSearches.refresh();
    const book = await listBook(seller, {
      title: 'Manuel bilingue',
      price: 900,
      city: 'Port-Gentil',
      categories: ['Collège bilingue'],
    });
    expect((await matchesOf(id)).map((e) => e.book.id)).toEqual([book]);
  });

  it('matches a listing that comes back to « disponible » after a reservation', async () => {
    const book = await listBook(seller, {
      title: 'Larousse de poche',
      price: 700,
      city: 'Libreville',
      categories: ['Lycée'],
    });
    expect((await h.call('PUT', `/books/${book}/status`, { status: 'réservé' }, seller.token)).status).toBe(200);
    const id = (await save(other, { name: 'Larousse', filters: { query: 'larousse' } })).body.saved_search.id;
    expect(await matchesOf(id)).toHaveLength(0);
    expect((await h.call('PUT', `/books/${book}/status`, { status: 'disponible' }, seller.token)).status).toBe(200);
    expect((await matchesOf(id)).map((e) => e.book.id)).toEqual([book]);
  });
});

describe('one-click unsubscribe', () => {
  it('refuses a bad token (404, French) and with the good one stops the matching, without a login', async () => {
    const id = (await save(other, { name: 'Atlas', filters: { query: 'atlas' } })).body.saved_search.id;
    await listBook(seller, { title: 'Atlas du Gabon', price: 1500, city: 'Libreville', categories: ['Collège'] });
    const [event] = await matchesOf(id);
    const token: string = event.unsubscribe_token;
    for (const bad of [`${id}.${'x'.repeat(43)}`, 'nimportequoi', `${id + 1}.${token.split('.')[1]}`]) {
      const res = await h.call('GET', `/saved-searches/unsubscribe?token=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Ce lien de désabonnement n’est pas valide.');
    }
    expect((await h.call('POST', '/saved-searches/unsubscribe')).status).toBe(422);
    const info = await h.call('GET', `/saved-searches/unsubscribe?token=${token}`);
    expect(info.status).toBe(200);
    expect(info.body.saved_search).toMatchObject({ id, name: 'Atlas', summary: '« atlas »', active: true });
    // As a mail client posts it (RFC 8058): a form body, no token header.
    const res = await h.app.inject({
      method: 'POST',
      url: `/saved-searches/unsubscribe?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Vous ne recevrez plus d’alertes pour cette recherche.',
      saved_search: { id, active: false },
    });
    const again = await h.call('POST', `/saved-searches/unsubscribe?token=${token}`, {});
    expect(again.status).toBe(200);
    expect(again.body.message).toMatch(/déjà arrêtées/);
    const stopped = (await h.events('catalog.saved_search.stopped')).filter((e) => e.saved_search_id === id);
    expect(stopped.map((e) => e.reason)).toEqual(['unsubscribed']);
    await listBook(seller, { title: 'Atlas du monde', price: 1500, city: 'Libreville', categories: ['Collège'] });
    expect(await matchesOf(id)).toHaveLength(1);
    // Its member switches it back on: the next listing alerts again.
    const on = await h.call('PUT', `/saved-searches/${id}`, { active: true }, other.token);
    expect(on.body.saved_search.active).toBe(true);
    const next = await listBook(seller, {
      title: 'Atlas de poche',
      price: 1500,
      city: 'Libreville',
      categories: ['5e'],
    });
    expect((await matchesOf(id)).map((e) => e.book.id)).toContain(next);
    const [row] = await h.db.select().from(savedSearches).where(eq(savedSearches.id, id));
    expect(row!.active).toBe(true);
  });
});
