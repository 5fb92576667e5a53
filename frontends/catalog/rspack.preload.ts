import { type Chunk, type ChunkGroup, type Compilation, type Compiler, rspack } from '@rspack/core';

/**
 * Which scripts the first render of a page needs, written at build time beside the remote entry
 * (`preload.json`), so that the gateway can announce them in the shell's HTML
 * (`<link rel="preload" as="script">`, gateway/src/plugins/frontends.ts). Without it, a phone
 * learns of them one round trip at a time: the shell's main script runs, then the federation
 * runtime asks for the remote entry, then for the exposed module's chunks and the shared modules
 * they consume, then the page's own lazy chunk.
 *
 * Each page names the chunk groups it needs (a lazy import's `webpackChunkName`) besides the
 * exposed module's; a group brings its chunks and the fallbacks of the shared modules they
 * consume, except those the host provides at start (`hostShares`), which are never downloaded.
 */
export interface RoutePreload {
  /** The page's path as a regular expression (matched against the path, without the query). */
  pattern: string;
  /** Named chunk groups (webpackChunkName) the page renders at once, besides the exposed module's. */
  chunks: string[];
}

export interface PreloadManifest {
  routes: Array<{ pattern: string; scripts: string[] }>;
}

const NAME = 'RoutePreloadPlugin';

export class RoutePreloadPlugin {
  constructor(
    private readonly options: {
      routes: RoutePreload[];
      /** Shared packages the host loads with its own first script (their fallbacks never load). */
      hostShares: string[];
    },
  ) {}

  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: NAME, stage: rspack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
        () => {
          const publicPath = String(compilation.outputOptions.publicPath ?? '/');
          const exposed = compilation.chunkGroups.filter((group) =>
            group.origins.some((origin) => origin.module?.identifier().startsWith('container entry')),
          );
          if (exposed.length === 0) {
            compilation.errors.push(new rspack.WebpackError(`${NAME}: aucun module exposé trouvé`));
            return;
          }
          const manifest: PreloadManifest = { routes: [] };
          for (const route of this.options.routes) {
            const groups = [...exposed];
            for (const name of route.chunks) {
              const group = compilation.namedChunkGroups.get(name);
              if (!group) {
                compilation.errors.push(new rspack.WebpackError(`${NAME}: groupe « ${name} » introuvable`));
                return;
              }
              groups.push(group);
            }
            const files = new Set<string>();
            for (const group of groups) for (const file of this.scriptsOf(compilation, group)) files.add(file);
            manifest.routes.push({ pattern: route.pattern, scripts: [...files].map((file) => `${publicPath}${file}`) });
          }
          compilation.emitAsset('preload.json', new rspack.sources.RawSource(`${JSON.stringify(manifest, null, 2)}\n`));
        },
      );
    });
  }

  /** The group's scripts, then those of the shared modules its chunks consume (host's aside). */
  private scriptsOf(compilation: Compilation, group: ChunkGroup): string[] {
    const files = group.chunks.flatMap(jsFiles);
    for (const chunk of group.chunks) {
      for (const module of compilation.chunkGraph.getChunkModules(chunk)) {
        const id = module.identifier();
        if (!id.startsWith('consume shared module')) continue;
        // "consume shared module (default) @cartable/ui/categories@* (strict) (fallback: …)"
        const key = /^consume shared module \([^)]*\) (.+?)@[^@\s]*\s/.exec(id)?.[1];
        if (!key || this.options.hostShares.includes(key)) continue;
        for (const fallback of compilation.chunkGroups) {
          if (fallback.origins.some((origin) => origin.module?.identifier() === id)) {
            files.push(...fallback.chunks.flatMap(jsFiles));
          }
        }
      }
    }
    return files;
  }
}

const jsFiles = (chunk: Chunk) => [...chunk.files].filter((file) => file.endsWith('.js'));
