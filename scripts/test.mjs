#!/usr/bin/env node
// `npm test`: builds the frontends when they are missing or stale (the browser journeys need
// them), then runs every vitest project: unit, integration, manifests and end-to-end.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { onLts } from './node-lts.mjs';

// On a machine whose Node is older than the LTS, everything below runs on the LTS from .tools/.
await onLts(import.meta.url);

const root = join(import.meta.dirname, '..');

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
const outputs = ['shell/dist/index.html', 'catalog/dist/remoteEntry.js', 'admin/dist/remoteEntry.js'].map((f) =>
  join(root, 'frontends', f),
);
if (outputs.some((f) => !existsSync(f) || statSync(f).mtimeMs < sources)) {
  const build = spawnSync('npm', ['run', 'build:frontends', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const args = process.argv.slice(2);
const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...args], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
