import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';

export function isPortOpen(port: number, host = '127.0.0.1', timeoutMs = 800): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitForPort(port: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isPortOpen(port)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const which = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || null;

/** Servers this launcher started itself; stopped with the stack. */
export const startedServers: ChildProcess[] = [];

/**
 * PostgreSQL on 127.0.0.1:5432: already running, or the machine's own cluster started, or a
 * private cluster under .data/postgres. Returns the admin URL, or null (services use PGlite).
 */
export async function ensurePostgres(dataDir: string): Promise<string | null> {
  const url = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await isPortOpen(5432)) return url;
  if (existsSync('/etc/postgresql') && which('pg_ctlcluster')) {
    const version = readdirSync('/etc/postgresql')[0];
    if (version)
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'ignore' });
    if (await waitForPort(5432)) return url;
  }
  const bin = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .map((v) => join('/usr/lib/postgresql', v, 'bin'))
        .find((b) => existsSync(join(b, 'initdb')))
    : undefined;
  if (!bin || process.getuid?.() === 0) return null; // initdb refuses to run as root
  const dir = join(dataDir, 'postgres');
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    mkdirSync(dir, { recursive: true });
    spawnSync(join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust'], { stdio: 'ignore' });
  }
  startedServers.push(
    spawn(join(bin, 'postgres'), ['-D', dir, '-p', '5432', '-k', dir, '-h', '127.0.0.1'], { stdio: 'ignore' }),
  );
  return (await waitForPort(5432)) ? url : null;
}

/** Creates the databases that do not exist yet. */
export async function createDatabases(adminUrl: string, names: string[]) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const name of names) {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (!rowCount) await client.query(`create database "${name}"`);
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabases(adminUrl: string, names: string[]) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const name of names) await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

export const databaseUrl = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** NATS with JetStream on 4222, started from the machine's nats-server when it is not running. */
export async function ensureNats(dataDir: string): Promise<void> {
  if (await isPortOpen(4222)) return;
  const bin = which('nats-server');
  if (!bin)
    throw new Error(
      'NATS ne répond pas sur 127.0.0.1:4222 et nats-server est introuvable : installez-le (nats-server).',
    );
  const dir = join(dataDir, 'nats');
  mkdirSync(dir, { recursive: true });
  startedServers.push(spawn(bin, ['-a', '127.0.0.1', '-p', '4222', '-js', '-sd', dir], { stdio: 'ignore' }));
  if (!(await waitForPort(4222))) throw new Error('nats-server ne démarre pas.');
}

/** Redis on 6379, started from the machine's redis-server when it is not running. */
export async function ensureRedis(dataDir: string): Promise<void> {
  if (await isPortOpen(6379)) return;
  const bin = which('redis-server');
  if (!bin)
    throw new Error(
      'Redis ne répond pas sur 127.0.0.1:6379 et redis-server est introuvable : installez-le (redis-server).',
    );
  const dir = join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  startedServers.push(
    spawn(bin, ['--bind', '127.0.0.1', '--port', '6379', '--dir', dir, '--appendonly', 'yes'], { stdio: 'ignore' }),
  );
  if (!(await waitForPort(6379))) throw new Error('redis-server ne démarre pas.');
}
