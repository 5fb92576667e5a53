/**
 * Shared rspack configuration for the three Cartable frontends (shell host, catalog and admin
 * remotes). Each frontend's rspack.config.ts calls `defineFrontend` with what makes it different.
 *
 * - TSX through the builtin SWC loader, CSS through postcss-loader + @tailwindcss/postcss.
 * - Module Federation through `@module-federation/enhanced` (its rspack plugin and its runtime):
 *   react, react-dom, react-router, @tanstack/react-query, sonner, @cartable/ui and
 *   @cartable/ui/overlays are shared singletons. Only the host marks them eager (its first render
 *   needs them, and eager saves a round trip on slow mobile links), except sonner, the form
 *   libraries and the overlays (Radix UI), which load after the first render; remotes always take
 *   the host's copies. The host provides the federation runtime to the remotes (one copy on the
 *   page), and each remote writes its manifest (mf-manifest.json), from which the runtime learns
 *   its entry, its exposed modules' files and its shared modules, and preloads them.
 * - Production: content-hashed file names (remoteEntry.js keeps a fixed name), minified, and the
 *   production build of react-router (its package exports only point to the development one).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { type Configuration, rspack } from '@rspack/core';
import tailwindcss from '@tailwindcss/postcss';
import { type RoutePreload, RoutePreloadPlugin } from './preloads.ts';

/** For a remote's `preloadRoutes.data`: the URL its page's read asks for, written as the client writes it. */
export { apiUrl } from '../src/api/url.ts';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

export interface FrontendOptions {
  /** Absolute directory of the frontend package (where src/ and dist/ live). */
  dir: string;
  /** Federation container name, a valid JS identifier (e.g. "cartable_catalog"). */
  name: string;
  /** "host" for the shell, "remote" for catalog and admin. */
  kind: 'host' | 'remote';
  /** Public URL prefix the gateway serves the build under ("/", "/mf/catalog/"...). */
  publicPath: string;
  /** Dev server port. */
  port: number;
  /**
   * Modules exposed by a remote (e.g. { "./routes": "./src/routes.tsx" }); `name` gives the exposed
   * module's chunk the name of the lazy import that loads it inside the remote, so both are one file.
   */
  exposes?: Record<string, string | { import: string; name: string }>;
  /** The remotes a host loads at run time: container name → its manifest's URL. */
  remotes?: Record<string, string>;
  /** Federation runtime plugins of a host (files run by the runtime, e.g. a retry policy). */
  runtimePlugins?: string[];
  /** Title of the HTML page (the host's page, or a remote's standalone dev page). */
  title: string;
  /**
   * What the host's page asks for at once, beside its own script (e.g. the catalog's manifest and
   * remote entry, which the federation runtime would only request after the shell's script has run).
   */
  preloads?: Array<{ href: string; as: 'script' | 'fetch' }>;
  /**
   * A remote's pages most often opened first, with the exposed modules their first render runs:
   * the build writes their files (from the federation manifest) and their first API reads in
   * preload.json, for the gateway to preload (see ./preloads.ts).
   */
  preloadRoutes?: RoutePreload[];
  /**
   * Files copied as they are to the build's root (the installable app's manifest and icons), and
   * linked from the page when it holds a `manifest.webmanifest`.
   */
  publicDir?: string;
  /** Extra dev-server proxies (context prefix → target), besides /api and /storage. */
  devProxy?: Record<string, string>;
}

/** Version of an installed package (read from node_modules, whatever its "exports" say). */
function versionOf(pkg: string): string {
  for (let dir = here; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (path.dirname(dir) === dir) throw new Error(`Paquet introuvable : ${pkg}`);
  }
}

const SINGLETONS = ['react', 'react-dom', '@tanstack/react-query', 'sonner'] as const;

function sharedConfig(eager: boolean) {
  const shared: Record<string, { singleton: true; requiredVersion: string | false; eager: boolean }> = {};
  for (const pkg of SINGLETONS) {
    // sonner is loaded after the first render (libs/ui/src/toast.tsx), so never eagerly.
    shared[pkg] = { singleton: true, requiredVersion: `^${versionOf(pkg)}`, eager: eager && pkg !== 'sonner' };
  }
  // Subpath entries of react that the JSX runtime and react-dom/client import.
  shared['react/jsx-runtime'] = { singleton: true, requiredVersion: false, eager };
  shared['react-dom/client'] = { singleton: true, requiredVersion: false, eager };
  // The design system: one session store, one toast queue, one API client for all frontends.
  shared['@cartable/ui'] = { singleton: true, requiredVersion: false, eager };
  // The router singleton: a curated re-export of react-router (see libs/ui/src/router.ts).
  shared['@cartable/ui/router'] = { singleton: true, requiredVersion: false, eager };
  // Dialogs and menus (Radix UI primitives, bundled inside this entry so one copy loads): never
  // eager, the first paint shows none; the first screen that opens one loads it once for all.
  shared['@cartable/ui/overlays'] = { singleton: true, requiredVersion: false, eager: false };
  // The category tree (query, selector, hierarchy manager): one copy for the catalogue and the
  // back office; loaded with the first screen that shows categories.
  shared['@cartable/ui/categories'] = { singleton: true, requiredVersion: false, eager: false };
  // Form libraries: never eager (no page needs them at first paint), but one copy for the shell's
  // account forms and the catalogue's listing form instead of one bundled into each.
  for (const pkg of ['zod', 'react-hook-form'] as const) {
    shared[pkg] = { singleton: true, requiredVersion: `^${versionOf(pkg)}`, eager: false };
  }
  shared['@cartable/contracts'] = { singleton: true, requiredVersion: false, eager: false };
  return shared;
}

const UI_DIR = path.resolve(here, '..');

/**
 * The router is shared through "@cartable/ui/router" only (a shared package cannot be
 * tree-shaken, and two copies of react-router would not share their contexts). Importing
 * "react-router" anywhere else fails the build; so does importing Radix UI outside libs/ui.
 */
function routerGuard(data: { request?: string; context?: string }, callback: (error?: Error) => void): void {
  const { request, context = '' } = data;
  const isRouter = request === 'react-router' || request?.startsWith('react-router/');
  const outside = !context.startsWith(UI_DIR) && !context.includes(`${path.sep}node_modules${path.sep}`);
  if (isRouter && outside) {
    callback(new Error(`Importez le routeur depuis "@cartable/ui/router" et non "${request}" (${context}).`));
    return;
  }
  // Radix UI lives inside "@cartable/ui/overlays" (one copy for the shell and the remotes).
  if (request?.startsWith('@radix-ui/') && outside) {
    callback(new Error(`Importez dialogues et menus depuis "@cartable/ui/overlays" et non "${request}" (${context}).`));
    return;
  }
  callback();
}

const BROWSER_TARGETS = ['chrome >= 87', 'edge >= 88', 'firefox >= 78', 'safari >= 14', 'ios >= 14'];

export function defineFrontend(options: FrontendOptions) {
  return (): Configuration => {
    const isDev = process.env.NODE_ENV !== 'production';
    const isHost = options.kind === 'host';
    const apiTarget = process.env.CARTABLE_API_URL ?? 'http://localhost:8080';

    const proxy = [
      { context: ['/api', '/storage'], target: apiTarget, changeOrigin: true },
      ...Object.entries(options.devProxy ?? {}).map(([context, target]) => ({
        context: [context],
        target,
        changeOrigin: true,
      })),
    ];

    return {
      mode: isDev ? 'development' : 'production',
      context: options.dir,
      // The host always has an HTML entry; a remote only needs one for standalone development.
      entry: isHost || isDev ? { main: './src/index.ts' } : {},
      target: ['web', 'es2020'],
      devtool: isDev ? 'cheap-module-source-map' : false,
      output: {
        path: path.join(options.dir, 'dist'),
        publicPath: options.publicPath,
        uniqueName: options.name,
        filename: isDev ? '[name].js' : '[name].[contenthash:8].js',
        chunkFilename: isDev ? '[name].js' : '[name].[contenthash:8].js',
        cssFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
        cssChunkFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.jsx', '.js', '.mjs'],
        alias: isDev
          ? {}
          : {
              // react-router's "exports" only name its development build (dev warnings, bigger).
              'react-router$': path.join(
                path.dirname(require.resolve('react-router/package.json')),
                'dist/production/index.mjs',
              ),
            },
      },
      externals: [routerGuard],
      module: {
        rules: [
          {
            test: /\.[cm]?[jt]sx?$/,
            exclude: /node_modules/,
            loader: 'builtin:swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: isDev } },
              },
              env: { targets: BROWSER_TARGETS },
            },
            type: 'javascript/auto',
          },
          {
            test: /\.css$/,
            use: [
              {
                loader: 'postcss-loader',
                options: { postcssOptions: { plugins: [tailwindcss({ base: options.dir })] } },
              },
            ],
            type: 'css/auto',
          },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name: options.name,
          ...(isHost
            ? { remotes: options.remotes ?? {}, runtimePlugins: options.runtimePlugins ?? [] }
            : {
                filename: 'remoteEntry.js',
                exposes: options.exposes ?? {},
                manifest: { fileName: 'mf-manifest.json' },
              }),
          shared: sharedConfig(isHost),
          // A remote's shared modules are resolved when it loads, from what is already on the page
          // (the shell's): "version-first" would fetch every remote's entry at start to compare.
          shareStrategy: 'loaded-first',
          // Types are checked by tsc in each workspace; nothing is published to other builds.
          dts: false,
          // One federation runtime on the page: the shell's, which the remotes use (a remote in
          // development runs alone too, with its own). Browsers only; a remote loads no remote.
          experiments: isHost
            ? { provideExternalRuntime: true, optimization: { target: 'web' } }
            : { externalRuntime: !isDev, optimization: { target: 'web', disableRemote: true } },
        }),
        ...(isHost || isDev
          ? [
              new rspack.HtmlRspackPlugin({
                template: path.join(here, 'index.html'),
                templateParameters: {
                  title: options.title,
                  manifest:
                    options.publicDir && existsSync(path.join(options.publicDir, 'manifest.webmanifest'))
                      ? '<link rel="manifest" href="/manifest.webmanifest" /><link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />'
                      : '',
                  // A manifest is fetched as the runtime fetches it (CORS mode, same-origin credentials).
                  preloads: (options.preloads ?? [])
                    .map(({ href, as }) =>
                      as === 'fetch'
                        ? `<link rel="preload" as="fetch" crossorigin href="${href}" />`
                        : `<link rel="preload" as="script" href="${href}" />`,
                    )
                    .join(''),
                },
                chunks: ['main'],
                minify: !isDev,
              }),
            ]
          : []),
        ...(options.publicDir && existsSync(options.publicDir)
          ? [new rspack.CopyRspackPlugin({ patterns: [{ from: options.publicDir, to: '.' }] })]
          : []),
        // What the gateway preloads (production builds only: development has no gateway in front).
        ...(!isDev && options.preloadRoutes ? [new RoutePreloadPlugin(options.preloadRoutes)] : []),
        new rspack.DefinePlugin({
          'process.env.NODE_ENV': JSON.stringify(isDev ? 'development' : 'production'),
        }),
      ],
      optimization: {
        // Stable, readable chunk names help the gateway's caching rules and debugging.
        chunkIds: isDev ? 'named' : 'deterministic',
      },
      performance: { hints: false },
      devServer: {
        port: options.port,
        host: '0.0.0.0',
        hot: false,
        liveReload: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        // SPA fallback: every unknown path gets the HTML page (served under the public path).
        historyApiFallback: { index: `${options.publicPath}index.html` },
        devMiddleware: { publicPath: options.publicPath },
        proxy,
      },
    };
  };
}
