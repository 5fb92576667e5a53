import { type Chunk, type ChunkGroup, type Compilation, type Compiler, rspack } from '@rspack/core';

/**
 * Which scripts the first render of a page needs, written at build time so that the gateway can
 * announce them in the shell's HTML (`<link rel="preload" as="script">`,
 * gateway/src/plugins/frontends.ts). Without them, a phone learns of them one round trip at a time:
 * the shell's main script runs, loads the remote entry, which asks for the exposed module's
 * chunks and the shared modules they consume, which render the page, which asks for its own lazy
 * chunk.
 *
 * - A remote writes `preload.json`: for each page it names (`preloadRoutes`), its own chunks (the
 *   exposed module's, and the named chunk groups the page renders at once: a lazy import's
 *   `webpackChunkName`) and the shared modules they consume, each with the remote's own copy.
 * - The host writes `shared.json`: every shared module it provides, with its chunks (none for
 *   those in its first script). The sharing runtime keeps the first container's copy of a version
 *   (the shell initialises first), so the gateway takes a shared module from there when the host
 *   provides it, and from the remote otherwise.
 */
export interface RoutePreload {
  /** The page's path as a regular expression (matched against the path, without the query). */
  pattern: string;
  /** Named chunk groups (webpackChunkName) the page renders at once, besides the exposed module's. */
  chunks: string[];
  /**
   * API reads the page's first render makes when its address has no query string, as the client
   * writes them (`apiUrl`): the gateway preloads them too (`as="fetch"`), so that the answer
   * travels beside the scripts. `{name}` stands for the pattern's named group (`(?<name>\d+)`).
   * Only reads whose answer is the same for every visitor and member, or at an address only a
   * visitor reads: the browser hands the preloaded answer to any fetch of that URL, whatever its
   * Authorization header.
   */
  data?: string[];
}

export interface PreloadManifest {
  /** `shared`: a shared module's key → the remote's own copy (its fallback chunks). */
  routes: Array<{ pattern: string; scripts: string[]; shared: Record<string, string[]>; data?: string[] }>;
}

/** A shared module's key → the host's chunks for it (none: in the host's first script). */
export type SharedManifest = Record<string, string[]>;

const NAME = 'CartablePreloads';

/** "consume shared module (default) @cartable/ui/categories@* (strict) (fallback: …)" → the key. */
const sharedKey = (identifier: string) =>
  /^(?:consume|provide) shared module \([^)]*\) (.+?)@[^@\s]*\s/.exec(identifier)?.[1];

const jsFiles = (chunk: Chunk) => [...chunk.files].filter((file) => file.endsWith('.js'));

/** The scripts of the chunk groups an async block of this module starts (a shared module's copy). */
const scriptsFrom = (compilation: Compilation, identifier: string, publicPath: string) =>
  compilation.chunkGroups
    .filter((group) => group.origins.some((origin) => origin.module?.identifier() === identifier))
    .flatMap((group) => group.chunks)
    .flatMap(jsFiles)
    .map((file) => `${publicPath}${file}`);

function emitJson(compiler: Compiler, file: string, build: (compilation: Compilation, publicPath: string) => unknown) {
  compiler.hooks.thisCompilation.tap(NAME, (compilation) => {
    compilation.hooks.processAssets.tap(
      { name: NAME, stage: rspack.Compilation.PROCESS_ASSETS_STAGE_SUMMARIZE },
      () => {
        const value = build(compilation, String(compilation.outputOptions.publicPath ?? '/'));
        if (value !== undefined) {
          compilation.emitAsset(file, new rspack.sources.RawSource(`${JSON.stringify(value, null, 2)}\n`));
        }
      },
    );
  });
}

/** A remote's `preload.json`. */
export class RoutePreloadPlugin {
  constructor(private readonly routes: RoutePreload[]) {}

  apply(compiler: Compiler) {
    emitJson(compiler, 'preload.json', (compilation, publicPath) => {
      const exposed = compilation.chunkGroups.filter((group) =>
        group.origins.some((origin) => origin.module?.identifier().startsWith('container entry')),
      );
      if (exposed.length === 0) {
        compilation.errors.push(new rspack.WebpackError(`${NAME}: aucun module exposé`));
        return undefined;
      }
      const manifest: PreloadManifest = { routes: [] };
      for (const route of this.routes) {
        const groups: ChunkGroup[] = [...exposed];
        for (const name of route.chunks) {
          const group = compilation.namedChunkGroups.get(name);
          if (!group) {
            compilation.errors.push(new rspack.WebpackError(`${NAME}: groupe « ${name} » introuvable`));
            return undefined;
          }
          groups.push(group);
        }
        const scripts = new Set<string>();
        const shared: Record<string, string[]> = {};
        for (const chunk of groups.flatMap((group) => group.chunks)) {
          for (const file of jsFiles(chunk)) scripts.add(`${publicPath}${file}`);
          for (const module of compilation.chunkGraph.getChunkModules(chunk)) {
            const id = module.identifier();
            const key = id.startsWith('consume shared module') ? sharedKey(id) : undefined;
            if (key) shared[key] = scriptsFrom(compilation, id, publicPath);
          }
        }
        manifest.routes.push({
          pattern: route.pattern,
          scripts: [...scripts],
          shared,
          ...(route.data?.length ? { data: route.data } : {}),
        });
      }
      return manifest;
    });
  }
}

/** The host's `shared.json`. */
export class SharedChunksPlugin {
  apply(compiler: Compiler) {
    emitJson(compiler, 'shared.json', (compilation, publicPath) => {
      const manifest: SharedManifest = {};
      for (const module of compilation.modules) {
        const id = module.identifier();
        const key = id.startsWith('provide shared module') ? sharedKey(id) : undefined;
        if (key) manifest[key] = scriptsFrom(compilation, id, publicPath);
      }
      return manifest;
    });
  }
}
