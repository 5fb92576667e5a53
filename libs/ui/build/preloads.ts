import { type Compilation, type Compiler, rspack } from '@rspack/core';

/**
 * What the first render of a remote's most visited pages needs, for the gateway to announce in
 * the shell's HTML (`<link rel="preload">`, gateway/src/plugins/frontends.ts), so that a phone
 * asks for it with the page instead of one round trip after another (the shell's script, then the
 * remote's manifest, then the page's files, then its first API read).
 *
 * The files are those the federation manifest (mf-manifest.json, written by
 * @module-federation/enhanced) lists for the page's exposed modules; the shell's runtime preloads
 * the same files from the same manifest when no gateway does (`preloadRemote`,
 * frontends/shell/src/app/federation.ts). The API reads are the page's own, written as the client
 * writes them (`apiUrl`).
 */
export interface RoutePreload {
  /** The page's path as a regular expression (matched against the path, without the query). */
  pattern: string;
  /** The exposed modules (`./routes`, `./books-page`) whose files the page's first render runs. */
  exposes: string[];
  /**
   * API reads the page's first render makes when its address has no query string: the gateway
   * preloads them too (`as="fetch"`). `{name}` stands for the pattern's named group
   * (`(?<name>\d+)`). Only reads whose answer is the same for every visitor and member, or at an
   * address only a visitor reads: the browser hands the preloaded answer to any fetch of that
   * URL, whatever its Authorization header.
   */
  data?: string[];
}

/** `preload.json`, as the gateway reads it. */
export interface PreloadManifest {
  routes: Array<{ pattern: string; scripts: string[]; data?: string[] }>;
}

/** The part of mf-manifest.json read here. */
interface FederationManifest {
  metaData: { publicPath: string };
  exposes: Array<{ path: string; assets: { js: { sync: string[] } } }>;
}

const NAME = 'CartablePreloads';

export class RoutePreloadPlugin {
  constructor(
    private readonly routes: RoutePreload[],
    private readonly manifestFile = 'mf-manifest.json',
  ) {}

  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap(NAME, (compilation: Compilation) => {
      compilation.hooks.processAssets.tap({ name: NAME, stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const asset = compilation.getAsset(this.manifestFile);
        if (!asset) {
          compilation.errors.push(new rspack.WebpackError(`${NAME}: ${this.manifestFile} introuvable`));
          return;
        }
        const federation = JSON.parse(asset.source.source().toString()) as FederationManifest;
        const manifest: PreloadManifest = { routes: [] };
        for (const route of this.routes) {
          const scripts = new Set<string>();
          for (const path of route.exposes) {
            const exposed = federation.exposes.find((expose) => expose.path === path);
            if (!exposed) {
              compilation.errors.push(new rspack.WebpackError(`${NAME}: module exposé « ${path} » introuvable`));
              return;
            }
            for (const file of exposed.assets.js.sync) scripts.add(`${federation.metaData.publicPath}${file}`);
          }
          manifest.routes.push({
            pattern: route.pattern,
            scripts: [...scripts],
            ...(route.data?.length ? { data: route.data } : {}),
          });
        }
        compilation.emitAsset('preload.json', new rspack.sources.RawSource(`${JSON.stringify(manifest, null, 2)}\n`));
      });
    });
  }
}
