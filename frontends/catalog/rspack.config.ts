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
});
