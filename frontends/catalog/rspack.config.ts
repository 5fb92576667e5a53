import { VISITOR_BOOK_PAGE } from '@cartable/contracts/book-page';
import { apiUrl, defineFrontend } from '@cartable/ui/build';
import { DEFAULT_FILTERS, filtersToQuery } from './src/features/catalogue/filters.ts';

/** Catalog remote: home, catalogue, book pages, my books, messages. Served at /mf/catalog/. */
export default defineFrontend({
  dir: import.meta.dirname,
  name: 'cartable_catalog',
  kind: 'remote',
  publicPath: '/mf/catalog/',
  port: 3001,
  title: 'Cartable · catalogue (développement)',
  exposes: { './routes': './src/routes.tsx' },
  // The pages a visitor most often opens first, and the lazy chunks their first render needs
  // (named in features/catalogue/BooksRoute.tsx and features/book/BookRoute.tsx): the gateway
  // preloads them with the shell's own script. /books without filters also preloads its first
  // page of results (the same for everyone: GET /books reads no token), and a book page the book as
  // a visitor sees it (the address a visitor's page reads; `{id}` is the pattern's group).
  preloadRoutes: [
    { pattern: '^/$', chunks: [] },
    {
      pattern: '^/books/?$',
      chunks: ['books-page'],
      data: [apiUrl('/books', filtersToQuery(DEFAULT_FILTERS))],
    },
    {
      pattern: '^/books/(?<id>\\d+)/?$',
      chunks: ['book-page'],
      data: [apiUrl('/books/{id}', VISITOR_BOOK_PAGE)],
    },
  ],
});
