import {
  bookDetailResponseSchema,
  bookIdParamsSchema,
  bookPageQuerySchema,
  bookStatusRequestSchema,
  bookWriteResponseSchema,
  messageResponseSchema,
  priceGuideQuerySchema,
  priceGuideSchema,
  VISITOR_BOOK_PAGE_SHARED_SECONDS,
} from '@cartable/contracts';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ListingRouteDeps } from './deps.ts';
import { readListingForm } from './listing-form.ts';

const idParams = bookIdParamsSchema;
const tags = ['books'];
const security = [{ bearer: [] }];

/** A listing's page and its owner's writes (SPEC.md section 7 « Books », services/catalog/API.md). */
export const bookRoutes: FastifyPluginAsyncZod<ListingRouteDeps> = async (app, { guards, config, listings }) => {
  const { pages, writes, views, cards, prices } = listings;
  await app.register(multipart, {
    // An oversized photo is marked truncated and answered 422 naming its field, not a bare 413.
    throwFileSizeLimit: false,
    limits: { fileSize: config.BOOK_IMAGE_MAX_BYTES, files: 4, fields: 40, fieldSize: 10_000 },
  });
  const card = async (id: number) => (await cards.byIds([id]))[0]!;

  // The listing form's price guide: any member about to set a price (a visitor reads « Prix
  // habituel » on the listing's page).
  app.get(
    '/books/price-guide',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, querystring: priceGuideQuerySchema, response: { 200: priceGuideSchema } },
    },
    async (request) => prices.guide(request.query, request.query.exclude_id),
  );

  app.get(
    '/books/:id',
    {
      onRequest: guards.optionalUser,
      schema: { tags, params: idParams, querystring: bookPageQuerySchema, response: { 200: bookDetailResponseSchema } },
    },
    async (request, reply) => {
      const { claims } = request;
      const { id } = request.params;
      // ?as=visitor: the visitor's page even to a member (see VISITOR_BOOK_PAGE); views still count as theirs.
      const page = await pages.page(id, request.query.as === 'visitor' ? undefined : claims);
      // A view counts for popularity once per visitor and day, except the seller's own; counted
      // off the answer's path and written in batches (view-counter.ts).
      if (claims?.sub !== page.userId) {
        const viewer = claims
          ? { memberId: claims.sub }
          : { address: request.ip, userAgent: request.headers['user-agent'] ?? '' };
        views.add(id, viewer);
      }
      // The same for every visitor: an HTTP cache in front may serve it again for a few seconds.
      if (!claims) reply.header('cache-control', `public, max-age=0, s-maxage=${VISITOR_BOOK_PAGE_SHARED_SECONDS}`);
      return { book: page.book };
    },
  );

  // Multipart (fields of bookFieldsSchema, files image1..image3).
  app.post(
    '/books',
    { onRequest: guards.requireVerified, schema: { tags, security, response: { 201: bookWriteResponseSchema } } },
    async (request, reply) => {
      const form = await readListingForm(request, config.BOOK_IMAGE_MAX_BYTES);
      const id = await writes.create(request.claims!.sub, form);
      return reply.status(201).send({ message: 'Annonce publiée avec succès', book: await card(id) });
    },
  );

  app.post(
    '/books/:id',
    {
      onRequest: guards.requireVerified,
      schema: { tags, security, params: idParams, response: { 200: bookWriteResponseSchema } },
    },
    async (request) => {
      // Who may change it is known before the form is read.
      const existing = await writes.owned(request.params.id, request.claims!);
      const id = await writes.update(existing, await readListingForm(request, config.BOOK_IMAGE_MAX_BYTES));
      return { message: 'Annonce mise à jour avec succès', book: await card(id) };
    },
  );

  app.delete(
    '/books/:id',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await writes.remove(request.params.id, request.claims!);
      return { message: 'Annonce supprimée avec succès' };
    },
  );

  // « Remettre en vente »: a listing unsold since last school year shows as new again.
  app.post(
    '/books/:id/relist',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: idParams, response: { 200: bookWriteResponseSchema } },
    },
    async (request) => {
      await writes.relist(request.params.id, request.claims!);
      return {
        message: 'Annonce remise en vente : elle apparaît de nouveau parmi les récentes.',
        book: await card(request.params.id),
      };
    },
  );

  app.put(
    '/books/:id/status',
    {
      onRequest: guards.requireUser,
      schema: {
        tags,
        security,
        params: idParams,
        body: bookStatusRequestSchema,
        response: { 200: bookWriteResponseSchema },
      },
    },
    async (request) => {
      await writes.setStatus(request.params.id, request.claims!, request.body.status);
      return { message: 'Statut mis à jour', book: await card(request.params.id) };
    },
  );
};
