import { createRequire } from 'node:module';
import { defineFrontend } from '@cartable/ui/build';

const require = createRequire(import.meta.url);

/** Shell: the Module Federation host, served by the gateway at "/". */
export default defineFrontend({
  dir: import.meta.dirname,
  name: 'cartable_shell',
  kind: 'host',
  publicPath: '/',
  port: 3000,
  title: "Cartable · Manuels scolaires d'occasion au Gabon",
  // Resolved against the page's origin: the gateway serves each remote under /mf/<name>/.
  remotes: {
    cartable_catalog: 'cartable_catalog@/mf/catalog/mf-manifest.json',
    cartable_admin: 'cartable_admin@/mf/admin/mf-manifest.json',
  },
  runtimePlugins: [require.resolve('./src/app/remote-retry.ts')],
  // The installable app's manifest and icons, served at the site's root.
  publicDir: `${import.meta.dirname}/public`,
  // A remote's manifest and entry are preloaded by the gateway on that remote's pages only
  // (gateway/src/routes/frontends.ts), never on the shell's or the back office's.
  // In development the remotes run on their own dev servers (npm run dev in each of them).
  devProxy: {
    '/mf/catalog': process.env.CARTABLE_CATALOG_DEV_URL ?? 'http://localhost:3001',
    '/mf/admin': process.env.CARTABLE_ADMIN_DEV_URL ?? 'http://localhost:3002',
  },
});
