import {
  adminBookActionResponseSchema,
  adminBookListQuerySchema,
  adminBookPageSchema,
  adminBookResponseSchema,
  adminBookStatusRequestSchema,
  bookIdParamsSchema,
  bookModerationRequestSchema,
  messageResponseSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ListingRouteDeps } from './deps.ts';

const idParams = bookIdParamsSchema;
const tags = ['admin-books'];
const security = [{ bearer: [] }];

/**
 * The back office's books (SPEC.md section 2 « Gestion des livres »), for holders of
 * books.update.any: every listing, hidden and sold ones too; hide, show again, change the status,
 * delete, each with a reason its owner is told by e-mail (catalog.book.moderated).
 */
export const adminBookRoutes: FastifyPluginAsyncZod<ListingRouteDeps> = async (app, { guards, listings }) => {
  const moderation = listings.moderation;
  const allowed = { onRequest: guards.requirePermission('books.update.any') };

  app.get(
    '/admin/books',
    {
      ...allowed,
      schema: { tags, security, querystring: adminBookListQuerySchema, response: { 200: adminBookPageSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return moderation.page(request.query);
    },
  );

  app.get(
    '/admin/books/:id',
    { ...allowed, schema: { tags, security, params: idParams, response: { 200: adminBookResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { book: await moderation.adminBook(request.params.id) };
    },
  );

  app.put(
    '/admin/books/:id/status',
    {
      ...allowed,
      schema: {
        tags,
        security,
        params: idParams,
        body: adminBookStatusRequestSchema,
        response: { 200: adminBookActionResponseSchema },
      },
    },
    async (request) => {
      const { status, reason } = request.body;
      const changed = await moderation.setStatus(request.params.id, status, request.claims!.sub, reason ?? null);
      return {
        message: changed ? 'Statut mis à jour' : 'Statut inchangé',
        book: await moderation.adminBook(request.params.id),
      };
    },
  );

  app.post(
    '/admin/books/:id/hide',
    {
      ...allowed,
      schema: {
        tags,
        security,
        params: idParams,
        body: bookModerationRequestSchema,
        response: { 200: adminBookActionResponseSchema },
      },
    },
    async (request) => {
      await moderation.hide(request.params.id, request.claims!.sub, request.body.reason);
      return { message: 'Annonce masquée avec succès', book: await moderation.adminBook(request.params.id) };
    },
  );

  app.post(
    '/admin/books/:id/unhide',
    { ...allowed, schema: { tags, security, params: idParams, response: { 200: adminBookActionResponseSchema } } },
    async (request) => {
      await moderation.unhide(request.params.id, request.claims!.sub);
      return { message: 'Annonce de nouveau visible', book: await moderation.adminBook(request.params.id) };
    },
  );

  app.delete(
    '/admin/books/:id',
    {
      ...allowed,
      schema: {
        tags,
        security,
        params: idParams,
        body: bookModerationRequestSchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      await moderation.remove(request.params.id, request.claims!.sub, request.body.reason);
      return { message: 'Annonce supprimée avec succès' };
    },
  );
};
