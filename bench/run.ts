/** `npm run bench -- <name>` runs bench/<name>.ts; without a name, every benchmark in turn. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = import.meta.dirname;
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.replace(/\.ts$/, ''));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length) {
  console.error(`Benchmarks inconnus : ${unknown.join(', ')}. Disponibles : ${all.join(', ')}`);
  process.exit(1);
}
for (const name of wanted.length ? wanted : all) {
  console.log(`\n== ${name} ==`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, `${name}.ts`)], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
