import { defineFrontend, sharedConfig } from '@cartable/ui/build';
import { RoutePreloadPlugin } from './rspack.preload.ts';

/** Catalog remote: home, catalogue, book pages, my books, messages. Served at /mf/catalog/. */
const frontend = defineFrontend({
  dir: import.meta.dirname,
  name: 'cartable_catalog',
  kind: 'remote',
  publicPath: '/mf/catalog/',
  port: 3001,
  title: 'Cartable · catalogue (développement)',
  exposes: { './routes': './src/routes.tsx' },
});

/**
 * The pages a visitor most often opens first, and the lazy chunks their first render needs
 * (named in their routes: features/catalogue/BooksRoute.tsx, features/book/BookRoute.tsx): the
 * gateway preloads them with the shell's own script (preload.json, see rspack.preload.ts).
 */
const FIRST_PAGES = [
  { pattern: '^/$', chunks: [] },
  { pattern: '^/books/?$', chunks: ['books-page'] },
  { pattern: '^/books/\\d+/?$', chunks: ['book-page'] },
];

export default () => {
  const config = frontend();
  if (config.mode === 'production') {
    const hostShares = Object.entries(sharedConfig(true))
      .filter(([, share]) => share.eager)
      .map(([key]) => key);
    config.plugins = [...(config.plugins ?? []), new RoutePreloadPlugin({ routes: FIRST_PAGES, hostShares })];
  }
  return config;
};
