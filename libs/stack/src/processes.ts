import { type ChildProcess, spawn } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..', '..');

export const services = ['auth', 'catalog', 'messaging', 'moderation', 'notifications'] as const;
export type Service = (typeof services)[number];
/**
 * The payment simulator stands where a real mobile-money aggregator would (catalog's `simulated`
 * provider): started here for development and tests, never deployed.
 */
export const deployables = [...services, 'payment-simulator', 'gateway'] as const;
export type Deployable = (typeof deployables)[number];

export const defaultPorts: Record<Deployable, number> = {
  auth: 4001,
  catalog: 4002,
  messaging: 4003,
  moderation: 4004,
  notifications: 4005,
  'payment-simulator': 4090,
  gateway: 8080,
};

/** Where a deployable's package is: gateway/ or services/<name>/. */
export const packageDir = (name: Deployable) => join(repoRoot, name === 'gateway' ? 'gateway' : `services/${name}`);

/**
 * A deployable's production bundle, built by docker/tsup.config.mjs as its image builds it (the
 * test stacks build them first: bundles.ts). Started from it, a process loads one file instead of
 * every TypeScript module through tsx, about a second of CPU less per start, and runs what ships.
 */
export const bundleOf = (name: Deployable) => join(packageDir(name), 'dist', 'main.js');
export const BUNDLE_CONFIG = join(repoRoot, 'docker', 'tsup.config.mjs');

function newest(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** A bundle as new as everything it is built from: its sources, the libs it bundles in, the build's settings. */
export function isBundleFresh(name: Deployable): boolean {
  const bundle = bundleOf(name);
  if (!existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  const dir = packageDir(name);
  const sources = [
    join(dir, 'src'),
    join(dir, 'package.json'),
    BUNDLE_CONFIG,
    join(repoRoot, 'libs', 'service-kit', 'src'),
    join(repoRoot, 'libs', 'contracts', 'src'),
  ];
  return sources.every((source) => !existsSync(source) || newest(source) <= built);
}

export interface StackOptions {
  ports: Record<Deployable, number>;
  /** Each deployable's GET /metrics port (METRICS_PORT); any free one when not given. */
  metricsPorts?: Partial<Record<Deployable, number>>;
  /** Environment shared by every process (NATS_URL, REDIS_URL, DATA_DIR, namespaces…). */
  env: Record<string, string>;
  /** Per-service database URLs; a service without one runs on embedded PGlite. */
  databaseUrls: Partial<Record<Service, string>>;
  /** Each process writes its JSON log to <logDir>/<name>.log. */
  logDir: string;
  /** Called with each log line that is a warning or worse (not with `logsDirect`). */
  onProblem?: (name: Deployable, line: string) => void;
  /**
   * Each process writes its log file itself (its stdout and stderr are the file), as it would
   * write to a container's log: this process reads none of it. For benchmarks, whose own process
   * is the load generator: reading a gateway's ten thousand lines a second took its CPU from the load.
   */
  logsDirect?: boolean;
  /**
   * A process that exits without being asked is started again, as Kubernetes restarts a
   * container, at most `max` times within `windowMs`; past that it stays down (a crash loop is
   * for a person to read, not for the launcher to hide). Off unless given.
   */
  restart?: RestartPolicy;
  /** Told, in French, of each restart and of giving up. */
  onRestart?: (name: Deployable, message: string) => void;
}

export interface RestartPolicy {
  max: number;
  windowMs: number;
}

/**
 * Restarts of one process within a sliding window: `record()` counts an exit now and says
 * whether one more restart is allowed, and which one it is.
 */
export function restartBudget(policy: RestartPolicy, now: () => number = Date.now) {
  const exits: number[] = [];
  return {
    record(): { allowed: boolean; count: number } {
      const at = now();
      while (exits.length && exits[0]! <= at - policy.windowMs) exits.shift();
      exits.push(at);
      return { allowed: exits.length <= policy.max, count: exits.length };
    },
  };
}

export interface Stack {
  url(name: Deployable): string;
  /** Where a deployable's Prometheus metrics are (its metrics port), if that port was chosen. */
  metricsUrl(name: Deployable): string | undefined;
  /** The process id of a running deployable (benchmarks read its CPU time). */
  pid(name: Deployable): number | undefined;
  start(name: Deployable): Promise<void>;
  /**
   * SIGTERM, then SIGKILL after 10 s. With `signal: null` nothing is sent, only awaited: after a
   * Ctrl-C the terminal has already signalled the whole process group.
   */
  stop(name: Deployable, signal?: NodeJS.Signals | null): Promise<void>;
  stopAll(signal?: NodeJS.Signals | null): Promise<void>;
}

/** The environment a deployable gets: shared settings, its port, where its peers are. */
export function environmentFor(name: Deployable, options: StackOptions): Record<string, string> {
  const { ports } = options;
  const local = (port: number) => `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...options.env,
    PORT: String(ports[name]),
    // /metrics has a port of its own; any free one unless chosen, so that stacks run side by side.
    METRICS_PORT: String(options.metricsPorts?.[name] ?? 0),
    AUTH_JWKS_URL: `${local(ports.auth)}/.well-known/jwks.json`,
    // Where a service asks whether a token was revoked when the Redis cache cannot say.
    AUTH_URL: local(ports.auth),
  };
  if (name === 'gateway') {
    Object.assign(env, {
      CATALOG_URL: local(ports.catalog),
      MESSAGING_URL: local(ports.messaging),
      MODERATION_URL: local(ports.moderation),
      NOTIFICATIONS_URL: local(ports.notifications),
    });
  } else {
    // The services sit behind the gateway on this machine: its X-Forwarded-For and request id
    // are believed; the gateway itself believes no client (TRUST_PROXY unset).
    env.TRUST_PROXY ??= 'loopback';
    const url = name === 'payment-simulator' ? undefined : options.databaseUrls[name];
    if (url) env[`${name.toUpperCase()}_DATABASE_URL`] = url;
  }
  if (name === 'catalog') {
    // The aggregator is asked directly and answers through the gateway, as a real one would.
    env.PAYMENT_AGGREGATOR_URL ??= local(ports['payment-simulator']);
    env.PAYMENT_WEBHOOK_BASE_URL ??= `${local(ports.gateway)}/api/payments/webhooks`;
    // The simulator also speaks eBilling's and MyPVit's protocols: both are offered.
    env.PAYMENT_EBILLING_URL ??= `${local(ports['payment-simulator'])}/ebilling`;
    env.PAYMENT_MYPVIT_URL ??= `${local(ports['payment-simulator'])}/mypvit`;
  }
  if (name === 'notifications') {
    // SMS go to the simulator's Infobip protocol; its reports come back through the gateway.
    env.SMS_PROVIDER_URL ??= local(ports['payment-simulator']);
    env.SMS_DELIVERY_URL ??= `${local(ports.gateway)}/api/notifications/sms/delivery`;
  }
  if (name === 'payment-simulator') {
    // Its callbacks go through the gateway, as a real aggregator's would.
    env.PAYMENT_WEBHOOK_BASE_URL ??= `${local(ports.gateway)}/api/payments/webhooks`;
    env.SMS_INBOUND_URL ??= `${local(ports.gateway)}/api/notifications/sms/inbound`;
  }
  return env;
}

/** The last bytes of a log file, for an error message (the file may hold earlier runs' lines). */
function logTail(file: string, bytes: number): string {
  try {
    const fd = openSync(file, 'r');
    try {
      const { size } = fstatSync(fd);
      const tail = Buffer.alloc(Math.min(size, bytes));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      return tail.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

async function waitReady(url: string, child: ChildProcess, name: string, lastLines: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`${name} s'est arrêté au démarrage (code ${child.exitCode}) :\n${lastLines()}`);
    }
    try {
      const res = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} n'est pas prêt après ${timeoutMs / 1000} s`);
}

/**
 * How a deployable is run: its bundle when it is as new as its sources, else its TypeScript
 * sources through tsx (a bundle older than a change is never run).
 */
function commandFor(name: Deployable): string[] {
  return isBundleFresh(name) ? [bundleOf(name)] : ['--import', 'tsx', join(packageDir(name), 'src', 'main.ts')];
}

/**
 * V8 keeps the code it compiled for the packages every process loads (fastify, drizzle, pg…)
 * in this folder, and the next start reads it instead of compiling again.
 */
const runtimeEnvironment = { NODE_COMPILE_CACHE: join(repoRoot, 'node_modules', '.cache', 'node-compile') };

/** Starts the deployables as child processes and waits for /ready. */
export async function startStack(options: StackOptions, only: readonly Deployable[] = deployables): Promise<Stack> {
  mkdirSync(options.logDir, { recursive: true });
  const children = new Map<Deployable, ChildProcess>();
  const budgets = new Map<Deployable, ReturnType<typeof restartBudget>>();
  /** Restarts are for what ran once: a process that never got ready fails the start instead. */
  const ranOnce = new Set<Deployable>();

  /** A child that exits while still the one we run was not asked to: start it again, within the budget. */
  function watch(name: Deployable, child: ChildProcess, logFile: string) {
    child.once('exit', (code, signal) => {
      if (children.get(name) !== child || !options.restart || !ranOnce.has(name)) return;
      children.delete(name);
      const budget = budgets.get(name) ?? restartBudget(options.restart);
      budgets.set(name, budget);
      const { allowed, count } = budget.record();
      const how = signal ? `signal ${signal}` : `code ${code}`;
      const window = `${Math.round(options.restart.windowMs / 1000)} s`;
      const say = options.onRestart ?? ((n: Deployable, m: string) => console.error(`[${n}] ${m}`));
      if (!allowed) {
        say(
          name,
          `${name} s'est arrêté (${how}) ${count} fois en ${window} : il n'est plus redémarré. Voir ${logFile}, puis relancez.`,
        );
        return;
      }
      say(name, `${name} s'est arrêté (${how}) : redémarrage ${count}/${options.restart.max} en ${window}.`);
      start(name).catch((err: Error) => say(name, `${name} n'a pas pu redémarrer : ${err.message}`));
    });
  }

  async function start(name: Deployable) {
    const logFile = join(options.logDir, `${name}.log`);
    // logsDirect: the child's stdout and stderr are the file itself.
    const fd = options.logsDirect ? openSync(logFile, 'a') : undefined;
    const child = spawn(process.execPath, commandFor(name), {
      cwd: repoRoot,
      env: { ...process.env, ...runtimeEnvironment, ...environmentFor(name, options) },
      stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
    });
    if (fd !== undefined) closeSync(fd); // the child holds its own copy
    children.set(name, child);
    // The last lines, so that a process dying at start says why in the error, not only in its log.
    let tail = '';
    if (fd === undefined) {
      const log = createWriteStream(logFile, { flags: 'a' });
      const onData = (chunk: Buffer) => {
        log.write(chunk);
        tail = (tail + chunk.toString()).slice(-2000);
        if (!options.onProblem) return;
        for (const line of chunk.toString().split('\n')) {
          if (!line.trim()) continue;
          const level = /"level":(\d+)/.exec(line)?.[1];
          if (!level || Number(level) >= 40) options.onProblem(name, line);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.on('exit', () => log.end());
    }
    watch(name, child, logFile);
    const lastLines = () => (fd === undefined ? tail : logTail(logFile, 2000));
    await waitReady(`http://127.0.0.1:${options.ports[name]}`, child, name, lastLines);
    ranOnce.add(name);
  }

  async function stop(name: Deployable, signal: NodeJS.Signals | null = 'SIGTERM') {
    const child = children.get(name);
    children.delete(name);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    if (signal) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  const stack: Stack = {
    url: (name) => `http://127.0.0.1:${options.ports[name]}`,
    metricsUrl: (name) => {
      const port = options.metricsPorts?.[name];
      return port ? `http://127.0.0.1:${port}/metrics` : undefined;
    },
    pid: (name) => children.get(name)?.pid,
    start,
    stop,
    stopAll: (signal) => Promise.all([...children.keys()].map((n) => stop(n, signal))).then(() => undefined),
  };

  try {
    // auth first: the others read its signing keys; then the rest side by side.
    if (only.includes('auth')) await start('auth');
    await Promise.all(only.filter((n) => n !== 'auth' && n !== 'gateway').map(start));
    if (only.includes('gateway')) await start('gateway');
  } catch (err) {
    await stack.stopAll();
    throw err;
  }
  return stack;
}
