import { type AccessClaims, messages } from '@cartable/contracts';
import { forbidden, HttpError, notFound, recordEvent } from '@cartable/service-kit';
import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ModerationDeps } from '../app.ts';
import { books, comments, members } from '../db/schema.ts';

const PER_PAGE = 10;
const EMPTY = 'Le commentaire ne peut pas être vide';
/** SPEC.md section 5: 2 to 500 characters. */
const content = z
  .string({ error: EMPTY })
  .trim()
  // Empty says so alone, not also "too short".
  .min(1, { message: EMPTY, abort: true })
  .min(2, 'Le commentaire doit contenir au moins 2 caractères')
  .max(500, 'Le commentaire ne peut pas dépasser 500 caractères');
const bookParams = z.object({ id: z.coerce.number().int().positive() });
const commentParams = bookParams.extend({ commentId: z.string().uuid() });
const pageQuery = z.object({ page: z.coerce.number().int().min(1).default(1) });

type CommentRow = typeof comments.$inferSelect;

/** Comments on books and their moderation (services/moderation/API.md, SPEC.md sections 4 and 6). */
export const commentRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, { db, guards, relay }) => {
  async function bookOf(id: number) {
    const [book] = await db
      .select()
      .from(books)
      .where(and(eq(books.id, id), isNull(books.deletedAt)));
    if (!book) throw notFound('Manuel introuvable.');
    return book;
  }

  const canModerate = (claims: AccessClaims | undefined, ownerId: string) =>
    Boolean(claims && (claims.is_admin || claims.sub === ownerId));

  async function dtos(rows: CommentRow[], claims: AccessClaims | undefined, ownerId: string) {
    const people = rows.length
      ? await db
          .select()
          .from(members)
          .where(inArray(members.id, [...new Set(rows.map((r) => r.userId))]))
      : [];
    const moderator = canModerate(claims, ownerId);
    const one = (r: CommentRow) => {
      const who = people.find((p) => p.id === r.userId);
      return {
        id: r.id,
        content: r.content,
        parent_id: r.parentId,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
        status: r.status,
        user: { id: r.userId, name: who?.name ?? 'Membre', profile_image: who?.profileImage ?? null },
        can_edit: claims?.sub === r.userId,
        can_delete: claims?.sub === r.userId || moderator,
        can_moderate: moderator && r.status === 'pending',
        replies: [] as unknown[],
      };
    };
    return rows.map(one);
  }

  /** Who sees what: everyone the approved ones; authors their own pending; owner and admins every pending one. */
  function visible(claims: AccessClaims | undefined, ownerId: string) {
    if (canModerate(claims, ownerId)) return ne(comments.status, 'rejected');
    if (claims)
      return or(eq(comments.status, 'approved'), and(eq(comments.status, 'pending'), eq(comments.userId, claims.sub)));
    return eq(comments.status, 'approved');
  }

  app.get(
    '/books/:id/comments',
    { preHandler: guards.optionalUser, schema: { params: bookParams, querystring: pageQuery } },
    async (request) => {
      const book = await bookOf(request.params.id);
      const claims = request.claims;
      const shown = visible(claims, book.ownerId);
      const top = and(eq(comments.bookId, book.id), isNull(comments.parentId), shown);
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(comments).where(top);
      const page = request.query.page;
      const roots = await db
        .select()
        .from(comments)
        .where(top)
        .orderBy(desc(comments.createdAt), desc(comments.id))
        .limit(PER_PAGE)
        .offset((page - 1) * PER_PAGE);
      // Every reply under those (any depth), in one recursive query.
      const replies: Array<{ id: string }> = [];
      if (roots.length) {
        const result = await db.execute(sql`
          with recursive thread as (
            select * from ${comments} where parent_id in ${roots.map((r) => r.id)}
            union all
            select c.* from ${comments} c join thread t on c.parent_id = t.id
          ) select id from thread`);
        // node-postgres and PGlite both answer { rows }.
        replies.push(...(result as unknown as { rows: Array<{ id: string }> }).rows);
      }
      const replyRows = replies.length
        ? await db
            .select()
            .from(comments)
            .where(
              and(
                inArray(
                  comments.id,
                  replies.map((r) => r.id),
                ),
                shown,
              ),
            )
            .orderBy(asc(comments.createdAt))
        : [];
      const all = await dtos([...roots, ...replyRows], claims, book.ownerId);
      const byId = new Map(all.map((c) => [c.id, c]));
      for (const reply of all.slice(roots.length)) byId.get(reply.parent_id!)?.replies.push(reply);
      return {
        data: all.slice(0, roots.length),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / PER_PAGE)), total },
      };
    },
  );

  app.post(
    '/books/:id/comments',
    {
      preHandler: guards.requireVerified,
      schema: { params: bookParams, body: z.object({ content, parent_id: z.string().uuid().nullish() }) },
    },
    async (request, reply) => {
      const claims = request.claims!;
      const book = await bookOf(request.params.id);
      const { parent_id } = request.body;
      if (parent_id) {
        const [parent] = await db
          .select()
          .from(comments)
          .where(and(eq(comments.id, parent_id), eq(comments.bookId, book.id)));
        if (!parent || parent.status === 'rejected')
          throw new HttpError(422, 'Ce commentaire n’existe plus.', { parent_id: ['Commentaire introuvable'] });
      }
      // SPEC.md section 4: neither an admin nor the book's owner → held for moderation.
      const held = !canModerate(claims, book.ownerId);
      const [author] = await db.select().from(members).where(eq(members.id, claims.sub));
      const saved = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(comments)
          .values({
            bookId: book.id,
            userId: claims.sub,
            parentId: parent_id ?? null,
            content: request.body.content,
            status: held ? 'pending' : 'approved',
          })
          .returning();
        await recordEvent(tx, 'moderation.comment.created', {
          comment_id: row!.id,
          book_id: book.id,
          book_title: book.title,
          book_owner_id: book.ownerId,
          author_id: claims.sub,
          author_name: author?.name ?? 'Un membre',
          content: row!.content,
          status: row!.status,
        });
        return row!;
      });
      relay.kick();
      const [dto] = await dtos([saved], claims, book.ownerId);
      return reply.status(201).send({
        message: `Commentaire ajouté avec succès${held ? ' (en attente de modération)' : ''}`,
        data: dto,
      });
    },
  );

  const update = async (request: {
    params: { id: number; commentId: string };
    body: { content: string };
    claims?: AccessClaims;
  }) => {
    const claims = request.claims!;
    const book = await bookOf(request.params.id);
    const [row] = await db
      .select()
      .from(comments)
      .where(and(eq(comments.id, request.params.commentId), eq(comments.bookId, book.id)));
    if (!row || row.status === 'rejected') throw notFound('Commentaire introuvable.');
    if (row.userId !== claims.sub) throw forbidden('Seul son auteur peut modifier ce commentaire.');
    // An edited comment is checked again, unless its author may publish directly.
    const status = canModerate(claims, book.ownerId) ? row.status : 'pending';
    const [saved] = await db
      .update(comments)
      .set({ content: request.body.content, status, updatedAt: new Date() })
      .where(eq(comments.id, row.id))
      .returning();
    const [dto] = await dtos([saved!], claims, book.ownerId);
    return { message: 'Commentaire mis à jour avec succès', data: dto };
  };
  const editOptions = {
    preHandler: guards.requireVerified,
    schema: { params: commentParams, body: z.object({ content }) },
  };
  app.put('/books/:id/comments/:commentId', editOptions, update);
  app.patch('/books/:id/comments/:commentId', editOptions, update);

  app.delete(
    '/books/:id/comments/:commentId',
    { preHandler: guards.requireUser, schema: { params: commentParams } },
    async (request) => {
      const claims = request.claims!;
      const book = await bookOf(request.params.id);
      const [row] = await db
        .select()
        .from(comments)
        .where(and(eq(comments.id, request.params.commentId), eq(comments.bookId, book.id)));
      if (!row) throw notFound('Commentaire introuvable.');
      if (row.userId !== claims.sub && !canModerate(claims, book.ownerId)) throw forbidden();
      // Its replies go with it.
      await db.execute(sql`
        with recursive thread as (
          select id from ${comments} where id = ${row.id}
          union all
          select c.id from ${comments} c join thread t on c.parent_id = t.id
        ) delete from ${comments} where id in (select id from thread)`);
      return { message: 'Commentaire supprimé avec succès' };
    },
  );

  app.get(
    '/admin/comments/pending',
    {
      preHandler: guards.requireAdmin,
      schema: { querystring: pageQuery.extend({ per_page: z.coerce.number().int().min(1).max(100).default(20) }) },
    },
    async (request) => {
      const { page, per_page } = request.query;
      const pending = eq(comments.status, 'pending');
      const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(comments).where(pending);
      const rows = await db
        .select({ comment: comments, name: members.name })
        .from(comments)
        .leftJoin(members, eq(members.id, comments.userId))
        .where(pending)
        .orderBy(asc(comments.createdAt))
        .limit(per_page)
        .offset((page - 1) * per_page);
      return {
        data: rows.map(({ comment: c, name }) => ({
          id: c.id,
          content: c.content,
          created_at: c.createdAt.toISOString(),
          book_id: c.bookId,
          parent_id: c.parentId,
          user: { id: c.userId, name: name ?? 'Membre' },
        })),
        meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total },
      };
    },
  );

  app.patch(
    '/admin/comments/:commentId/moderate',
    {
      preHandler: guards.requireUser,
      schema: {
        params: z.object({ commentId: z.string().uuid() }),
        body: z.object({ status: z.enum(['approved', 'rejected'], { error: 'Statut : approved ou rejected' }) }),
      },
    },
    async (request) => {
      const claims = request.claims!;
      const [row] = await db.select().from(comments).where(eq(comments.id, request.params.commentId));
      if (!row) throw notFound('Commentaire introuvable.');
      const [book] = await db.select().from(books).where(eq(books.id, row.bookId));
      // Admins moderate everything; a book's owner the comments on that book.
      if (!claims.is_admin && claims.sub !== book?.ownerId) throw forbidden(messages.forbidden);
      const { status } = request.body;
      const saved = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(comments)
          .set({ status, moderatedBy: claims.sub, moderatedAt: new Date() })
          .where(eq(comments.id, row.id))
          .returning();
        await recordEvent(tx, 'moderation.comment.moderated', {
          comment_id: row.id,
          book_id: row.bookId,
          author_id: row.userId,
          status,
          moderated_by: claims.sub,
        });
        return updated!;
      });
      relay.kick();
      const [dto] = await dtos([saved], claims, book?.ownerId ?? '');
      return {
        message: status === 'approved' ? 'Commentaire approuvé avec succès' : 'Commentaire rejeté avec succès',
        data: dto,
      };
    },
  );
};
