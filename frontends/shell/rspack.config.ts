import { defineFrontend } from '@cartable/ui/build';

/** Shell: the Module Federation host, served by the gateway at "/". */
export default defineFrontend({
  dir: import.meta.dirname,
  name: 'cartable_shell',
  kind: 'host',
  publicPath: '/',
  port: 3000,
  title: "Cartable · Manuels scolaires d'occasion au Gabon",
  // Home, /books and the book pages are the catalog's: its entry downloads while the shell's runs.
  preloadScripts: ['/mf/catalog/remoteEntry.js'],
  // In development the remotes run on their own dev servers (npm run dev in each of them).
  devProxy: {
    '/mf/catalog': process.env.CARTABLE_CATALOG_DEV_URL ?? 'http://localhost:3001',
    '/mf/admin': process.env.CARTABLE_ADMIN_DEV_URL ?? 'http://localhost:3002',
  },
});
