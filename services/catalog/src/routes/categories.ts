import { HttpError, notFound } from '@cartable/service-kit';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { books, categories, categoryParents } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import type { CategoryView } from '../domain/category-store.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });
const NOT_FOUND = 'Catégorie introuvable.';
const nameSchema = z
  .string({ error: 'Le nom est obligatoire' })
  .trim()
  .min(2, 'Le nom doit contenir au moins 2 caractères')
  .max(80);
const edgeBody = z.object({
  category_id: z.coerce.number().int().positive(),
  parent_id: z.coerce.number().int().positive(),
});

interface CategoryDto {
  id: number;
  name: string;
  parent_id: number | null;
  order: number;
  depth: number;
  book_count: number;
  books_count: number;
  parents: Array<{ id: number; name: string }>;
  children?: CategoryDto[];
}

/** SPEC.md section 7 "Categories": reads for everyone, changes for administrators. */
export const categoryRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, categoryStore, guards } = deps;

  function dto({ graph, bookCount }: CategoryView, id: number): CategoryDto {
    const node = graph.nodes.get(id)!;
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

  /** Nested from the roots; a category with two parents appears under both. */
  function tree(view: CategoryView, ids: number[], level = 0): CategoryDto[] {
    return ids.map((id) => ({
      ...dto(view, id),
      children: level < 10 ? tree(view, view.graph.nodes.get(id)!.children, level + 1) : [],
    }));
  }

  async function known(id: number) {
    const view = await categoryStore.view();
    if (!view.graph.has(id)) throw notFound(NOT_FOUND);
    return view;
  }

  app.get('/categories', async () => {
    const view = await categoryStore.view();
    const ids = [...view.graph.nodes.keys()].sort((a, b) => view.graph.depth(a) - view.graph.depth(b) || a - b);
    return { categories: ids.map((id) => dto(view, id)) };
  });
  // The tree is the same for everyone until the categories change: serialised once per view.
  const serialised = new WeakMap<CategoryView, string>();
  const hierarchy = async (_request: unknown, reply: FastifyReply) => {
    const view = await categoryStore.view();
    let body = serialised.get(view);
    if (!body) {
      body = JSON.stringify({ categories: tree(view, view.graph.roots()) });
      serialised.set(view, body);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  };
  app.get('/categories/hierarchy', hierarchy);
  app.get('/categories/hierarchy/tree', hierarchy);
  app.get('/categories/roots', async () => {
    const view = await categoryStore.view();
    return { categories: view.graph.roots().map((id) => dto(view, id)) };
  });
  app.get('/categories/leaves', async () => {
    const view = await categoryStore.view();
    return { categories: view.graph.leaves().map((id) => dto(view, id)) };
  });
  app.get('/categories/:id', { schema: { params: idParams } }, async (request) => {
    const view = await known(request.params.id);
    return {
      category: {
        ...dto(view, request.params.id),
        children: tree(view, view.graph.nodes.get(request.params.id)!.children),
      },
    };
  });

  const relation = {
    parents: (v: CategoryView, id: number) => v.graph.nodes.get(id)!.parents,
    children: (v: CategoryView, id: number) => v.graph.nodes.get(id)!.children,
    ancestors: (v: CategoryView, id: number) => v.graph.ancestors(id),
    descendants: (v: CategoryView, id: number) => v.graph.descendants(id),
  };
  for (const [name, pick] of Object.entries(relation)) {
    app.get(`/categories/:id/${name}`, { schema: { params: idParams } }, async (request) => {
      const view = await known(request.params.id);
      return { categories: pick(view, request.params.id).map((id) => view.graph.ref(id)) };
    });
  }
  app.get('/categories/:id/details', { schema: { params: idParams } }, async (request) => {
    const { id } = request.params;
    const view = await known(id);
    const refs = (ids: number[]) => ids.map((i) => view.graph.ref(i));
    return {
      category: dto(view, id),
      direct_parents: refs(view.graph.nodes.get(id)!.parents),
      direct_children: refs(view.graph.nodes.get(id)!.children),
      all_ancestors: refs(view.graph.ancestors(id)),
      all_descendants: refs(view.graph.descendants(id)),
    };
  });

  // ── administration ────────────────────────────────────────────────────────
  const admin = { preHandler: guards.requirePermission('categories.update') };
  const refuse = (message: string) => new HttpError(422, message, { parent_id: [message] });

  app.post(
    '/admin/categories',
    {
      ...admin,
      schema: {
        body: z.object({
          name: nameSchema,
          parent_id: z.coerce.number().int().positive().nullish(),
          order: z.coerce.number().int().optional(),
        }),
      },
    },
    async (request, reply) => {
      const { name, parent_id, order } = request.body;
      const view = await categoryStore.view();
      if (parent_id && !view.graph.has(parent_id)) throw refuse('Catégorie parente introuvable.');
      if (parent_id && view.graph.depth(parent_id) + 1 >= 10)
        throw refuse('La hiérarchie ne peut pas dépasser 10 niveaux.');
      const id = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(categories)
          .values({ name, order: order ?? 0 })
          .returning({ id: categories.id });
        if (parent_id) await tx.insert(categoryParents).values({ categoryId: created!.id, parentId: parent_id });
        return created!.id;
      });
      await categoryStore.invalidate();
      return reply.status(201).send({ category: dto(await categoryStore.view(), id) });
    },
  );

  app.put(
    '/admin/categories/:id',
    {
      ...admin,
      schema: { params: idParams, body: z.object({ name: nameSchema, order: z.coerce.number().int().optional() }) },
    },
    async (request) => {
      await known(request.params.id);
      await db
        .update(categories)
        .set({ name: request.body.name, ...(request.body.order !== undefined ? { order: request.body.order } : {}) })
        .where(eq(categories.id, request.params.id));
      await categoryStore.invalidate();
      return { category: dto(await categoryStore.view(), request.params.id) };
    },
  );

  app.delete('/admin/categories/:id', { ...admin, schema: { params: idParams } }, async (request) => {
    const { id } = request.params;
    const view = await known(id);
    if (view.graph.nodes.get(id)!.children.length) {
      throw new HttpError(422, 'Impossible de supprimer une catégorie qui a des sous-catégories.');
    }
    const [used] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(books)
      .where(sql`${books.categoryIds} @> array[${id}]::integer[]`);
    if ((used?.n ?? 0) > 0)
      throw new HttpError(422, `Impossible de supprimer une catégorie utilisée par ${used!.n} manuel(s).`);
    await db.delete(categories).where(eq(categories.id, id));
    await categoryStore.invalidate();
    return { message: 'Catégorie supprimée avec succès' };
  });

  app.get('/admin/categories/stats', admin, async () => {
    const { graph, bookCount } = await categoryStore.view();
    const ids = [...graph.nodes.keys()];
    return {
      stats: {
        total: ids.length,
        roots: graph.roots().length,
        leaves: graph.leaves().length,
        max_depth: Math.max(0, ...ids.map((id) => graph.depth(id))),
        with_books: ids.filter((id) => bookCount(id) > 0).length,
      },
    };
  });

  app.put(
    '/admin/categories/order',
    {
      ...admin,
      schema: {
        body: z.object({
          order: z.array(z.object({ id: z.number().int().positive(), order: z.number().int() })).min(1),
        }),
      },
    },
    async (request) => {
      await db.transaction(async (tx) => {
        for (const item of request.body.order)
          await tx.update(categories).set({ order: item.order }).where(eq(categories.id, item.id));
      });
      await categoryStore.invalidate();
      return { message: 'Ordre enregistré' };
    },
  );

  app.put(
    '/admin/categories/:id/move',
    {
      ...admin,
      schema: { params: idParams, body: z.object({ parent_id: z.coerce.number().int().positive().nullable() }) },
    },
    async (request) => {
      const { id } = request.params;
      const { parent_id } = request.body;
      const view = await known(id);
      if (parent_id !== null) {
        // Moving = leaving every current parent for this one; check against the graph without them.
        const reason = view.graph.refuseParent(id, parent_id);
        if (reason && reason !== 'Cette catégorie a déjà ce parent.') throw refuse(reason);
      }
      await db.transaction(async (tx) => {
        await tx.delete(categoryParents).where(eq(categoryParents.categoryId, id));
        if (parent_id !== null) await tx.insert(categoryParents).values({ categoryId: id, parentId: parent_id });
      });
      await categoryStore.invalidate();
      return { category: dto(await categoryStore.view(), id) };
    },
  );

  app.post('/admin/categories/hierarchy/add-parent', { ...admin, schema: { body: edgeBody } }, async (request) => {
    const { category_id, parent_id } = request.body;
    const reason = (await categoryStore.view()).graph.refuseParent(category_id, parent_id);
    if (reason) throw refuse(reason);
    await db.insert(categoryParents).values({ categoryId: category_id, parentId: parent_id }).onConflictDoNothing();
    await categoryStore.invalidate();
    return { message: 'Parent ajouté avec succès' };
  });

  app.delete('/admin/categories/hierarchy/remove-parent', { ...admin, schema: { body: edgeBody } }, async (request) => {
    const { category_id, parent_id } = request.body;
    const removed = await db
      .delete(categoryParents)
      .where(and(eq(categoryParents.categoryId, category_id), eq(categoryParents.parentId, parent_id)))
      .returning();
    if (!removed.length) throw notFound("Ce lien de parenté n'existe pas.");
    await categoryStore.invalidate();
    return { message: 'Parent supprimé avec succès' };
  });
};
