import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * auth, messaging and moderation are one bounded context each, in the shape catalog's modules
 * have (services/catalog/test/module-boundaries.test.ts checks those): routes that are a guard, a
 * schema and one domain call; rules in domain/ that speak neither SQL nor HTTP; every query in
 * db/; writes through the unit of work, which records the events and kicks the relay itself.
 */
const root = resolve(import.meta.dirname, '../..');
const services = ['auth', 'messaging', 'moderation'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The source without its type-only imports (a type names a table's row, it runs no query). */
const runtimeText = (file: string) => readFileSync(file, 'utf8').replace(/import type [^;]+;/g, '');

describe.each(services)('services/%s', (service) => {
  const src = join(root, 'services', service, 'src');
  const files = filesUnder(src).map((file) => ({ file, at: relative(src, file), text: runtimeText(file) }));

  it('has its routes’ dependencies in deps.ts, its queries in db/queries.ts, its events in one place', () => {
    const has = (path: string) => statSync(join(src, path), { throwIfNoEntry: false }) !== undefined;
    expect(has('deps.ts')).toBe(true);
    expect(has('db/queries.ts')).toBe(true);
    expect(has('events/published.ts')).toBe(true);
  });

  it('speaks SQL only in db/', () => {
    const refused = files.filter(({ at, text }) => !at.startsWith('db/') && /from 'drizzle-orm(\/[^']*)?'/.test(text));
    expect(refused.map((f) => f.at)).toEqual([]);
  });

  it('keeps HTTP out of the domain, the events and the queries', () => {
    const refused = files.filter(
      ({ at, text }) =>
        /^(domain|events|db)\//.test(at) &&
        (/\bHttpError\b/.test(text) || /from '(fastify|@fastify\/[^']+)'/.test(text)),
    );
    expect(refused.map((f) => f.at)).toEqual([]);
  });

  it('writes through the unit of work: no event recorded nor relay kicked by hand', () => {
    const refused = files.filter(({ text }) => /\brecordEvent\(|\brelay\.kick\(|\.transaction\(\s*async/.test(text));
    // A code check needs its own short transaction (the count of tries must hold even when the
    // login that asked for it fails); the revocation copy's rebuild reads under an advisory lock.
    const allowed = ['domain/two-factor.ts', 'domain/revocation.ts'];
    expect(refused.map((f) => f.at).filter((at) => !allowed.includes(at))).toEqual([]);
  });

  it('has route files of a guard, a schema and one call: no query, about 150 lines at most', () => {
    const refused: string[] = [];
    for (const { at, text, file } of files) {
      if (!at.startsWith('routes/')) continue;
      if (/from '\.\.\/db\//.test(text) || /\bdb\.(select|insert|update|delete|execute|transaction)\(/.test(text))
        refused.push(`${at}: a query in a route`);
      const lines = readFileSync(file, 'utf8').split('\n').length;
      if (lines > 160) refused.push(`${at}: ${lines} lines`);
    }
    expect(refused).toEqual([]);
  });
});
