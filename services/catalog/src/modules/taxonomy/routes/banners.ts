import {
  bannerFieldsSchema,
  bannerReorderRequestSchema,
  bannerResponseSchema,
  bannersResponseSchema,
  idParamsSchema,
  messageResponseSchema,
} from '@cartable/contracts';
import { type FieldErrors, fieldErrorsFromZod, hasPermission, unprocessable } from '@cartable/service-kit';
import { ImageRejected } from '@cartable/service-kit/images';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { processBannerImage } from '../domain/banners.ts';
import type { TaxonomyRouteDeps } from './deps.ts';

const idParams = idParamsSchema;
const tags = ['banners'];
const security = [{ bearer: [] }];

/** The banner form (multipart: the fields of bannerFieldsSchema and the file `image`), checked whole. */
async function readBannerForm(request: FastifyRequest) {
  if (!request.isMultipart()) throw unprocessable({ _: ['Envoyez le formulaire en multipart/form-data.'] });
  const raw: Record<string, unknown> = {};
  let image: Buffer | null = null;
  const errors: FieldErrors = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname !== 'image') continue;
      if (part.file.truncated) errors.image = ["L'image est trop lourde."];
      else if (bytes.length) {
        try {
          image = await processBannerImage(bytes);
        } catch (err) {
          if (!(err instanceof ImageRejected)) throw err;
          errors.image = [err.message];
        }
      }
    } else raw[part.fieldname] = part.value;
  }
  const parsed = bannerFieldsSchema.safeParse(raw);
  if (!parsed.success) Object.assign(errors, fieldErrorsFromZod(parsed.error.issues));
  if (!parsed.success || Object.keys(errors).length) throw unprocessable(errors);
  return { fields: parsed.data, image };
}

/** Carousel banners (SPEC.md section 2 « Home »); changes need banners.manage. */
export const bannerRoutes: FastifyPluginAsyncZod<TaxonomyRouteDeps> = async (app, { guards, config, taxonomy }) => {
  const banners = taxonomy.banners;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: config.BOOK_IMAGE_MAX_BYTES, files: 1, fields: 12 },
  });
  const manage = { onRequest: guards.requirePermission('banners.manage') };

  app.get(
    '/banners/active',
    { schema: { tags, response: { 200: bannersResponseSchema } } },
    async (_request, reply) => {
      // Revalidated at every load: a banner the back office adds, hides or moves shows at once.
      reply.header('cache-control', 'no-cache');
      return { banners: await banners.list(true) };
    },
  );

  app.get(
    '/banners',
    { ...manage, schema: { tags, security, response: { 200: bannersResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { banners: await banners.list(false) };
    },
  );

  // An inactive banner is a draft or an old campaign: it is the back office's until it is shown,
  // so anyone else is told it does not exist, as for an unknown id.
  app.get(
    '/banners/:id',
    { onRequest: guards.optionalUser, schema: { tags, params: idParams, response: { 200: bannerResponseSchema } } },
    async (request, reply) => {
      const manager = request.claims ? hasPermission(request.claims, 'banners.manage') : false;
      if (manager) reply.header('cache-control', 'no-store');
      return { banner: await banners.get(request.params.id, { withInactive: manager }) };
    },
  );

  app.post(
    '/banners',
    { ...manage, schema: { tags, security, response: { 201: bannerResponseSchema } } },
    async (request, reply) => {
      const { fields, image } = await readBannerForm(request);
      return reply.status(201).send({ banner: await banners.create(fields, image) });
    },
  );

  app.post(
    '/banners/:id',
    { ...manage, schema: { tags, security, params: idParams, response: { 200: bannerResponseSchema } } },
    async (request) => {
      await banners.assertExists(request.params.id);
      const { fields, image } = await readBannerForm(request);
      return { banner: await banners.update(request.params.id, fields, image) };
    },
  );

  app.delete(
    '/banners/:id',
    { ...manage, schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      await banners.remove(request.params.id);
      return { message: 'Bannière supprimée avec succès' };
    },
  );

  app.post(
    '/banners/reorder',
    {
      ...manage,
      schema: { tags, security, body: bannerReorderRequestSchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await banners.order(request.body.banners);
      return { message: 'Ordre des bannières enregistré' };
    },
  );
};
