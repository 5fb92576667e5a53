import {
  type Category,
  categoriesResponseSchema,
  categoryCreateRequestSchema,
  categoryDetailsResponseSchema,
  categoryEdgeRequestSchema,
  categoryMoveRequestSchema,
  categoryOrderRequestSchema,
  categoryRefsResponseSchema,
  categoryResponseSchema,
  categoryStatsResponseSchema,
  categoryUpdateRequestSchema,
  idParamsSchema,
  MAX_CATEGORY_DEPTH,
  messageResponseSchema,
} from '@cartable/contracts';
import { HttpError, notFound } from '@cartable/service-kit';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { books, categories, categoryParents } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { refreshSavedSearches } from '../domain/saved-searches.ts';
import type { CategoryView } from '../modules/taxonomy/domain/category-store.ts';

const idParams = idParamsSchema;
const NOT_FOUND = 'Catégorie introuvable.';
const tags = ['categories'];
const security = [{ bearer: [] }];
type CategoryDto = Category;

/** SPEC.md section 7 "Categories": reads for everyone, changes for administrators. */
export const categoryRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, categoryStore, guards } = deps;
  // Saved searches hold their categories resolved (a level with those below it): a change of the
  // hierarchy resolves them again, after the answer, in the background.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || reply.statusCode >= 300 || !request.url.startsWith('/admin/categories')) return;
    refreshSavedSearches(db, () => categoryStore.view()).catch((err: unknown) =>
      request.log.warn({ err }, 'saved searches not refreshed after a category change'),
    );
  });

  function dto({ graph, bookCount }: CategoryView, id: number): CategoryDto {
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

  app.get('/categories', { schema: { tags, response: { 200: categoriesResponseSchema } } }, async () => {
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
  // Sent as a string already serialised: the schema documents it, Fastify sends it as it is.
  const hierarchyRoute = { schema: { tags, response: { 200: categoriesResponseSchema } } };
  app.get('/categories/hierarchy', hierarchyRoute, hierarchy);
  app.get('/categories/hierarchy/tree', hierarchyRoute, hierarchy);
  app.get('/categories/roots', hierarchyRoute, async () => {
    const view = await categoryStore.view();
    return { categories: view.graph.roots().map((id) => dto(view, id)) };
  });
  app.get('/categories/leaves', hierarchyRoute, async () => {
    const view = await categoryStore.view();
    return { categories: view.graph.leaves().map((id) => dto(view, id)) };
  });
  app.get(
    '/categories/:id',
    { schema: { tags, params: idParams, response: { 200: categoryResponseSchema } } },
    async (request) => {
      const view = await known(request.params.id);
      return {
        category: {
          ...dto(view, request.params.id),
          children: tree(view, view.graph.nodes.get(request.params.id)!.children),
        },
      };
    },
  );

  const relation = {
    parents: (v: CategoryView, id: number) => v.graph.nodes.get(id)!.parents,
    children: (v: CategoryView, id: number) => v.graph.nodes.get(id)!.children,
    ancestors: (v: CategoryView, id: number) => v.graph.ancestors(id),
    descendants: (v: CategoryView, id: number) => v.graph.descendants(id),
  };
  for (const [name, pick] of Object.entries(relation)) {
    app.get(
      `/categories/:id/${name}`,
      { schema: { tags, params: idParams, response: { 200: categoryRefsResponseSchema } } },
      async (request) => {
        const view = await known(request.params.id);
        return { categories: pick(view, request.params.id).map((id) => view.graph.ref(id)) };
      },
    );
  }
  app.get(
    '/categories/:id/details',
    { schema: { tags, params: idParams, response: { 200: categoryDetailsResponseSchema } } },
    async (request) => {
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
    },
  );

  // ── administration ────────────────────────────────────────────────────────
  const admin = { preHandler: guards.requirePermission('categories.update') };
  /**
   * SPEC.md section 6: only administrators add or remove a category's parents (moving one
   * does both); holders of categories.update create, rename, order and delete categories.
   */
  const hierarchyAdmin = { preHandler: [guards.requirePermission('categories.update'), guards.requireAdmin] };
  const refuse = (message: string) => new HttpError(422, message, { parent_id: [message] });

  app.post(
    '/admin/categories',
    {
      ...admin,
      schema: { tags, security, body: categoryCreateRequestSchema, response: { 201: categoryResponseSchema } },
    },
    async (request, reply) => {
      const { name, parent_id, order } = request.body;
      const view = await categoryStore.view();
      if (parent_id && !view.graph.has(parent_id)) throw refuse('Catégorie parente introuvable.');
      if (parent_id && view.graph.depth(parent_id) + 1 >= MAX_CATEGORY_DEPTH)
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
      schema: {
        tags,
        security,
        params: idParams,
        body: categoryUpdateRequestSchema,
        response: { 200: categoryResponseSchema },
      },
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

  app.delete(
    '/admin/categories/:id',
    { ...admin, schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } } },
    async (request) => {
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
    },
  );

  app.get(
    '/admin/categories/stats',
    { ...admin, schema: { tags, security, response: { 200: categoryStatsResponseSchema } } },
    async () => {
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
    },
  );

  app.put(
    '/admin/categories/order',
    {
      ...admin,
      schema: { tags, security, body: categoryOrderRequestSchema, response: { 200: messageResponseSchema } },
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
      ...hierarchyAdmin,
      schema: {
        tags,
        security,
        params: idParams,
        body: categoryMoveRequestSchema,
        response: { 200: categoryResponseSchema },
      },
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

  const edgeRoute = {
    ...hierarchyAdmin,
    schema: { tags, security, body: categoryEdgeRequestSchema, response: { 200: messageResponseSchema } },
  };
  app.post('/admin/categories/hierarchy/add-parent', edgeRoute, async (request) => {
    const { category_id, parent_id } = request.body;
    const reason = (await categoryStore.view()).graph.refuseParent(category_id, parent_id);
    if (reason) throw refuse(reason);
    await db.insert(categoryParents).values({ categoryId: category_id, parentId: parent_id }).onConflictDoNothing();
    await categoryStore.invalidate();
    return { message: 'Parent ajouté avec succès' };
  });

  app.delete('/admin/categories/hierarchy/remove-parent', edgeRoute, async (request) => {
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
