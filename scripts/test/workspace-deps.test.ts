import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { repoRoot } from '@cartable/stack/processes';
import { describe, expect, it } from 'vitest';

/**
 * Every workspace declares the packages its code imports: a
 * package that happens to be hoisted by another workspace works here and breaks in a Docker
 * image or a fresh install of that workspace alone.
 */
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const SKIP = new Set(['node_modules', 'dist', '.data', 'drizzle', 'fixtures']);
const builtins = new Set(builtinModules);

function files(dir: string, nested: string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIP.has(entry) || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (nested.includes(path)) continue; // another workspace's folder
    if (statSync(path).isDirectory()) out.push(...files(path, nested));
    else if (SOURCE.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Package names a file imports (static, dynamic, type-only and re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+|require\s*\(\s*)['"]([^'"./][^'"]*)['"]/g)) {
    const spec = match[1] ?? '';
    // A regular expression that looks like an import (a test's pattern) names no package.
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/[\w.@-]+)*$/i.test(spec)) continue;
    if (spec.startsWith('node:') || builtins.has(spec.split('/')[0] ?? '')) continue;
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] ?? spec);
    found.add(name);
  }
  return [...found];
}

const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] };
const workspaceDirs = rootPackage.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(join(repoRoot, pattern.slice(0, -2)))
        .map((d) => join(repoRoot, pattern.slice(0, -2), d))
        .filter((d) => statSync(d).isDirectory())
    : [join(repoRoot, pattern)],
);

/**
 * Folders with a package.json of their own that are not workspaces: a benchmark's contender
 * (bench/gateway-compare installs express-gateway there, never in the product) declares its own.
 */
const standaloneDirs = ['bench']
  .map((d) => join(repoRoot, d))
  .flatMap((d) => readdirSync(d).map((entry) => join(d, entry)))
  .filter((d) => statSync(d).isDirectory() && readdirSync(d).includes('package.json'));
const ownPackageDirs = [...workspaceDirs, ...standaloneDirs];

function declared(dir: string): Set<string> {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  return new Set(
    [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies, pkg.optionalDependencies].flatMap((d) =>
      Object.keys(d ?? {}),
    ),
  );
}

/** Test environments a test file names in its environment pragma: vitest loads them from the root. */
function environmentsOf(file: string): string[] {
  // The pragma's name is built here so that vitest does not read it as this file's own.
  const pragma = new RegExp(`@vitest-${'environment'}\\s+([\\w-]+)`, 'g');
  return [...readFileSync(file, 'utf8').matchAll(pragma)].map((m) => m[1] ?? '').filter((name) => name !== 'node');
}

describe('workspace dependencies', () => {
  it('the root declares every test environment a test file asks for (jsdom…)', () => {
    const have = declared(repoRoot);
    const asked = new Map<string, string>();
    for (const dir of [repoRoot, ...workspaceDirs]) {
      for (const file of files(dir, dir === repoRoot ? workspaceDirs : [])) {
        for (const name of environmentsOf(file)) if (!have.has(name)) asked.set(name, relative(repoRoot, file));
      }
    }
    expect(Object.fromEntries(asked)).toEqual({});
  });

  it.each([repoRoot, ...ownPackageDirs].map((d) => [relative(repoRoot, d) || '(root)', d]))(
    '%s declares every package it imports',
    (_name, dir) => {
      const own = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string };
      const have = declared(dir);
      const missing = new Map<string, string>();
      const nested = dir === repoRoot ? ownPackageDirs : [];
      for (const file of files(dir, nested)) {
        for (const name of importsOf(file)) {
          if (name !== own.name && !have.has(name) && !missing.has(name)) missing.set(name, relative(repoRoot, file));
        }
      }
      expect(Object.fromEntries(missing)).toEqual({});
    },
  );
});
