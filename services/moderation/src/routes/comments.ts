import {
  type AccessClaims,
  bookCommentsParamsSchema,
  commentPageSchema,
  commentParamsSchema,
  commentRequestSchema,
  commentResponseSchema,
  commentsQuerySchema,
  commentUpdateRequestSchema,
  messageResponseSchema,
  messages,
  moderateCommentParamsSchema,
  moderateCommentRequestSchema,
  pendingCommentsQuerySchema,
  pendingCommentsResponseSchema,
} from '@cartable/contracts';
import { forbidden } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModerationDeps } from '../deps.ts';
import {
  addComment,
  deleteComment,
  editComment,
  listComments,
  mayModerateComments,
  moderateComment,
  pendingComments,
} from '../domain/comments.ts';

/**
 * Comments on books and their moderation (services/moderation/API.md): HTTP in, HTTP out. The
 * schemas are libs/contracts/src/moderation.ts; the rules are in src/domain/comments.ts.
 */
export const commentRoutes: FastifyPluginAsyncZod<ModerationDeps> = async (app, { uow, guards }) => {
  const db = uow.db;
  const tags = ['comments'];
  const security = [{ bearer: [] }];

  app.get(
    '/books/:id/comments',
    {
      onRequest: guards.optionalUser,
      schema: {
        tags,
        params: bookCommentsParamsSchema,
        querystring: commentsQuerySchema,
        response: { 200: commentPageSchema },
      },
    },
    async (request) => listComments(db, request.claims, request.params.id, request.query.page),
  );

  app.post(
    '/books/:id/comments',
    {
      onRequest: guards.requireVerified,
      schema: {
        tags,
        security,
        params: bookCommentsParamsSchema,
        body: commentRequestSchema,
        response: { 201: commentResponseSchema },
      },
    },
    async (request, reply) => {
      const { content, parent_id } = request.body;
      const answer = await addComment({ uow }, request.claims!, request.params.id, { content, parentId: parent_id });
      return reply.status(201).send(answer);
    },
  );

  const editOptions = {
    onRequest: guards.requireVerified,
    schema: {
      tags,
      security,
      params: commentParamsSchema,
      body: commentUpdateRequestSchema,
      response: { 200: commentResponseSchema },
    },
  };
  const edit = (request: {
    params: { id: number; commentId: string };
    body: { content: string };
    claims?: AccessClaims;
  }) => editComment(db, request.claims!, request.params.id, request.params.commentId, request.body.content);
  app.put('/books/:id/comments/:commentId', editOptions, edit);
  app.patch('/books/:id/comments/:commentId', editOptions, edit);

  app.delete(
    '/books/:id/comments/:commentId',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: commentParamsSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => deleteComment(db, request.claims!, request.params.id, request.params.commentId),
  );

  app.get(
    '/admin/comments/pending',
    {
      onRequest: guards.requireAdmin,
      schema: {
        tags,
        security,
        querystring: pendingCommentsQuerySchema,
        response: { 200: pendingCommentsResponseSchema },
      },
    },
    async (request) =>
      pendingComments(db, request.query.page, request.query.per_page, {
        q: request.query.q,
        order: request.query.order,
      }),
  );

  app.patch(
    '/admin/comments/:commentId/moderate',
    {
      // Admins, and a book's owner for the comments on their book: the domain checks which; a
      // member who owns no book is refused here, before the request is judged.
      onRequest: [
        guards.requireUser,
        async (request) => {
          if (!(await mayModerateComments(db, request.claims!))) throw forbidden(messages.forbidden);
        },
      ],
      schema: {
        tags,
        security,
        params: moderateCommentParamsSchema,
        body: moderateCommentRequestSchema,
        response: { 200: commentResponseSchema },
      },
    },
    async (request) => moderateComment({ uow }, request.claims!, request.params.commentId, request.body.status),
  );
};
