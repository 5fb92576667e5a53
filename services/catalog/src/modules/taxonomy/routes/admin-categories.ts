import {
  categoryCreateRequestSchema,
  categoryEdgeRequestSchema,
  categoryMoveRequestSchema,
  categoryOrderRequestSchema,
  categoryResponseSchema,
  categoryStatsResponseSchema,
  categoryUpdateRequestSchema,
  idParamsSchema,
  messageResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TaxonomyRouteDeps } from './deps.ts';

const idParams = idParamsSchema;
const tags = ['categories'];
const security = [{ bearer: [] }];

/**
 * The hierarchy's administration (SPEC.md section 6): holders of categories.update create, rename,
 * order and delete categories; only administrators add or remove a category's parents (moving
 * one does both).
 */
export const adminCategoryRoutes: FastifyPluginAsyncZod<TaxonomyRouteDeps> = async (app, { guards, taxonomy }) => {
  const admin = taxonomy.categoryAdmin;
  const allowed = { onRequest: guards.requirePermission('categories.update') };
  const hierarchyAdmin = { onRequest: [guards.requirePermission('categories.update'), guards.requireAdmin] };

  app.post(
    '/admin/categories',
    {
      ...allowed,
      schema: { tags, security, body: categoryCreateRequestSchema, response: { 201: categoryResponseSchema } },
    },
    async (request, reply) => reply.status(201).send({ category: await admin.create(request.body) }),
  );

  app.put(
    '/admin/categories/:id',
    {
      ...allowed,
      schema: {
        tags,
        security,
        params: idParams,
        body: categoryUpdateRequestSchema,
        response: { 200: categoryResponseSchema },
      },
    },
    async (request) => ({ category: await admin.update(request.params.id, request.body) }),
  );

  app.delete(
    '/admin/categories/:id',
    { ...allowed, schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      await admin.remove(request.params.id);
      return { message: 'Catégorie supprimée avec succès' };
    },
  );

  app.get(
    '/admin/categories/stats',
    { ...allowed, schema: { tags, security, response: { 200: categoryStatsResponseSchema } } },
    async () => {
      const { graph, bookCount } = await taxonomy.categories.view();
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
      ...allowed,
      schema: { tags, security, body: categoryOrderRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await admin.order(request.body.order);
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
    async (request) => ({ category: await admin.move(request.params.id, request.body.parent_id) }),
  );

  const edgeRoute = {
    ...hierarchyAdmin,
    schema: { tags, security, body: categoryEdgeRequestSchema, response: { 200: messageResponseSchema } },
  };
  app.post('/admin/categories/hierarchy/add-parent', edgeRoute, async (request) => {
    await admin.addParent(request.body.category_id, request.body.parent_id);
    return { message: 'Parent ajouté avec succès' };
  });
  app.delete('/admin/categories/hierarchy/remove-parent', edgeRoute, async (request) => {
    await admin.removeParent(request.body.category_id, request.body.parent_id);
    return { message: 'Parent supprimé avec succès' };
  });
};
