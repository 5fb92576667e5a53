import {
  type BookListQuery,
  bookListPageSchema,
  bookListQuerySchema,
  bookSuggestionsQuerySchema,
  bookSuggestionsResponseSchema,
  featuredBooksResponseSchema,
  recommendedBooksResponseSchema,
} from '@cartable/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SearchRouteDeps } from './deps.ts';

const tags = ['books'];

/** The catalogue (SPEC.md section 2 « Catalogue »), the search box's suggestions, and the home page's rows. */
export const catalogueRoutes: FastifyPluginAsyncZod<SearchRouteDeps> = async (app, { guards, search, listings }) => {
  /** The same answer for everyone (a listing holds nothing personal), so pages can be shared. */
  const listing = (request: FastifyRequest<{ Querystring: BookListQuery }>) =>
    search.listingPage(request.url.replace(/^\/books\/search/, '/books'), request.query);
  const listingSchema = { tags, querystring: bookListQuerySchema, response: { 200: bookListPageSchema } };
  app.get('/books', { schema: listingSchema }, listing);
  app.get('/books/search', { schema: listingSchema }, listing);

  // What the search box proposes while typing (levels, subjects, titles); the same for everyone.
  app.get(
    '/books/suggestions',
    { schema: { tags, querystring: bookSuggestionsQuerySchema, response: { 200: bookSuggestionsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=30');
      return { suggestions: await search.suggestions.suggest(request.query.q, request.query.limit) };
    },
  );

  // « À la une »: the boosted listings first (sponsored), then the most viewed.
  app.get('/books/featured', { schema: { tags, response: { 200: featuredBooksResponseSchema } } }, async () => {
    const { ids, sponsored } = await search.featured.featured();
    const books = await listings.cards.byIds(ids);
    return { featured_books: books.map((b) => (sponsored.has(b.id) ? { ...b, sponsored: true } : b)) };
  });

  app.get(
    '/books/recommended',
    { onRequest: guards.optionalUser, schema: { tags, response: { 200: recommendedBooksResponseSchema } } },
    async (request) => ({ books: await listings.cards.byIds(await search.featured.recommended(request.claims?.sub)) }),
  );
};
