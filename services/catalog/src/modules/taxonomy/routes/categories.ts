import {
  categoriesResponseSchema,
  categoryDetailsResponseSchema,
  categoryRefsResponseSchema,
  categoryResponseSchema,
  idParamsSchema,
} from '@cartable/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { categoryDto, categoryTree, viewWith } from '../domain/categories.ts';
import type { CategoryView } from '../domain/category-store.ts';
import type { TaxonomyRouteDeps } from './deps.ts';

const idParams = idParamsSchema;
const tags = ['categories'];

/** SPEC.md section 7 « Categories »: the hierarchy, read by everyone. */
export const categoryRoutes: FastifyPluginAsyncZod<TaxonomyRouteDeps> = async (app, { taxonomy }) => {
  const store = taxonomy.categories;

  app.get('/categories', { schema: { tags, response: { 200: categoriesResponseSchema } } }, async () => {
    const view = await store.view();
    const ids = [...view.graph.nodes.keys()].sort((a, b) => view.graph.depth(a) - view.graph.depth(b) || a - b);
    return { categories: ids.map((id) => categoryDto(view, id)) };
  });

  // The tree is the same for everyone until the categories change: serialised once per view.
  const serialised = new WeakMap<CategoryView, string>();
  const hierarchy = async (_request: unknown, reply: FastifyReply) => {
    const view = await store.view();
    let body = serialised.get(view);
    if (!body) {
      body = JSON.stringify({ categories: categoryTree(view, view.graph.roots()) });
      serialised.set(view, body);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  };
  // Sent as a string already serialised: the schema documents it, Fastify sends it as it is.
  const hierarchyRoute = { schema: { tags, response: { 200: categoriesResponseSchema } } };
  app.get('/categories/hierarchy', hierarchyRoute, hierarchy);
  app.get('/categories/hierarchy/tree', hierarchyRoute, hierarchy);
  app.get('/categories/roots', hierarchyRoute, async () => {
    const view = await store.view();
    return { categories: view.graph.roots().map((id) => categoryDto(view, id)) };
  });
  app.get('/categories/leaves', hierarchyRoute, async () => {
    const view = await store.view();
    return { categories: view.graph.leaves().map((id) => categoryDto(view, id)) };
  });

  app.get(
    '/categories/:id',
    { schema: { tags, params: idParams, response: { 200: categoryResponseSchema } } },
    async (request) => {
      const { id } = request.params;
      const view = await viewWith(store, id);
      return {
        category: { ...categoryDto(view, id), children: categoryTree(view, view.graph.nodes.get(id)!.children) },
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
        const view = await viewWith(store, request.params.id);
        return { categories: pick(view, request.params.id).map((id) => view.graph.ref(id)) };
      },
    );
  }

  app.get(
    '/categories/:id/details',
    { schema: { tags, params: idParams, response: { 200: categoryDetailsResponseSchema } } },
    async (request) => {
      const { id } = request.params;
      const view = await viewWith(store, id);
      const refs = (ids: number[]) => ids.map((i) => view.graph.ref(i));
      return {
        category: categoryDto(view, id),
        direct_parents: refs(view.graph.nodes.get(id)!.parents),
        direct_children: refs(view.graph.nodes.get(id)!.children),
        all_ancestors: refs(view.graph.ancestors(id)),
        all_descendants: refs(view.graph.descendants(id)),
      };
    },
  );
};
