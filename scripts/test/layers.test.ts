import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '@cartable/stack/processes';
import { describe, expect, it } from 'vitest';

/**
 * Who may import whom: the launcher (scripts/), the journeys (e2e/) and the benchmarks (bench/)
 * stand on the libraries and the deployables, never the other way round. A library or a service
 * reaching into scripts/ or e2e/ would ship the test harness with the product.
 */
const SKIP = new Set(['node_modules', 'dist', '.data', 'drizzle']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name) || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs)$/.test(name) ? [path] : [];
  });
}

const relativeImports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    relative(repoRoot, resolve(dirname(file), m[1]!)),
  );

describe('layers', () => {
  it.each(['libs', 'services', 'gateway', 'frontends'])('%s never imports scripts/, e2e/ nor bench/', (top) => {
    const refused = sources(join(repoRoot, top)).flatMap((file) =>
      relativeImports(file)
        .filter((target) => /^(scripts|e2e|bench)\//.test(target))
        .map((target) => `${relative(repoRoot, file)} → ${target}`),
    );
    expect(refused).toEqual([]);
  });
});
