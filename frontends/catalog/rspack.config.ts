import { defineFrontend } from '@cartable/ui/build';

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
  // preloads them with the shell's own script.
  preloadRoutes: [
    { pattern: '^/$', chunks: [] },
    { pattern: '^/books/?$', chunks: ['books-page'] },
    { pattern: '^/books/\\d+/?$', chunks: ['book-page'] },
  ],
});
