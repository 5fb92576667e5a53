import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogHarness, startCatalog } from './harness.ts';

let h: CatalogHarness;
/** A holder of categories.update: creates, renames, orders and deletes categories. */
let admin: string;
/** An administrator: only they add or remove a category's parents (SPEC.md section 6). */
let administrator: string;
beforeAll(async () => {
  h = await startCatalog();
  admin = (await h.token({ permissions: ['categories.update'] })).token;
  administrator = (await h.token({ is_admin: true })).token;
});
afterAll(() => h?.teardown());

const names = (list: Array<{ name: string }>) => list.map((c) => c.name);

describe('reading the hierarchy', () => {
  it('gives a subject several levels as parents, with details in both directions', async () => {
    const maths = await h.categoryId('Mathématiques');
    const parents = await h.call('GET', `/categories/${maths}/parents`);
    expect(names(parents.body.categories)).toEqual(expect.arrayContaining(['CM2', '6e', 'Terminale D']));
    const details = await h.call('GET', `/categories/${await h.categoryId('Terminale D')}/details`);
    expect(names(details.body.all_ancestors)).toEqual(['Lycée', 'Terminale']);
    expect(details.body.all_ancestors[0]).toEqual({ id: await h.categoryId('Lycée'), name: 'Lycée', depth: 0 });
    expect(names(details.body.direct_children)).toContain('Philosophie');
    expect((await h.call('GET', '/categories/999999/details')).status).toBe(404);
  });

  it('lists roots, leaves and the nested tree', async () => {
    expect(names((await h.call('GET', '/categories/roots')).body.categories)).toEqual(['Primaire', 'Collège', 'Lycée']);
    expect(names((await h.call('GET', '/categories/leaves')).body.categories)).toContain('Philosophie');
    const tree = (await h.call('GET', '/categories/hierarchy/tree')).body.categories;
    const lycee = tree.find((c: { name: string }) => c.name === 'Lycée');
    expect(names(lycee.children)).toEqual(['2nde', '1ère', 'Terminale']);
  });
});

describe('administration', () => {
  it('is for holders of categories.update only', async () => {
    const member = (await h.token()).token;
    expect((await h.call('POST', '/admin/categories', { name: 'Allemand' }, member)).status).toBe(403);
    expect((await h.call('POST', '/admin/categories', { name: 'Allemand' })).status).toBe(401);
  });

  it('creates, renames and deletes a category; refuses deleting one with children', async () => {
    const created = await h.call(
      'POST',
      '/admin/categories',
      { name: 'Allemand', parent_id: await h.categoryId('2nde') },
      admin,
    );
    expect(created.status).toBe(201);
    expect(created.body.category).toMatchObject({ name: 'Allemand', depth: 2, parents: [{ name: '2nde' }] });
    const id = created.body.category.id;
    expect((await h.call('PUT', `/admin/categories/${id}`, { name: 'Allemand LV2' }, admin)).body.category.name).toBe(
      'Allemand LV2',
    );
    const withChildren = await h.call(
      'DELETE',
      `/admin/categories/${await h.categoryId('Terminale')}`,
      undefined,
      admin,
    );
    expect(withChildren.status).toBe(422);
    expect(withChildren.body.message).toBe('Impossible de supprimer une catégorie qui a des sous-catégories.');
    expect((await h.call('DELETE', `/admin/categories/${id}`, undefined, admin)).status).toBe(200);
    expect((await h.call('GET', `/categories/${id}`)).status).toBe(404);
  });

  it('adds and removes parents, refusing a cycle, a duplicate and a chain deeper than 10', async () => {
    const maths = await h.categoryId('Mathématiques');
    const lycee = await h.categoryId('Lycée');
    const cycle = await h.call(
      'POST',
      '/admin/categories/hierarchy/add-parent',
      { category_id: lycee, parent_id: maths },
      administrator,
    );
    expect(cycle.status).toBe(422);
    expect(cycle.body.message).toBe('Ce lien créerait un cycle dans la hiérarchie.');
    const self = await h.call(
      'POST',
      '/admin/categories/hierarchy/add-parent',
      { category_id: maths, parent_id: maths },
      administrator,
    );
    expect(self.status).toBe(422);

    const edge = { category_id: await h.categoryId('Lecture'), parent_id: await h.categoryId('CM1') };
    const added = await h.call('POST', '/admin/categories/hierarchy/add-parent', edge, administrator);
    expect(added.body.message).toBe('Parent ajouté avec succès');
    const duplicate = await h.call('POST', '/admin/categories/hierarchy/add-parent', edge, administrator);
    expect(duplicate.body.message).toBe('Cette catégorie a déjà ce parent.');
    const removed = await h.call('DELETE', '/admin/categories/hierarchy/remove-parent', edge, administrator);
    expect(removed.body.message).toBe('Parent supprimé avec succès');

    // A chain of 10 levels under a root: the 11th is refused.
    let parent = (await h.call('POST', '/admin/categories', { name: 'Niveau 0' }, admin)).body.category.id;
    let refused: { status: number; body: { message: string } } | undefined;
    for (let level = 1; level <= 10 && !refused; level++) {
      const res = await h.call('POST', '/admin/categories', { name: `Niveau ${level}`, parent_id: parent }, admin);
      if (res.status !== 201) refused = res;
      else parent = res.body.category.id;
    }
    expect(refused?.status).toBe(422);
    expect(refused?.body.message).toBe('La hiérarchie ne peut pas dépasser 10 niveaux.');
  });

  it('moves a category, refusing a move under its own descendant', async () => {
    const terminale = await h.categoryId('Terminale');
    const bad = await h.call(
      'PUT',
      `/admin/categories/${terminale}/move`,
      { parent_id: await h.categoryId('Terminale C') },
      administrator,
    );
    expect(bad.status).toBe(422);
    const root = await h.call(
      'PUT',
      `/admin/categories/${await h.categoryId('Informatique')}/move`,
      { parent_id: null },
      administrator,
    );
    expect(root.body.category).toMatchObject({ parent_id: null, depth: 0 });
  });

  it('lets only administrators add, remove or move parents, whatever permission another holds (SPEC.md section 6)', async () => {
    const edge = { category_id: await h.categoryId('Lecture'), parent_id: await h.categoryId('CM2') };
    const cityManager = (await h.token({ permissions: ['cities.manage'] })).token;
    const everything = (await h.token({ permissions: ['categories.update', 'cities.manage'] })).token;
    const wildcard = (await h.token({ permissions: ['*'] })).token;
    for (const token of [admin, cityManager, everything, wildcard]) {
      const add = await h.call('POST', '/admin/categories/hierarchy/add-parent', edge, token);
      expect(add.status).toBe(403);
      expect(add.body.message).toMatch(/administrateurs|autorisation/);
      expect((await h.call('DELETE', '/admin/categories/hierarchy/remove-parent', edge, token)).status).toBe(403);
      const move = await h.call('PUT', `/admin/categories/${edge.category_id}/move`, { parent_id: null }, token);
      expect(move.status).toBe(403);
    }
    // Nothing changed: Lecture is still under its parents only.
    const parents = (await h.call('GET', `/categories/${edge.category_id}/parents`)).body.categories;
    expect(parents.map((p: { id: number }) => p.id)).not.toContain(edge.parent_id);
    expect(parents.length).toBeGreaterThan(0);
    // The administrator may, and a holder of categories.update still creates and renames.
    expect((await h.call('POST', '/admin/categories/hierarchy/add-parent', edge, administrator)).status).toBe(200);
    expect((await h.call('DELETE', '/admin/categories/hierarchy/remove-parent', edge, administrator)).status).toBe(200);
    const created = await h.call('POST', '/admin/categories', { name: 'Latin', parent_id: edge.parent_id }, admin);
    expect(created.status).toBe(201);
    expect((await h.call('DELETE', `/admin/categories/${created.body.category.id}`, undefined, admin)).status).toBe(
      200,
    );
  });

  it('refuses deleting a category books use, and counts books where the catalogue filters them', async () => {
    const seller = await h.token();
    const philo = await h.categoryId('Philosophie');
    const res = await h.form(
      'POST',
      '/books',
      {
        title: 'Philosophie Terminale',
        author: 'Nathan',
        condition: 'bon',
        price: '6000',
        city_id: String(await h.cityId('Libreville')),
        category_ids: String(philo),
      },
      {},
      seller.token,
    );
    expect(res.status).toBe(201);
    const used = await h.call('DELETE', `/admin/categories/${philo}`, undefined, admin);
    expect(used.status).toBe(422);
    expect(used.body.message).toContain('utilisée par 1 manuel');
    const lycee = (await h.call('GET', '/categories/roots')).body.categories.find(
      (c: { name: string }) => c.name === 'Lycée',
    );
    expect(lycee.book_count).toBe(1);
    const stats = await h.call('GET', '/admin/categories/stats', undefined, admin);
    expect(stats.body.stats.roots).toBeGreaterThanOrEqual(3);
  });
});
