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
  exposes: {
    // The route table the shell mounts for every catalog path.
    './routes': './src/routes.tsx',
    // The two pages a visitor most often opens first after home, exposed under the chunk names of
    // their lazy imports (src/routes.tsx), so that the manifest lists their files and they are
    // preloaded with the route table instead of after it has rendered.
    './books-page': { import: './src/features/catalogue/BooksPage.tsx', name: 'books-page' },
    './book-page': { import: './src/features/book/BookDetailPage.tsx', name: 'book-page' },
  },
  // /books without filters also preloads its first page of results (the same for everyone: GET
  // /books reads no token), and a book page the book as a visitor sees it (`{id}` is the pattern's group).
  preloadRoutes: [
    { pattern: '^/$', exposes: ['./routes'] },
    {
      pattern: '^/books/?$',
      exposes: ['./routes', './books-page'],
      data: [apiUrl('/books', filtersToQuery(DEFAULT_FILTERS))],
    },
    {
      pattern: '^/books/(?<id>\\d+)/?$',
      exposes: ['./routes', './book-page'],
      data: [apiUrl('/books/{id}', VISITOR_BOOK_PAGE)],
    },
  ],
});
