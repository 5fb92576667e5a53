import { type Category, type EventData, MAX_CATEGORY_DEPTH } from '@cartable/contracts';
import { invalid, notFound, type Transaction, type UnitOfWork, unprocessable } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import type { CategoryStore, CategoryView } from './category-store.ts';
import type { TaxonomyUsage } from './usage.ts';

const NOT_FOUND = 'Catégorie introuvable.';
const ALREADY_PARENT = 'Cette catégorie a déjà ce parent.';

/** A refusal about where a category hangs, on its parent field. */
const refuse = (message: string) => unprocessable({ parent_id: [message] }, message);

/** A category as the API shows it (services/catalog/API.md). */
export function categoryDto({ graph, bookCount }: CategoryView, id: number): Category {
  const node = graph.nodes.get(id);
  // Deleted by another request in between.
  if (!node) throw notFound(NOT_FOUND);
  const count = bookCount(id);
  return {
    id,
    name: node.name,
    parent_id: node.parents[0] ?? null,
    order: node.order,
    depth: graph.depth(id),
    book_count: count,
    books_count: count,
    parents: node.parents.map((p) => ({ id: p, name: graph.nodes.get(p)?.name ?? '' })),
  };
}

/** Nested from the given ids; a category with two parents appears under both. */
export function categoryTree(view: CategoryView, ids: number[], level = 0): Category[] {
  return ids.map((id) => ({
    ...categoryDto(view, id),
    children: level < 10 ? categoryTree(view, view.graph.nodes.get(id)!.children, level + 1) : [],
  }));
}

/** The view, once `id` is known to be in it (else 404). */
export async function viewWith(store: CategoryStore, id: number) {
  const view = await store.view();
  if (!view.graph.has(id)) throw notFound(NOT_FOUND);
  return view;
}

const changed = (t: Transaction, ids: number[], change: EventData<'catalog.categories.changed'>['change']) =>
  t.record('catalog.categories.changed', { category_ids: ids, change, at: new Date().toISOString() });

/**
 * The administration of the hierarchy (SPEC.md section 6). Each change records
 * catalog.categories.changed, which clears the cached hierarchy and resolves the saved searches'
 * categories again.
 */
export function categoryAdmin(uow: UnitOfWork, store: CategoryStore, usage: TaxonomyUsage) {
  return {
    async create(input: { name: string; parent_id?: number | null | undefined; order?: number | undefined }) {
      const view = await store.view();
      const parentId = input.parent_id ?? null;
      if (parentId && !view.graph.has(parentId)) throw refuse('Catégorie parente introuvable.');
      if (parentId && view.graph.depth(parentId) + 1 >= MAX_CATEGORY_DEPTH)
        throw refuse('La hiérarchie ne peut pas dépasser 10 niveaux.');
      const id = await uow.run(async (t) => {
        const created = await queries.insertCategory(t.db, { name: input.name, order: input.order ?? 0, parentId });
        await changed(t, [created], 'created');
        return created;
      });
      return categoryDto(await store.view(), id);
    },

    async update(id: number, input: { name: string; order?: number | undefined }) {
      await viewWith(store, id);
      await uow.run(async (t) => {
        await queries.updateCategory(t.db, id, input);
        await changed(t, [id], 'updated');
      });
      return categoryDto(await store.view(), id);
    },

    /** Refused while it has children or listings: those would lose their place. */
    async remove(id: number) {
      const view = await viewWith(store, id);
      if (view.graph.nodes.get(id)!.children.length)
        throw invalid('Impossible de supprimer une catégorie qui a des sous-catégories.');
      // Sold and hidden listings too: they would keep a category that no longer exists.
      const used = await usage.listingsWithCategory(uow.db, id);
      if (used > 0) throw invalid(`Impossible de supprimer une catégorie utilisée par ${used} manuel(s).`);
      await uow.run(async (t) => {
        await queries.deleteCategory(t.db, id);
        await changed(t, [id], 'deleted');
      });
    },

    async order(order: ReadonlyArray<{ id: number; order: number }>) {
      await uow.run(async (t) => {
        await queries.setCategoryOrder(t.db, order);
        await changed(
          t,
          order.map((item) => item.id),
          'ordered',
        );
      });
    },

    /** Moving = leaving every current parent for this one (or none: a root). */
    async move(id: number, parentId: number | null) {
      const view = await viewWith(store, id);
      if (parentId !== null) {
        // Checked against the graph without the links it leaves.
        const reason = view.graph.refuseParent(id, parentId);
        if (reason && reason !== ALREADY_PARENT) throw refuse(reason);
      }
      await uow.run(async (t) => {
        await queries.setOnlyParent(t.db, id, parentId);
        await changed(t, [id], 'moved');
      });
      return categoryDto(await store.view(), id);
    },

    async addParent(id: number, parentId: number) {
      const reason = (await store.view()).graph.refuseParent(id, parentId);
      if (reason) throw refuse(reason);
      await uow.run(async (t) => {
        await queries.addParent(t.db, id, parentId);
        await changed(t, [id], 'parent_added');
      });
    },

    async removeParent(id: number, parentId: number) {
      await uow.run(async (t) => {
        if (!(await queries.removeParent(t.db, id, parentId))) throw notFound("Ce lien de parenté n'existe pas.");
        await changed(t, [id], 'parent_removed');
      });
    },
  };
}
export type CategoryAdmin = ReturnType<typeof categoryAdmin>;
