import {
  adminCityListQuerySchema,
  adminCityPageSchema,
  cityImportQuerySchema,
  cityImportResponseSchema,
  cityRequestSchema,
  cityResponseSchema,
  idParamsSchema,
  messageResponseSchema,
} from '@cartable/contracts';
import { unprocessable } from '@cartable/service-kit';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TaxonomyRouteDeps } from './deps.ts';

const idParams = idParamsSchema;
const tags = ['locations'];
const security = [{ bearer: [] }];
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
const NO_FILE = 'Envoyez un fichier CSV dans le champ csv_file.';

/** Town management and the CSV import (SPEC.md section 7), for holders of cities.manage. */
export const adminTownRoutes: FastifyPluginAsyncZod<TaxonomyRouteDeps> = async (app, { guards, taxonomy }) => {
  const admin = taxonomy.townAdmin;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5 },
  });
  const allowed = { onRequest: guards.requirePermission('cities.manage') };

  /** The back office's list: GET /cities' filters, never cached, with what uses each town. */
  app.get(
    '/admin/cities',
    {
      ...allowed,
      schema: { tags, security, querystring: adminCityListQuerySchema, response: { 200: adminCityPageSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { code, country_id, search, province, major_only, is_major, per_page, page } = request.query;
      const filter = { countryCode: code, countryId: country_id, search, province, majorOnly: major_only ?? is_major };
      return admin.page(filter, per_page, page);
    },
  );

  app.post(
    '/admin/cities',
    { ...allowed, schema: { tags, security, body: cityRequestSchema, response: { 201: cityResponseSchema } } },
    async (request, reply) => reply.status(201).send({ city: await admin.create(request.body) }),
  );

  app.put(
    '/admin/cities/:id',
    {
      ...allowed,
      schema: { tags, security, params: idParams, body: cityRequestSchema, response: { 200: cityResponseSchema } },
    },
    async (request) => ({ city: await admin.update(request.params.id, request.body) }),
  );

  app.delete(
    '/admin/cities/:id',
    { ...allowed, schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      await admin.remove(request.params.id);
      return { message: 'Ville supprimée avec succès' };
    },
  );

  /** Multipart: `csv_file`, and `country_id` (Gabon when absent); `?dry_run=true` is the preview. */
  app.post(
    '/admin/cities/import',
    {
      ...allowed,
      schema: { tags, security, querystring: cityImportQuerySchema, response: { 200: cityImportResponseSchema } },
    },
    async (request) => {
      if (!request.isMultipart()) throw unprocessable({ csv_file: [NO_FILE] });
      let csv: Buffer | null = null;
      let countryField: string | undefined;
      for await (const part of request.parts()) {
        if (part.type === 'file' && part.fieldname === 'csv_file') {
          csv = await part.toBuffer();
          if (part.file.truncated) throw unprocessable({ csv_file: ['Le fichier ne doit pas dépasser 2 Mo.'] });
        } else if (part.type === 'file') {
          await part.toBuffer();
        } else if (part.fieldname === 'country_id') {
          countryField = String(part.value);
        }
      }
      if (!csv) throw unprocessable({ csv_file: [NO_FILE] });
      return admin.importCsv(csv, countryField, request.query.dry_run);
    },
  );
};
