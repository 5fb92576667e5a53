#!/usr/bin/env node
// `npm run typecheck`: the root project (services, gateway, libs, tests), the frontends with
// libs/ui as one program (frontends/tsconfig.json: the same options as each workspace's own, and
// libs/ui checked once instead of once per frontend, half the CPU), and libs/ui's build scripts;
// as many at once as the machine has cores: each compiler uses one. A workspace still checks
// itself alone with `npm run typecheck -w <workspace>`.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const checks = [
  'tsconfig.json',
  'frontends/tsconfig.json',
  'libs/ui/build/tsconfig.json',
  'frontends/shell/sw/tsconfig.json',
].map((project) => [project, [tsc, '-p', project, '--noEmit'], process.execPath]);

function run([name, args, command]) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ name, code, output }));
  });
}

const queue = [...checks];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), checks.length) }, async () => {
    while (queue.length) results.push(await run(queue.shift()));
  }),
);
const failed = results.filter((r) => r.code !== 0);
for (const { name, output } of failed) process.stderr.write(`\n── ${name}\n${output}`);
process.exit(failed.length ? 1 : 0);
