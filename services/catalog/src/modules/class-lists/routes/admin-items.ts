import {
  CLASS_LIST_IMPORT_MAX_BYTES,
  classListImportQuerySchema,
  classListImportResponseSchema,
  classListItemRequestSchema,
  classListItemUpdateRequestSchema,
  classListItemWriteResponseSchema,
  classListVersionsResponseSchema,
  idParamsSchema,
  classListMessages as m,
  messageResponseSchema,
  positiveId,
} from '@cartable/contracts';
import { unprocessable } from '@cartable/service-kit';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ClassListRouteDeps } from './deps.ts';
import { LISTS_PERMISSION } from './public.ts';

const tags = ['class-lists'];
const security = [{ bearer: [] }];
const itemParams = z.object({ id: positiveId(), item_id: positiveId(m.itemNotFound) });

/** The books of a list in the back office (lists.manage): one by one, or a CSV import; its versions. */
export const adminClassListItemRoutes: FastifyPluginAsyncZod<ClassListRouteDeps> = async (
  app,
  { guards, classLists },
) => {
  const { books, admin } = classLists;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: CLASS_LIST_IMPORT_MAX_BYTES, files: 1, fields: 5 },
  });
  const manage = { onRequest: guards.requirePermission(LISTS_PERMISSION) };

  app.post(
    '/admin/class-lists/:id/items',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        body: classListItemRequestSchema,
        response: { 201: classListItemWriteResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ message: m.itemAdded, item: await admin.addItem(request.params.id, request.body) }),
  );

  app.put(
    '/admin/class-lists/:id/items/:item_id',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: itemParams,
        body: classListItemUpdateRequestSchema,
        response: { 200: classListItemWriteResponseSchema },
      },
    },
    async (request) => ({
      message: m.itemUpdated,
      item: await admin.updateItem(request.params.id, request.params.item_id, request.body),
    }),
  );

  app.delete(
    '/admin/class-lists/:id/items/:item_id',
    { ...manage, schema: { tags, security, params: itemParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      await admin.removeItem(request.params.id, request.params.item_id);
      return { message: m.itemDeleted };
    },
  );

  app.post(
    '/admin/class-lists/:id/items/:item_id/replace',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: itemParams,
        body: classListItemRequestSchema,
        response: { 201: classListItemWriteResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: m.itemReplaced,
        item: await admin.replaceItem(request.params.id, request.params.item_id, request.body),
      }),
  );

  app.get(
    '/admin/class-lists/:id/versions',
    {
      ...manage,
      schema: { tags, security, params: idParamsSchema, response: { 200: classListVersionsResponseSchema } },
    },
    async (request) => ({ data: await admin.versions(request.params.id) }),
  );

  app.post(
    '/admin/class-lists/:id/import',
    {
      ...manage,
      schema: {
        tags,
        security,
        params: idParamsSchema,
        querystring: classListImportQuerySchema,
        response: { 200: classListImportResponseSchema },
      },
    },
    async (request) => {
      await books.listOrNotFound(request.params.id);
      if (!request.isMultipart()) throw unprocessable({ csv_file: [m.csvRequired] });
      let bytes: Buffer | null = null;
      for await (const part of request.parts()) {
        if (part.type === 'file' && part.fieldname === 'csv_file') {
          bytes = await part.toBuffer();
          if (part.file.truncated)
            throw unprocessable({
              csv_file: [`Fichier trop lourd : ${CLASS_LIST_IMPORT_MAX_BYTES / 1024} Ko au plus.`],
            });
        } else if (part.type === 'file') await part.toBuffer();
      }
      if (!bytes) throw unprocessable({ csv_file: [m.csvRequired] });
      return classLists.importCsv(request.params.id, bytes, request.query.dry_run);
    },
  );
};
