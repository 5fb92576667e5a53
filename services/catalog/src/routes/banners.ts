import { randomUUID } from 'node:crypto';
import {
  type BannerFields,
  bannerFieldsSchema,
  bannerLinkKind,
  bannerReorderRequestSchema,
  bannerResponseSchema,
  bannersResponseSchema,
  idParamsSchema,
  messageResponseSchema,
} from '@cartable/contracts';
import { type FieldErrors, fieldErrorsFromZod, notFound, unprocessable } from '@cartable/service-kit';
import { ImageRejected } from '@cartable/service-kit/images';
import multipart from '@fastify/multipart';
import { asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { banners } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { processBannerImage } from '../domain/book-images.ts';

const idParams = idParamsSchema;
const bannerFields = bannerFieldsSchema;
const tags = ['banners'];
const security = [{ bearer: [] }];

/** Carousel banners (SPEC.md section 2 "Home"); changes need banners.manage. */
export const bannerRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, { db, guards, storage, config }) => {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: config.BOOK_IMAGE_MAX_BYTES, files: 1, fields: 12 },
  });
  const manage = { preHandler: guards.requirePermission('banners.manage') };

  const dto = (b: typeof banners.$inferSelect) => ({
    id: b.id,
    title: b.title,
    subtitle: b.subtitle,
    image_url: b.imageKey ? storage.url(b.imageKey) : null,
    button_text: b.buttonText,
    // A link stored before links were checked is shown only if it is one (never javascript:).
    button_link: b.buttonLink && bannerLinkKind(b.buttonLink) ? b.buttonLink : null,
    color: b.color,
    order: b.order,
    is_active: b.isActive,
  });

  async function readForm(request: FastifyRequest) {
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
    const parsed = bannerFields.safeParse(raw);
    if (!parsed.success) Object.assign(errors, fieldErrorsFromZod(parsed.error.issues));
    if (!parsed.success || Object.keys(errors).length) throw unprocessable(errors);
    return { fields: parsed.data, image };
  }

  async function storeImage(image: Buffer | null) {
    if (!image) return null;
    const key = `banners/${randomUUID()}.webp`;
    await storage.put(key, image, 'image/webp');
    return key;
  }

  const values = (f: BannerFields) => ({
    title: f.title,
    subtitle: f.subtitle ?? null,
    buttonText: f.button_text ?? null,
    buttonLink: f.button_link ?? null,
    color: f.color,
    order: f.order,
    isActive: f.is_active,
  });

  app.get(
    '/banners/active',
    { schema: { tags, response: { 200: bannersResponseSchema } } },
    async (_request, reply) => {
      // Revalidated at every load: a banner the back office adds, hides or moves shows at once.
      reply.header('cache-control', 'no-cache');
      const rows = await db
        .select()
        .from(banners)
        .where(eq(banners.isActive, true))
        .orderBy(asc(banners.order), asc(banners.id));
      return { banners: rows.map(dto) };
    },
  );

  app.get(
    '/banners',
    { ...manage, schema: { tags, security, response: { 200: bannersResponseSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { banners: (await db.select().from(banners).orderBy(asc(banners.order), asc(banners.id))).map(dto) };
    },
  );

  app.get(
    '/banners/:id',
    { schema: { tags, params: idParams, response: { 200: bannerResponseSchema } } },
    async (request) => {
      const [row] = await db.select().from(banners).where(eq(banners.id, request.params.id));
      if (!row) throw notFound('Bannière introuvable.');
      return { banner: dto(row) };
    },
  );

  // Multipart: the fields of bannerFieldsSchema and the file `image`.
  app.post(
    '/banners',
    { ...manage, schema: { tags, security, response: { 201: bannerResponseSchema } } },
    async (request, reply) => {
      const { fields, image } = await readForm(request);
      const imageKey = await storeImage(image);
      const [row] = await db
        .insert(banners)
        .values({ ...values(fields), imageKey })
        .returning();
      return reply.status(201).send({ banner: dto(row!) });
    },
  );

  app.post(
    '/banners/:id',
    { ...manage, schema: { tags, security, params: idParams, response: { 200: bannerResponseSchema } } },
    async (request) => {
      const [existing] = await db.select().from(banners).where(eq(banners.id, request.params.id));
      if (!existing) throw notFound('Bannière introuvable.');
      const { fields, image } = await readForm(request);
      const imageKey = (await storeImage(image)) ?? existing.imageKey;
      const [row] = await db
        .update(banners)
        .set({ ...values(fields), imageKey })
        .where(eq(banners.id, existing.id))
        .returning();
      if (image && existing.imageKey) await storage.delete(existing.imageKey).catch(() => {});
      return { banner: dto(row!) };
    },
  );

  app.delete(
    '/banners/:id',
    { ...manage, schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } } },
    async (request) => {
      const [row] = await db.delete(banners).where(eq(banners.id, request.params.id)).returning();
      if (!row) throw notFound('Bannière introuvable.');
      if (row.imageKey) await storage.delete(row.imageKey).catch(() => {});
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
      await db.transaction(async (tx) => {
        for (const b of request.body.banners)
          await tx.update(banners).set({ order: b.order }).where(eq(banners.id, b.id));
      });
      return { message: 'Ordre des bannières enregistré' };
    },
  );
};
