import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Servers of a test's own, on free ports, for the tests that kill or stop them: never the
 * machine's shared PostgreSQL, NATS or Redis, which other tests use at the same time.
 */
export interface OwnServer {
  port: number;
  url: string;
  running(): boolean;
  /** Starts it (again) on the same port; Redis comes back empty, NATS with its stored streams. */
  start(): Promise<void>;
  /** SIGKILL: no goodbye, as a crash. */
  kill(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): Promise<void>;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function ownServer(port: number, url: string, command: string, args: (dir: string) => string[]): OwnServer {
  const dir = mkdtempSync(join(tmpdir(), `cartable-${command.split('/').at(-1)}-`));
  let child: ChildProcess | undefined;
  const server: OwnServer = {
    port,
    url,
    running: () => child !== undefined && child.exitCode === null,
    async start() {
      child = spawn(command, args(dir), { stdio: 'ignore' });
      for (let tries = 0; !(await portAnswers(port)); tries++) {
        if (tries > 100 || child.exitCode !== null) throw new Error(`${command} did not start on port ${port}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async kill() {
      const current = child;
      child = undefined;
      if (!current || current.exitCode !== null) return;
      const exited = new Promise((r) => current.once('exit', r));
      current.kill('SIGKILL');
      await exited;
    },
    async remove() {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A Redis without persistence: a restart comes back empty, as on our machines. */
export const redisServer = (port: number) =>
  ownServer(port, `redis://127.0.0.1:${port}`, 'redis-server', () => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);

/** NATS with JetStream storing under its own folder (kept across a kill and a start). */
export const natsServer = (port: number) =>
  ownServer(port, `nats://127.0.0.1:${port}`, '/usr/sbin/nats-server', (dir) => [
    '-a',
    '127.0.0.1',
    '-p',
    String(port),
    '-js',
    '-sd',
    dir,
  ]);
