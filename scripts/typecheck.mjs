#!/usr/bin/env node
// `npm run typecheck`: the root project (services, gateway, libs, tests) and each frontend
// workspace's own `typecheck`, as many at once as the machine has cores: each compiler uses one,
// and one after the other they took twice as long on our 2-core machines.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const checks = [
  [
    'tsc',
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'],
    process.execPath,
  ],
  ...['@cartable/ui', '@cartable/shell', '@cartable/frontend-catalog', '@cartable/frontend-admin'].map((workspace) => [
    workspace,
    ['run', 'typecheck', '--silent', '-w', workspace],
    'npm',
  ]),
];

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
