import {
  adminClassListQuerySchema,
  CLASS_LIST_IMPORT_MAX_BYTES,
  classListCopyRequestSchema,
  classListCreateRequestSchema,
  classListPageSchema,
  classListRejectRequestSchema,
  classListResponseSchema,
  classListUpdateRequestSchema,
  classListWriteResponseSchema,
  idParamsSchema,
  classListMessages as m,
  messageResponseSchema,
  positiveId,
} from '@cartable/contracts';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ClassListRouteDeps } from './deps.ts';
import { LISTS_PERMISSION } from './public.ts';

const tags = ['class-lists'];
const security = [{ bearer: [] }];
const _itemParams = z.object({ id: positiveId(), item_id: positiveId(m.itemNotFound) });

/** The back office of class lists, for holders of lists.manage: the lists, copies, and proposals' review. */
export const adminClassListRoutes: FastifyPluginAsyncZod<ClassListRouteDeps> = async (app, { guards, classLists }) => {
  const { books, admin } = classLists;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: CLASS_LIST_IMPORT_MAX_BYTES, files: 1, fields: 5 },
  });
  const manage = { onRequest: guards.requirePermission(LISTS_PERMISSION) };

  app.get(
    '/admin/class-lists',
    {
      ...manage,
      schema: { tags, security, querystring: adminClassListQuerySchema, response: { 200: classListPageSchema } },
    },
    async (request) => {
      const q = request.query;
      const filter = {
        status: q.status,
        levelId: q.level_id,
        schoolYear: q.school_year,
        kind: q.kind,
        cityId: q.city_id,
        school: q.school,
        text: q.q,
      };
      // Proposals waiting first, then the newest.
      return books.page(filter, 'review', q.page);
    },
  );

  app.get(
    '/admin/class-lists/:id',
    { ...manage, schema: { tags, security, params: idParamsSchema, response: { 200: classListResponseSchema } } },
    async (request) => ({ list: await books.detail(request.params.id) }),
  );

  app.post(
    '/admin/class-lists',
    {
      ...manage,
      schema: { tags, security, body: classListCreateRequestSchema, response: { 201: classListWriteResponseSchema } },
    },
    async (request, reply) =>
      reply.status(201).send({ message: m.created, list: await admin.create(request.claims!.sub, request.body) }),
  );

  app.put(
    '/admin/class-lists/:id',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListUpdateRequestSchema,
        response: { 200: classListWriteResponseSchema },
      },
    },
    async (request) => ({
      message: m.updated,
      list: await admin.update(request.params.id, request.claims!.sub, request.body),
    }),
  );

  app.delete(
    '/admin/class-lists/:id',
    { ...manage, schema: { tags, security, params: idParamsSchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      await admin.remove(request.params.id);
      return { message: m.deleted };
    },
  );

  app.post(
    '/admin/class-lists/:id/copy',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListCopyRequestSchema,
        response: { 201: classListWriteResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: m.copied,
        list: await admin.copy(request.params.id, request.claims!.sub, request.body.school_year),
      }),
  );

  app.post(
    '/admin/class-lists/:id/approve',
    { ...manage, schema: { tags, security, params: idParamsSchema, response: { 200: classListWriteResponseSchema } } },
    async (request) => ({
      message: m.approved,
      list: await classLists.review(request.params.id, request.claims!.sub, { published: true }),
    }),
  );

  app.post(
    '/admin/class-lists/:id/reject',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListRejectRequestSchema,
        response: { 200: classListWriteResponseSchema },
      },
    },
    async (request) => ({
      message: m.rejected,
      list: await classLists.review(request.params.id, request.claims!.sub, {
        published: false,
        reason: request.body.reason,
      }),
    }),
  );
};
