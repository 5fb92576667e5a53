import { defineFrontend } from '@cartable/ui/build';

/** Admin remote: the back office under /admin. Served at /mf/admin/. */
export default defineFrontend({
  dir: import.meta.dirname,
  name: 'cartable_admin',
  kind: 'remote',
  publicPath: '/mf/admin/',
  port: 3002,
  title: 'Cartable · administration (développement)',
  exposes: { './App': './src/App.tsx' },
});
