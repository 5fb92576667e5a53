import { isbnLookupSchema, isbnParamsSchema } from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ListingRouteDeps } from './deps.ts';

const tags = ['books'];
const security = [{ bearer: [] }];

/**
 * The listing form's look-up of a scanned or typed ISBN (services/catalog/API.md): any member
 * about to list a book. An unknown ISBN is an answer too (`found: false`), not an error: the
 * form keeps the ISBN and the member types the rest.
 */
export const isbnRoutes: FastifyPluginAsyncZod<ListingRouteDeps> = async (app, { guards, listings }) => {
  app.get(
    '/books/isbn/:isbn',
    {
      onRequest: guards.requireUser,
      schema: { tags, security, params: isbnParamsSchema, response: { 200: isbnLookupSchema } },
    },
    async (request) => listings.isbnLookup(request.params.isbn),
  );
};
