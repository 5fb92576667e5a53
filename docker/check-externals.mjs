// Image build guard: every package the bundle leaves external must resolve, the way Node
// will resolve it at run time, from the bundle's own folder.
// Usage: node check-externals.mjs <package folder containing dist/ and its metafile>
// Exits 1 and names the missing packages otherwise (a service importing a package that
// neither it nor libs/service-kit nor libs/contracts declares is the usual cause).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const pkgDir = path.resolve(process.argv[2] ?? '.');
const dist = path.join(pkgDir, 'dist');
const metafiles = existsSync(dist) ? readdirSync(dist).filter((f) => /^metafile-.*\.json$/.test(f)) : [];
if (metafiles.length === 0) {
  console.error(`check-externals: no esbuild metafile in ${dist}`);
  process.exit(1);
}

const builtins = new Set(builtinModules);
const isBuiltin = (spec) => spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]);
const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const resolvable = (name) => {
  for (let dir = dist; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', name, 'package.json'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
};

const problems = new Set();
let externals = 0;
for (const file of metafiles) {
  const meta = JSON.parse(readFileSync(path.join(dist, file), 'utf8'));
  for (const output of Object.values(meta.outputs ?? {})) {
    for (const imp of output.imports ?? []) {
      if (!imp.external || isBuiltin(imp.path)) continue;
      externals++;
      if (imp.path.startsWith('.') || path.isAbsolute(imp.path)) {
        problems.add(`${imp.path} (a relative import left outside the bundle)`);
      } else if (imp.path.startsWith('@cartable/')) {
        problems.add(`${imp.path} (workspace libs must be bundled)`);
      } else if (!resolvable(packageName(imp.path))) {
        problems.add(`${packageName(imp.path)} (not installed in the production node_modules)`);
      }
    }
  }
}
if (problems.size > 0) {
  console.error(`check-externals: ${pkgDir}\n  ${[...problems].join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-externals: ${externals} external import(s) of ${path.relative(process.cwd(), pkgDir) || '.'} resolve`,
);
