import {
  bookClassListsSchema,
  classListAvailabilityQuerySchema,
  classListAvailabilitySchema,
  classListItemSearchQuerySchema,
  classListItemSearchResponseSchema,
  classListPageSchema,
  classListQuerySchema,
  classListResponseSchema,
  idParamsSchema,
  classListMessages as m,
  withdrawnBooksQuerySchema,
  withdrawnBooksResponseSchema,
} from '@cartable/contracts';
import { hasPermission, notFound } from '@cartable/service-kit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ClassListRouteDeps } from './deps.ts';

const tags = ['class-lists'];
export const LISTS_PERMISSION = 'lists.manage';

/** The public lists, « Ma liste », and the listing form's autofill (services/catalog/API.md « Class book lists »). */
export const publicClassListRoutes: FastifyPluginAsyncZod<ClassListRouteDeps> = async (app, { guards, classLists }) => {
  const { books, families } = classLists;

  /** A list the caller may read: published, or any for lists.manage, or their own proposal. */
  async function readable(request: FastifyRequest, id: number) {
    const row = await books.listOrNotFound(id);
    const claims = request.claims;
    if (
      row.status === 'published' ||
      (claims && hasPermission(claims, LISTS_PERMISSION)) ||
      (claims && row.proposedBy === claims.sub)
    )
      return row;
    throw notFound(m.notFound);
  }

  app.get(
    '/class-lists',
    { schema: { tags, querystring: classListQuerySchema, response: { 200: classListPageSchema } } },
    async (request) => {
      const q = request.query;
      const filter = {
        status: 'published' as const,
        levelId: q.level_id,
        schoolYear: q.school_year,
        kind: q.kind,
        cityId: q.city_id,
        school: q.school,
      };
      return books.page(filter, 'public', q.page);
    },
  );

  app.get(
    '/class-lists/:id',
    {
      onRequest: guards.optionalUser,
      schema: { tags, params: idParamsSchema, response: { 200: classListResponseSchema } },
    },
    async (request) => {
      await readable(request, request.params.id);
      return { list: await books.detail(request.params.id) };
    },
  );

  app.get(
    '/class-lists/:id/availability',
    {
      onRequest: guards.optionalUser,
      schema: {
        tags,
        params: idParamsSchema,
        querystring: classListAvailabilityQuerySchema,
        response: { 200: classListAvailabilitySchema },
      },
    },
    async (request) => {
      const row = await readable(request, request.params.id);
      const { city_id: cityId, owned, per_item: perItem } = request.query;
      return families.availability(row, request.claims?.sub, { cityId, owned, perItem });
    },
  );

  app.get(
    '/books/:id/class-lists',
    { schema: { tags, params: idParamsSchema, response: { 200: bookClassListsSchema } } },
    async (request) => families.listsOfBook(request.params.id),
  );

  app.get(
    '/class-lists/withdrawn-books',
    { schema: { tags, querystring: withdrawnBooksQuerySchema, response: { 200: withdrawnBooksResponseSchema } } },
    async (request) => ({ data: await families.withdrawnBooks(request.query.ids) }),
  );

  app.get(
    '/class-list-items/search',
    {
      schema: {
        tags,
        querystring: classListItemSearchQuerySchema,
        response: { 200: classListItemSearchResponseSchema },
      },
    },
    async (request) => ({ suggestions: await families.searchItems(request.query.q, request.query.level_id) }),
  );
};
