import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { repoRoot } from '@cartable/stack/processes';
import { describe, expect, it } from 'vitest';

/**
 * The layers of each frontend (docs/frontends.md), from the top: the app (its route table, which
 * composes features), `features/<name>/` (one family of screens with its components and its api/
 * module), `entities/<name>/` (what several features show: a book's card, the favourite button,
 * « Signaler »…) and `shared/`. A layer imports only the layers below it, so a feature never
 * imports another feature: two of them meet only in the route table. There are no barrels: a
 * folder's `index.ts` would make an import of one screen mark every export as used (and load it
 * with the screen); the route table imports each lazy screen from its own file.
 *
 * Biome's noRestrictedImports matches import strings, not the folder of the importing file, so it
 * cannot say "features/X may not import features/Y": this test does.
 */
const FRONTENDS = ['shell', 'catalog', 'admin'].map((name) => join(repoRoot, 'frontends', name, 'src'));
const SOURCE = /\.(?:ts|tsx)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return files(path);
    return SOURCE.test(entry) ? [path] : [];
  });
}

/** Relative specifiers of every import, export … from and import() of a file. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  const pattern = /(?:\bfrom\s+|\bimport\s*\(\s*(?:\/\*[^*]*\*\/\s*)?|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g;
  for (const match of text.matchAll(pattern)) found.push(match[1] ?? '');
  return found;
}

type Layer = 'app' | 'features' | 'entities' | 'shared';
const RANK: Record<Layer, number> = { app: 3, features: 2, entities: 1, shared: 0 };

/** The layer of a path under src/, and the slice (a feature's or an entity's folder) it is in. */
function placeOf(src: string, path: string): { layer: Layer; slice: string } {
  const [top = '', slice = ''] = relative(src, path).split(sep);
  if (top === 'features' || top === 'entities' || top === 'shared') return { layer: top, slice };
  return { layer: 'app', slice: '' };
}

/** The violations of the layer rules in one frontend's src/ folder. */
function boundaryViolations(src: string): string[] {
  const problems: string[] = [];
  for (const file of files(src)) {
    const name = relative(repoRoot, file);
    const from = placeOf(src, file);
    if (/^index\.tsx?$/.test(file.split(sep).pop() ?? '') && from.layer !== 'app') {
      problems.push(`${name}: a barrel; import each module from its own file`);
    }
    for (const spec of relativeImports(file)) {
      const to = placeOf(src, resolve(dirname(file), spec));
      const where = `${name} → '${spec}'`;
      if (from.layer === 'features' && to.layer === 'features' && from.slice !== to.slice) {
        problems.push(`${where}: features/${from.slice} imports features/${to.slice}; compose them in the route table`);
      } else if (RANK[to.layer] > RANK[from.layer]) {
        problems.push(`${where}: ${from.layer}/ imports ${to.layer}/, a layer above it`);
      }
    }
  }
  return problems;
}

/**
 * A component shows data and sends changes through its feature's (or entity's) api module, which
 * holds the fetcher, the query options and the hook together: no component calls the API client
 * or writes a query's or a mutation's function itself.
 */
function callsInComponents(src: string): string[] {
  const problems: string[] = [];
  for (const file of files(src).filter((f) => f.endsWith('.tsx'))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (/\bapi\.(?:get|post|put|patch|delete)\b|\b(?:queryFn|mutationFn):/.test(line)) {
        problems.push(`${relative(repoRoot, file)}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  return problems;
}

/**
 * A component longer than this mixes what it shows with the data and state of its parts: it is
 * split by what each part shows (a section, a dialog's step, a table and its filters), each part
 * holding its own state.
 */
const MAX_COMPONENT_LINES = 400;

function lineCount(file: string): number {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The .tsx files of a frontend longer than `limit` lines. */
function longComponents(src: string, limit = MAX_COMPONENT_LINES): string[] {
  return files(src)
    .filter((file) => file.endsWith('.tsx'))
    .flatMap((file) => {
      const lines = lineCount(file);
      return lines > limit
        ? [`${relative(repoRoot, file)}: ${lines} lines, over ${limit}; split it by what each part shows`]
        : [];
    });
}

describe('layers of the frontends', () => {
  it.each(FRONTENDS.map((src) => [relative(repoRoot, src), src]))(
    '%s: features never import features, each layer only those below it, no barrels',
    (_name, src) => {
      expect(boundaryViolations(src)).toEqual([]);
    },
  );

  it.each(FRONTENDS.map((src) => [relative(repoRoot, src), src]))(
    '%s: components call the API only through their api modules',
    (_name, src) => {
      expect(callsInComponents(src)).toEqual([]);
    },
  );

  it.each(FRONTENDS.map((src) => [relative(repoRoot, src), src]))(
    `%s: no component over ${MAX_COMPONENT_LINES} lines`,
    (_name, src) => {
      expect(longComponents(src)).toEqual([]);
    },
  );

  it('catches a component longer than the limit', () => {
    const at = 'scripts/test/fixtures/feature-boundaries';
    expect(longComponents(join(repoRoot, at), 3)).toEqual([
      `${at}/features/b/Inline.tsx: 4 lines, over 3; split it by what each part shows`,
    ]);
    expect(longComponents(join(repoRoot, at), 4)).toEqual([]);
  });

  it('catches a feature importing another (even lazily), a layer importing one above it, a barrel and a call in a component', () => {
    const problems = boundaryViolations(join(repoRoot, 'scripts', 'test', 'fixtures', 'feature-boundaries'));
    const at = 'scripts/test/fixtures/feature-boundaries';
    expect(problems.sort()).toEqual(
      [
        `${at}/entities/card/Card.ts → '../../features/a/internal': entities/ imports features/, a layer above it`,
        `${at}/features/a/index.ts: a barrel; import each module from its own file`,
        `${at}/features/b/B.ts → '../a': features/b imports features/a; compose them in the route table`,
        `${at}/features/b/B.ts → '../a/internal': features/b imports features/a; compose them in the route table`,
        `${at}/features/b/B.ts → '../a/internal': features/b imports features/a; compose them in the route table`,
        `${at}/shared/util.ts → '../entities/card/Card': shared/ imports entities/, a layer above it`,
      ].sort(),
    );
    expect(callsInComponents(join(repoRoot, at))).toEqual([
      `${at}/features/b/Inline.tsx:4: export const Inline = () => api.get('/books');`,
    ]);
  });
});
