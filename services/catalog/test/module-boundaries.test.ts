import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Catalog is made of modules (src/modules/<name>/): each owns its tables, its queries and its
 * rules, and other code reaches a module only through its index.ts. These tests read the imports
 * of every source file and refuse what would tie modules together by their insides.
 */
const src = resolve(import.meta.dirname, '../src');
const modulesDir = join(src, 'modules');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The relative imports of a file (`import … from './x.ts'`, `export … from`, `import('./x.ts')`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return found.map((spec) => resolve(dirname(file), spec));
}

/** The module a path belongs to, and where inside it. */
function place(path: string) {
  const rel = relative(modulesDir, path);
  if (rel.startsWith('..')) return null;
  const [name, ...rest] = rel.split('/');
  return { name: name!, inside: rest.join('/') };
}

const files = filesUnder(src);
const modules = readdirSync(modulesDir).filter((name) => statSync(join(modulesDir, name)).isDirectory());

describe('the modules of catalog', () => {
  it('are the bounded contexts the architecture names, each with the four parts and an index', () => {
    expect(modules.sort()).toEqual(
      [
        'class-lists',
        'exchanges',
        'insights',
        'listings',
        'members',
        'monetisation',
        'saved-searches',
        'search',
        'taxonomy',
        'trust',
      ].sort(),
    );
    for (const name of modules) {
      const has = (part: string) => statSync(join(modulesDir, name, part), { throwIfNoEntry: false }) !== undefined;
      expect(has('index.ts'), `${name}/index.ts`).toBe(true);
      expect(has('routes') || name === 'members', `${name}/routes`).toBe(true);
      expect(has('domain') || name === 'members', `${name}/domain`).toBe(true);
      // Insights owns no table: it composes the others' figures.
      if (name !== 'insights') expect(has('db/schema.ts') && has('db/queries.ts'), `${name}/db`).toBe(true);
    }
  });

  it('are imported only through their index.ts (a schema file may name another module’s schema for a foreign key)', () => {
    const refused: string[] = [];
    for (const file of files) {
      const from = place(file);
      for (const target of importsOf(file)) {
        const to = place(target);
        if (!to || to.name === from?.name) continue;
        if (to.inside === 'index.ts') continue;
        const foreignKey = from?.inside === 'db/schema.ts' && to.inside === 'db/schema.ts';
        // The service's own schema gathers every module's tables for drizzle and the migrations.
        const gathered = relative(src, file) === 'db/schema.ts' && to.inside === 'db/schema.ts';
        if (!foreignKey && !gathered) refused.push(`${relative(src, file)} → ${relative(src, target)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('keep their SQL in db/: routes are thin, the domain holds rules (no drizzle-orm, no Fastify)', () => {
    const refused: string[] = [];
    for (const file of files) {
      const at = place(file);
      if (!at) continue;
      const text = readFileSync(file, 'utf8');
      const drizzle = /from 'drizzle-orm(\/[^']*)?'/.test(text.replace(/import type [^;]+;/g, ''));
      if (drizzle && !at.inside.startsWith('db/')) refused.push(`${relative(src, file)}: drizzle-orm outside db/`);
      if (
        /from '(fastify|@fastify\/[^']+)'/.test(text.replace(/import type [^;]+;/g, '')) &&
        at.inside.startsWith('domain/')
      )
        refused.push(`${relative(src, file)}: Fastify in the domain`);
      if (/\bHttpError\b/.test(text) && !at.inside.startsWith('routes/'))
        refused.push(`${relative(src, file)}: an HTTP error outside the routes (the domain throws domain errors)`);
    }
    expect(refused).toEqual([]);
  });

  it('have route files of a guard, a schema and one call each: no query, about 150 lines at most', () => {
    const refused: string[] = [];
    for (const file of files) {
      const at = place(file);
      if (!at?.inside.startsWith('routes/')) continue;
      const text = readFileSync(file, 'utf8');
      // The domain reads and writes: a route reaches no table nor query of its module.
      if (
        importsOf(file).some((target) => place(target)?.inside.startsWith('db/')) ||
        /\bdb\.(select|insert|update|delete|execute|transaction)\(/.test(text)
      )
        refused.push(`${relative(src, file)}: a query in a route`);
      const lines = text.split('\n').length;
      if (lines > 160) refused.push(`${relative(src, file)}: ${lines} lines`);
    }
    expect(refused).toEqual([]);
  });

  it('name no table of another module in their SQL', () => {
    // Each module's tables, by their SQL names, read from its schema file.
    const tablesOf = new Map(
      modules.map((name) => {
        const schema = join(modulesDir, name, 'db/schema.ts');
        const text = statSync(schema, { throwIfNoEntry: false }) ? readFileSync(schema, 'utf8') : '';
        return [name, [...text.matchAll(/pgTable\(\s*'([a-z_]+)'/g)].map((m) => m[1]!)] as const;
      }),
    );
    const refused: string[] = [];
    for (const file of files) {
      const at = place(file);
      if (!at?.inside.startsWith('db/') || at.inside === 'db/schema.ts') continue;
      // The SQL text the file writes (template strings), where a table is named.
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const sqlText = [...text.matchAll(/sql`([^`]*)`/g)].map((m) => m[1]!).join('\n');
      for (const [other, tables] of tablesOf) {
        if (other === at.name) continue;
        for (const table of tables)
          if (new RegExp(`\\b(from|join|into|update)\\s+${table}\\b`, 'i').test(sqlText))
            refused.push(`${relative(src, file)} names ${other}'s ${table}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
