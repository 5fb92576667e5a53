import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { repoRoot } from '@cartable/stack/processes';
import { describe, expect, it } from 'vitest';

/**
 * The frontends are organised by feature (README, "Frontends"): `src/features/<name>/` holds a
 * screen family with its components and its api/ module. A feature may use another one only
 * through that feature's public `index.ts`, never its files (the app's route table too); `shared/`
 * (and libs/ui) serve every feature and import none. Biome's noRestrictedImports matches import strings, not the folder of
 * the importing file, so it cannot say "features/X may not reach into features/Y": this test does.
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
  for (const match of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g)) {
    found.push(match[1] ?? '');
  }
  return found;
}

/** `{ feature, rest }` for a path under src/features/<feature>/…, else null. */
function featureOf(src: string, path: string): { feature: string; rest: string } | null {
  const parts = relative(src, path).split(sep);
  if (parts[0] !== 'features' || parts.length < 2) return null;
  return { feature: parts[1] ?? '', rest: parts.slice(2).join('/') };
}

/** The violations of the feature rules in one frontend's src/ folder. */
function boundaryViolations(src: string): string[] {
  const problems: string[] = [];
  for (const file of files(src)) {
    const from = featureOf(src, file);
    const inShared = relative(src, file).split(sep)[0] === 'shared';
    for (const spec of relativeImports(file)) {
      const target = resolve(dirname(file), spec);
      const to = featureOf(src, target);
      if (!to) continue;
      const where = `${relative(repoRoot, file)} → '${spec}'`;
      if (inShared) {
        problems.push(`${where}: shared/ serves the features and imports none of them`);
      } else if (from?.feature !== to.feature && !['', 'index', 'index.ts'].includes(to.rest)) {
        problems.push(`${where}: import features/${to.feature} through its index.ts, not its files`);
      }
    }
  }
  return problems;
}

describe('feature boundaries in the frontends', () => {
  it.each(FRONTENDS.map((src) => [relative(repoRoot, src), src]))(
    '%s: features use each other only through their index.ts',
    (_name, src) => {
      expect(boundaryViolations(src)).toEqual([]);
    },
  );

  it('catches a feature reaching into another one, and shared/ importing a feature', () => {
    const problems = boundaryViolations(join(repoRoot, 'scripts', 'test', 'fixtures', 'feature-boundaries'));
    expect(problems).toEqual([
      "scripts/test/fixtures/feature-boundaries/features/b/B.ts → '../a/internal': import features/a through its index.ts, not its files",
      "scripts/test/fixtures/feature-boundaries/shared/util.ts → '../features/a': shared/ serves the features and imports none of them",
    ]);
  });
});
