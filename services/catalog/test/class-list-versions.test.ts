import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classListItems, classListVersions, classListWithdrawals } from '../src/db/schema.ts';
import { listById } from '../src/modules/class-lists/db/queries.ts';
import { recordVersion } from '../src/modules/class-lists/domain/versions.ts';
import { type CatalogHarness, startCatalog } from './harness.ts';

type Member = { sub: string; token: string };
let h: CatalogHarness;
let manager: Member;
let family: Member;
let otherFamily: Member;
let seller: Member;
let otherSeller: Member;
let sixth: number;
let libreville: number;

async function listBook(owner: Member, title: string, isbn?: string) {
  const res = await h.form(
    'POST',
    '/books',
    {
      title,
      author: 'Collectif',
      condition: 'bon',
      price: '2500',
      city_id: String(libreville),
      category_ids: [String(sixth)],
      is_exchange_possible: 'false',
      ...(isbn ? { isbn } : {}),
    },
    {},
    owner.token,
  );
  expect(res.status).toBe(201);
  return res.body.book.id as number;
}

async function publishedList(year: string, titles: Array<{ title: string; isbn?: string }>) {
  const res = await h.call(
    'POST',
    '/admin/class-lists',
    { school_year: year, level_id: sixth, status: 'published', items: titles },
    manager.token,
  );
  expect(res.status).toBe(201);
  return res.body.list as { id: number; items: Array<{ id: number; title: string }> };
}

beforeAll(async () => {
  h = await startCatalog();
  manager = await h.token({ permissions: ['lists.manage'] });
  family = await h.token();
  otherFamily = await h.token();
  seller = await h.token();
  otherSeller = await h.token();
  await h.registerSeller(seller.sub, 'Awa Vendeuse');
  await h.registerSeller(otherSeller.sub, 'Brice Vendeur');
  sixth = await h.categoryId('6e');
  libreville = await h.cityId('Libreville');
});
afterAll(async () => {
  await h?.teardown();
});

describe('versions of a list', () => {
  it('writes a version with each change of its books, in the change’s transaction, and shows them to the back office', async () => {
    const list = await publishedList('2040-2041', [{ title: 'Mathématiques 6e Versions' }]);
    const before = (await h.events('catalog.class_list.changed')).length;
    const added = await h.call(
      'POST',
      `/admin/class-lists/${list.id}/items`,
      { title: 'Histoire-Géographie 6e Versions' },
      manager.token,
    );
    expect(added.status).toBe(201);
    const gone = await h.call(
      'DELETE',
      `/admin/class-lists/${list.id}/items/${list.items[0]!.id}`,
      undefined,
      manager.token,
    );
    expect(gone.status).toBe(200);
    const replaced = await h.call(
      'POST',
      `/admin/class-lists/${list.id}/items/${added.body.item.id}/replace`,
      { title: 'Histoire-Géographie 6e Nouvelle édition', isbn: '978-2-01-000001-1' },
      manager.token,
    );
    expect(replaced.status).toBe(201);
    expect(replaced.body).toMatchObject({ message: 'Manuel remplacé dans la liste', item: { position: 1 } });

    const history = await h.call('GET', `/admin/class-lists/${list.id}/versions`, undefined, manager.token);
    expect(history.status).toBe(200);
    expect(history.body.data.map((v: { number: number }) => v.number)).toEqual([4, 3, 2]);
    expect(history.body.data[0]).toMatchObject({
      source: 'admin',
      changes: [
        {
          kind: 'replaced',
          item: { id: replaced.body.item.id, title: 'Histoire-Géographie 6e Nouvelle édition' },
          previous: { id: added.body.item.id, title: 'Histoire-Géographie 6e Versions' },
        },
      ],
    });
    expect(history.body.data[1].changes).toEqual([
      {
        kind: 'withdrawn',
        item: { id: list.items[0]!.id, title: 'Mathématiques 6e Versions', isbn: null },
        previous: null,
      },
    ]);

    const events = (await h.events('catalog.class_list.changed')).slice(before);
    expect(events.map((e) => e.version)).toEqual([2, 3, 4]);
    expect(events[1]).toMatchObject({
      list: { id: list.id, school_year: '2040-2041', level_name: '6e', school_name: null },
      status: 'published',
      source: 'admin',
      changes: [{ kind: 'withdrawn', item: { title: 'Mathématiques 6e Versions' } }],
    });

    // A refused change writes no version (past the 60 books of a list).
    const full = await publishedList(
      '2041-2042',
      Array.from({ length: 60 }, (_, i) => ({ title: `Livre plein ${i}` })),
    );
    const refused = await h.call('POST', `/admin/class-lists/${full.id}/items`, { title: 'De trop' }, manager.token);
    expect(refused.status).toBe(422);
    expect(await h.db.select().from(classListVersions).where(eq(classListVersions.listId, full.id))).toEqual([]);
  });

  it('numbers the versions of concurrent changes one after the other, and a change that fails leaves no version', async () => {
    const list = await publishedList('2047-2048', [{ title: 'Physique 6e Concurrence' }]);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        h.call('POST', `/admin/class-lists/${list.id}/items`, { title: `Livre concurrent ${i}` }, manager.token),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const rows = await h.db.select().from(classListVersions).where(eq(classListVersions.listId, list.id));
    expect(rows.map((r) => r.number).sort()).toEqual([2, 3, 4, 5, 6]);
    expect(rows.every((r) => r.changes.length === 1 && r.changes[0]!.kind === 'added')).toBe(true);

    // The version, the withdrawal, the book's removal and the events are one transaction.
    const before = (await h.events('catalog.class_list.changed')).length;
    const item = list.items[0]!;
    await expect(
      h.uow.run(async (t) => {
        await t.db.delete(classListItems).where(eq(classListItems.id, item.id));
        await recordVersion(t, (await listById(t.db, list.id))!, 'admin', [
          { kind: 'withdrawn', item: { id: item.id, title: item.title, isbn: null }, previous: null },
        ]);
        throw new Error('panne au milieu du retrait');
      }),
    ).rejects.toThrow('panne');
    expect(await h.db.select().from(classListItems).where(eq(classListItems.id, item.id))).toHaveLength(1);
    expect(await h.db.select().from(classListVersions).where(eq(classListVersions.listId, list.id))).toHaveLength(5);
    expect(await h.db.select().from(classListWithdrawals).where(eq(classListWithdrawals.listId, list.id))).toEqual([]);
    expect((await h.events('catalog.class_list.changed')).length).toBe(before);
  });

  it('refuses the history and the replacement without lists.manage, and bad input in French', async () => {
    const list = await publishedList('2042-2043', [{ title: 'Sciences 6e Droits' }]);
    const url = `/admin/class-lists/${list.id}/items/${list.items[0]!.id}/replace`;
    // The permission is checked before the body.
    const denied = await h.call('POST', url, { title: '' }, family.token);
    expect(denied.status).toBe(403);
    expect((await h.call('GET', `/admin/class-lists/${list.id}/versions`, undefined, family.token)).status).toBe(403);
    const bad = await h.call('POST', url, { title: '' }, manager.token);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBeTruthy();
    expect(bad.body.errors.title).toBeDefined();
    const missing = await h.call(
      'POST',
      `/admin/class-lists/${list.id}/items/999999/replace`,
      { title: 'Autre' },
      manager.token,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Manuel introuvable dans cette liste.');
    expect((await h.call('GET', '/admin/class-lists/999999/versions', undefined, manager.token)).status).toBe(404);
  });

  it('counts a book corrected to another title or ISBN as replaced in place, and a spelling fix as no version', async () => {
    const list = await publishedList('2048-2049', [{ title: 'Geographie 6e Correction' }]);
    const url = `/admin/class-lists/${list.id}/items/${list.items[0]!.id}`;
    expect((await h.call('PUT', url, { title: 'Géographie 6e correction', author: 'IPN' }, manager.token)).status).toBe(
      200,
    );
    const none = await h.call('GET', `/admin/class-lists/${list.id}/versions`, undefined, manager.token);
    expect(none.body.data).toEqual([]);
    expect(
      (await h.call('PUT', url, { title: 'Géographie 6e Atlas', isbn: '9782010000042' }, manager.token)).status,
    ).toBe(200);
    const one = await h.call('GET', `/admin/class-lists/${list.id}/versions`, undefined, manager.token);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0].changes).toEqual([
      {
        kind: 'replaced',
        item: { id: list.items[0]!.id, title: 'Géographie 6e Atlas', isbn: '9782010000042' },
        previous: { id: list.items[0]!.id, title: 'Géographie 6e correction', isbn: null },
      },
    ]);
  });

  it('counts an import as one version with every book it added', async () => {
    const list = await publishedList('2043-2044', [{ title: 'Anglais 6e Import' }]);
    const res = await h.form(
      'POST',
      `/admin/class-lists/${list.id}/import`,
      {},
      { csv_file: Buffer.from('titre;auteur\nPhysique 6e Import;X\nChimie 6e Import;Y\n', 'utf8') },
      manager.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(2);
    const history = await h.call('GET', `/admin/class-lists/${list.id}/versions`, undefined, manager.token);
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ number: 2, source: 'import' });
    expect(
      history.body.data[0].changes.map((c: { kind: string; item: { title: string } }) => [c.kind, c.item.title]),
    ).toEqual([
      ['added', 'Physique 6e Import'],
      ['added', 'Chimie 6e Import'],
    ]);
  });
});

describe('a withdrawn title', () => {
  it('tells each family that saved the list and each seller of an available listing, once, and « Ma liste » follows', async () => {
    const list = await publishedList('2044-2045', [
      { title: 'Français 6e Retrait', isbn: '9782010000028' },
      { title: 'SVT 6e Retrait' },
    ]);
    const francais = list.items[0]!;
    const svt = list.items[1]!;
    for (const member of [family, otherFamily])
      expect(
        (
          await h.call(
            'PUT',
            `/my-class-lists/${list.id}`,
            { city_id: libreville, owned_item_ids: member === family ? [francais.id] : [] },
            member.token,
          )
        ).status,
      ).toBe(200);
    // Same ISBN under another title, same title, and a listing of the other book.
    const byIsbn = await listBook(seller, 'Mon manuel de français', '978-2-01-000002-8');
    const byTitle = await listBook(otherSeller, 'Français 6e Retrait – très bon état');
    const other = await listBook(otherSeller, 'SVT 6e Retrait');
    expect((await h.call('GET', `/books/${byTitle}/class-lists`)).body).toEqual({
      named: [{ id: list.id, level_id: sixth, school_year: '2044-2045', level_name: '6e', school_name: null }],
      withdrawn: [],
    });

    const families = (await h.events('catalog.class_list.saved_changed')).length;
    const sellers = (await h.events('catalog.class_list.listing_withdrawn')).length;
    const res = await h.call('DELETE', `/admin/class-lists/${list.id}/items/${francais.id}`, undefined, manager.token);
    expect(res.status).toBe(200);

    const told = (await h.events('catalog.class_list.saved_changed')).slice(families);
    expect(told.map((e) => e.user_id).sort()).toEqual([family.sub, otherFamily.sub].sort());
    expect(told[0]).toMatchObject({
      list: { id: list.id, level_name: '6e', school_year: '2044-2045' },
      version: 2,
      changes: [{ kind: 'withdrawn', item: { id: francais.id, title: 'Français 6e Retrait' } }],
    });
    const warned = (await h.events('catalog.class_list.listing_withdrawn')).slice(sellers);
    expect(warned.map((e) => [e.user_id, e.book.id]).sort()).toEqual(
      [
        [seller.sub, byIsbn],
        [otherSeller.sub, byTitle],
      ].sort(),
    );
    expect(warned.find((e) => e.book.id === byIsbn)).toMatchObject({
      list: { id: list.id },
      version: 2,
      book: { title: 'Mon manuel de français' },
      item: { id: francais.id, title: 'Français 6e Retrait' },
    });
    expect(warned.some((e) => e.book.id === other)).toBe(false);
    expect(await h.db.select().from(classListWithdrawals).where(eq(classListWithdrawals.listId, list.id))).toHaveLength(
      1,
    );

    // « Ma liste » reads the new version: the withdrawn book is no longer asked; the one the family had is no longer needed.
    const mine = await h.call('GET', `/class-lists/${list.id}/availability`, undefined, family.token);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((l: { item: { id: number } }) => l.item.id)).toEqual([svt.id]);
    expect(mine.body.totals).toMatchObject({ items: 1, owned: 0, missing: 1 });
    expect(mine.body.no_longer_needed).toEqual([
      { id: francais.id, title: 'Français 6e Retrait', isbn: '9782010000028' },
    ]);
    expect(mine.body.version).toMatchObject({ number: 2, changes: [{ kind: 'withdrawn' }] });
    // Saving the marks again keeps the book the family had.
    await h.call('PUT', `/my-class-lists/${list.id}`, { city_id: libreville, owned_item_ids: [] }, family.token);
    const again = await h.call('GET', `/class-lists/${list.id}/availability`, undefined, family.token);
    expect(again.body.no_longer_needed).toHaveLength(1);

    // The listings say which lists still name their book.
    expect((await h.call('GET', `/books/${byTitle}/class-lists`)).body).toMatchObject({
      named: [],
      withdrawn: [{ id: list.id, school_year: '2044-2045', level_name: '6e' }],
    });
    // A page of cards asks once which of its listings a list withdrew.
    const cards = await h.call('GET', `/class-lists/withdrawn-books?ids=${byTitle},${other},${byIsbn},${byTitle}`);
    expect(cards.status).toBe(200);
    expect(cards.body.data.map((b: { book_id: number }) => b.book_id).sort()).toEqual([byIsbn, byTitle].sort());
    expect(cards.body.data[0].withdrawn).toEqual([
      { id: list.id, level_id: sixth, school_year: '2044-2045', level_name: '6e', school_name: null },
    ]);
    const bad = await h.call('GET', '/class-lists/withdrawn-books?ids=abc');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.ids ?? bad.body.errors['ids.0']).toBeDefined();
    expect((await h.call('GET', '/class-lists/withdrawn-books')).status).toBe(422);
    expect((await h.call('GET', `/books/${other}/class-lists`)).body).toMatchObject({
      named: [{ id: list.id }],
      withdrawn: [],
    });
  });

  it('spares a seller whose listing the replacing book still names, and tells no one for a draft', async () => {
    const list = await publishedList('2045-2046', [{ title: 'Anglais 6e Édition', isbn: '9782010000035' }]);
    await h.call('PUT', `/my-class-lists/${list.id}`, { city_id: libreville, owned_item_ids: [] }, family.token);
    const sameIsbn = await listBook(seller, 'Anglais 6e Édition', '9782010000035');
    const sellers = (await h.events('catalog.class_list.listing_withdrawn')).length;
    const families = (await h.events('catalog.class_list.saved_changed')).length;
    const res = await h.call(
      'POST',
      `/admin/class-lists/${list.id}/items/${list.items[0]!.id}/replace`,
      { title: 'Anglais 6e Nouvelle Édition', isbn: '9782010000035' },
      manager.token,
    );
    expect(res.status).toBe(201);
    expect((await h.events('catalog.class_list.listing_withdrawn')).slice(sellers)).toEqual([]);
    expect((await h.events('catalog.class_list.saved_changed')).slice(families)).toHaveLength(1);
    expect((await h.call('GET', `/books/${sameIsbn}/class-lists`)).body.named).toHaveLength(1);

    const draft = await h.call(
      'POST',
      '/admin/class-lists',
      { school_year: '2046-2047', level_id: sixth, status: 'draft', items: [{ title: 'Anglais 6e Édition' }] },
      manager.token,
    );
    const changed = (await h.events('catalog.class_list.changed')).length;
    await h.call(
      'DELETE',
      `/admin/class-lists/${draft.body.list.id}/items/${draft.body.list.items[0].id}`,
      undefined,
      manager.token,
    );
    expect((await h.events('catalog.class_list.changed')).slice(changed)).toMatchObject([{ status: 'draft' }]);
    expect((await h.events('catalog.class_list.listing_withdrawn')).slice(sellers)).toEqual([]);
  });
});
