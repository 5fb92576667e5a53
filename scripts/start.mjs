#!/usr/bin/env node
// `npm start` on a fresh clone: only Node built-ins here, since dependencies may not be installed yet.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { onLts } from './node-lts.mjs';

// On a machine whose Node is older than the LTS, everything below runs on the LTS from .tools/.
await onLts(import.meta.url);

const root = join(import.meta.dirname, '..');
const say = (line) => console.log(`\x1b[32m▸\x1b[0m ${line}`);

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(join(root, 'package-lock.json')).mtimeMs > statSync(installed).mtimeMs) {
  // The locked versions, without rewriting the lock (see .ci/run for why not `npm ci`).
  say('Installation des dépendances…');
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund']);
}

/** Newest modification time under a folder (sources of the frontends). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}
const sources = Math.max(
  ...['frontends/shell', 'frontends/catalog', 'frontends/admin', 'libs/ui', 'libs/contracts'].map((d) =>
    newest(join(root, d)),
  ),
);
const built = ['shell', 'catalog', 'admin'].map((f) =>
  join(root, 'frontends', f, 'dist', f === 'shell' ? 'index.html' : 'remoteEntry.js'),
);
if (built.some((f) => !existsSync(f) || statSync(f).mtimeMs < sources)) {
  say('Construction des interfaces (rspack)…');
  run('npm', ['run', 'build:frontends', '--silent']);
}

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'dev.ts')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
