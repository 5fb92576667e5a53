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
import { conflict, notFound } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { books } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { listAdminBooks, recordModeration, toAdminBooks } from '../domain/admin-books.ts';
import { deleteBook, nextVersion, recordBookEvent } from '../domain/book-writes.ts';
import { forgetListings } from '../domain/books.ts';

const idParams = bookIdParamsSchema;
const tags = ['admin-books'];
const security = [{ bearer: [] }];
const NOT_FOUND = 'Ce manuel est introuvable.';

/**
 * The back office's books (SPEC.md section 2 « Gestion des livres »), for holders of
 * books.update.any: every listing, hidden and sold ones too; hide, show again, change the status,
 * delete, each with a reason its owner is told by e-mail (catalog.book.moderated).
 */
export const adminBookRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, storage, categoryStore, guards, relay } = deps;
  const allowed = { preHandler: guards.requirePermission('books.update.any') };

  async function adminBook(id: number) {
    const [book] = await toAdminBooks(db, storage, await categoryStore.view(), [id]);
    if (!book) throw notFound(NOT_FOUND);
    return book;
  }

  /** The row, locked until the transaction ends, so two moderators' actions do not interleave. */
  async function lockedBook(tx: typeof db, id: number) {
    const [book] = await tx.select().from(books).where(eq(books.id, id)).for('update');
    if (!book) throw notFound(NOT_FOUND);
    return book;
  }

  async function afterWrite() {
    relay.kick();
    forgetListings();
    categoryStore.clear();
  }

  app.get(
    '/admin/books',
    {
      ...allowed,
      schema: { tags, security, querystring: adminBookListQuerySchema, response: { 200: adminBookPageSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listAdminBooks(db, storage, await categoryStore.view(), request.query);
    },
  );

  app.get(
    '/admin/books/:id',
    { ...allowed, schema: { tags, security, params: idParams, response: { 200: adminBookResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { book: await adminBook(request.params.id) };
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
      const changed = await db.transaction(async (tx) => {
        const book = await lockedBook(tx, request.params.id);
        if (book.status === status) return false;
        await tx
          .update(books)
          .set({ status, ...nextVersion })
          .where(eq(books.id, book.id));
        await recordBookEvent(tx, storage, 'catalog.book.status_changed', book.id, { previous_status: book.status });
        await recordModeration(tx, book, 'status_changed', request.claims!.sub, reason ?? null, status);
        return true;
      });
      if (changed) await afterWrite();
      return { message: changed ? 'Statut mis à jour' : 'Statut inchangé', book: await adminBook(request.params.id) };
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
      const { reason } = request.body;
      await db.transaction(async (tx) => {
        const book = await lockedBook(tx, request.params.id);
        if (book.hiddenAt) throw conflict('Cette annonce est déjà masquée.');
        await tx
          .update(books)
          .set({ hiddenAt: new Date(), hiddenReason: reason, ...nextVersion })
          .where(eq(books.id, book.id));
        await recordBookEvent(tx, storage, 'catalog.book.updated', book.id);
        await recordModeration(tx, book, 'hidden', request.claims!.sub, reason);
      });
      await afterWrite();
      return { message: 'Annonce masquée avec succès', book: await adminBook(request.params.id) };
    },
  );

  app.post(
    '/admin/books/:id/unhide',
    { ...allowed, schema: { tags, security, params: idParams, response: { 200: adminBookActionResponseSchema } } },
    async (request) => {
      await db.transaction(async (tx) => {
        const book = await lockedBook(tx, request.params.id);
        if (!book.hiddenAt) throw conflict("Cette annonce n'est pas masquée.");
        await tx
          .update(books)
          .set({ hiddenAt: null, hiddenReason: null, ...nextVersion })
          .where(eq(books.id, book.id));
        await recordBookEvent(tx, storage, 'catalog.book.updated', book.id);
        await recordModeration(tx, book, 'unhidden', request.claims!.sub, null);
      });
      await afterWrite();
      return { message: 'Annonce de nouveau visible', book: await adminBook(request.params.id) };
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
      const [book] = await db.select().from(books).where(eq(books.id, request.params.id));
      if (!book) throw notFound(NOT_FOUND);
      // The owner's own deletion path (images removed, catalog.book.deleted), plus the moderation event.
      await deleteBook(db, storage, book.id, async (tx) => {
        await recordModeration(tx, book, 'deleted', request.claims!.sub, request.body.reason);
      });
      await afterWrite();
      return { message: 'Annonce supprimée avec succès' };
    },
  );
};
