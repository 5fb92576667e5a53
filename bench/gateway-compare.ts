/**
 * What the gateway costs, side by side in one run: the same trivial upstream
 * (bench/gateway-compare/upstream.mjs) called directly, through express-gateway 1.16 with no
 * authentication at all, and through our gateway on a public route (GET /api/books) and on a
 * member's route (GET /api/favourites: JWT checked against auth's keys, revocation checked in
 * Redis, logging on, as in production); and three floors with nothing on: bare Fastify with
 * @fastify/reply-from, as our gateway forwards (bare-reply-from.mjs), and two with the least a
 * Node proxy can do, a hand-made hop on undici's dispatch handler (forward.mjs): bare Fastify
 * (bare-fastify.mjs, the « bare-Fastify floor » the targets name) and bare node:http, the floor of
 * any gateway written in Node (bare-node.mjs).
 * Our gateway is a second instance of gateway/src/main.ts whose catalog is the trivial upstream;
 * auth and Redis are a real test stack's. express-gateway (and, for the floor lines, the gateway's
 * versions of fastify, @fastify/reply-from and undici) are installed in bench/gateway-compare/ on
 * first run, never as a dependency of the product.
 *   npm run bench -- gateway-compare      (DURATION=10 CONNECTIONS=50 WARMUP=2 by default)
 * GATEWAY_NODE_OPTIONS is passed to our gateway's process (e.g. `--require` a CPU profiler).
 * Each line gives the CPU milliseconds a request cost the proxy in front, the upstream and
 * autocannon (`cpu ms/req`, Linux, bench/support/cpu.ts).
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { verifiedMember } from '@cartable/stack/members';
import { startStack } from '@cartable/stack/processes';
import { freePort, NATS_URL, REDIS_URL, startTestStack } from '@cartable/stack/test-stack';
import autocannon from 'autocannon';
import { cpuMeter, type Watched } from './support/cpu.ts';
import { printLine } from './support/line.ts';
import { benchEnv } from './support/stack-env.ts';

const duration = Number(process.env.DURATION ?? 10);
/** Seconds of the same load before each measured run, unmeasured: every contender is measured warm (JIT-compiled, pools full). */
const warmup = Number(process.env.WARMUP ?? 2);
const connections = Number(process.env.CONNECTIONS ?? 50);
const here = join(import.meta.dirname, 'gateway-compare');

const helpers = ['express-gateway', 'fastify', '@fastify/reply-from', 'undici'];
if (!helpers.every((name) => existsSync(join(here, 'node_modules', name)))) {
  console.log(`# installing ${helpers.join(', ')} in bench/gateway-compare (first run only)`);
  const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: here, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}

/** One printed run, with the CPU per request of the processes it goes through (`watched`). */
async function load(
  title: string,
  url: string,
  options: { headers?: Record<string, string>; connections?: number; watched?: Watched } = {},
) {
  const run = (seconds: number) =>
    autocannon({
      url,
      connections: options.connections ?? connections,
      duration: seconds,
      headers: options.headers ?? {},
    });
  if (warmup > 0) await run(warmup);
  const meter = cpuMeter(options.watched ?? {});
  meter.start();
  const result = await run(duration);
  return printLine(title, result, meter.perRequest(result.requests.total));
}

/** Starts a helper script of bench/gateway-compare as its own process (its own core time). */
async function child(script: string, env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const proc = fork(join(here, script), { env: { ...process.env, ...env }, stdio: 'ignore' });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`${script} s'est arrêté (code ${proc.exitCode})`);
    if (
      await fetch(readyUrl).then(
        (r) => r.ok,
        () => false,
      )
    )
      return proc;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${script} n'a pas répondu à ${readyUrl}`);
}

// Our gateway logs every request (about 100 MB a run): only the last run's log is kept.
rmSync(join(here, '.data', 'logs'), { recursive: true, force: true });
const stack = await startTestStack({ env: benchEnv });
const processes: ChildProcess[] = [];
let ours: Awaited<ReturnType<typeof startStack>> | undefined;
try {
  const [upstreamPort, egPort, egAdminPort, gatewayPort, barePort, bareNodePort, bareReplyFromPort] = await Promise.all(
    [freePort(), freePort(), freePort(), freePort(), freePort(), freePort(), freePort()],
  );
  const upstream = `http://127.0.0.1:${upstreamPort}`;
  const upstreamProcess = await child('upstream.mjs', { PORT: String(upstreamPort) }, `${upstream}/books`);
  processes.push(upstreamProcess);
  const egProcess = await child(
    'express-gateway.mjs',
    { EG_PORT: String(egPort), EG_ADMIN_PORT: String(egAdminPort), EG_UPSTREAM: upstream },
    `http://127.0.0.1:${egPort}/api/books`,
  );
  processes.push(egProcess);

  const bareProcess = await child(
    'bare-fastify.mjs',
    { BARE_PORT: String(barePort), BARE_UPSTREAM: upstream },
    `http://127.0.0.1:${barePort}/api/books`,
  );
  processes.push(bareProcess);
  const bareReplyFromProcess = await child(
    'bare-reply-from.mjs',
    { BARE_PORT: String(bareReplyFromPort), BARE_UPSTREAM: upstream },
    `http://127.0.0.1:${bareReplyFromPort}/api/books`,
  );
  processes.push(bareReplyFromProcess);
  const bareNodeProcess = await child(
    'bare-node.mjs',
    { BARE_PORT: String(bareNodePort), BARE_UPSTREAM: upstream },
    `http://127.0.0.1:${bareNodePort}/api/books`,
  );
  processes.push(bareNodeProcess);

  // Our gateway, as deployed (logging at info), in front of the trivial upstream as « catalog ».
  const port = (name: 'auth' | 'messaging' | 'moderation' | 'notifications' | 'payment-simulator') =>
    Number(new URL(stack.url(name)).port);
  ours = await startStack(
    {
      ports: {
        auth: port('auth'),
        catalog: upstreamPort,
        messaging: port('messaging'),
        moderation: port('moderation'),
        notifications: port('notifications'),
        'payment-simulator': port('payment-simulator'),
        gateway: gatewayPort,
      },
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        NATS_URL,
        REDIS_URL,
        REDIS_KEY_PREFIX: `cartable:${stack.id}:`,
        EVENT_NAMESPACE: stack.id,
        PUBLIC_URL: `http://localhost:${gatewayPort}`,
        DATA_DIR: join(here, '.data'),
        ...(process.env.GATEWAY_NODE_OPTIONS ? { NODE_OPTIONS: process.env.GATEWAY_NODE_OPTIONS } : {}),
      },
      databaseUrls: {},
      logDir: join(here, '.data', 'logs'),
      // Its log goes to its file as to a container's log, not through this process, which is
      // autocannon's: express-gateway's goes nowhere, bare Fastify writes none.
      logsDirect: true,
    },
    ['gateway'],
  );
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  const member = await verifiedMember(stack, `bench${Date.now().toString(36)}`);
  const auth = { authorization: `Bearer ${member.token}` };
  const check = await fetch(`${gateway}/api/favourites`, { headers: auth });
  if (check.status !== 200) throw new Error(`member route answered ${check.status}`);
  if ((await fetch(`${gateway}/api/favourites`)).status !== 401) throw new Error('member route open to visitors');

  console.log(`# ${connections} connections, ${duration} s each, on ${process.platform} with Node ${process.version}`);
  // Each run's CPU per request: the proxy in front (if any) and the upstream.
  const upstreamOnly: Watched = { upstream: () => [upstreamProcess.pid] };
  const through = (name: string, pid: number | undefined): Watched => ({ [name]: () => [pid], ...upstreamOnly });
  const ourGateway = through('gateway', ours.pid('gateway'));
  const direct = await load('direct GET /books (trivial upstream)', `${upstream}/books`, { watched: upstreamOnly });
  const eg = await load(
    'express-gateway 1.16, no authentication, GET /api/books',
    `http://127.0.0.1:${egPort}/api/books`,
    { watched: through('express-gateway', egProcess.pid) },
  );
  const bareReplyFrom = await load(
    'bare Fastify + @fastify/reply-from as the gateway forwards, nothing else, GET /api/books',
    `http://127.0.0.1:${bareReplyFromPort}/api/books`,
    { watched: through('bare reply-from', bareReplyFromProcess.pid) },
  );
  const bare = await load(
    'bare Fastify + undici, hand-made hop, nothing else, GET /api/books',
    `http://127.0.0.1:${barePort}/api/books`,
    { watched: through('bare', bareProcess.pid) },
  );
  const bareNode = await load(
    'bare node:http + undici, no framework, nothing else, GET /api/books',
    `http://127.0.0.1:${bareNodePort}/api/books`,
    { watched: through('bare node', bareNodeProcess.pid) },
  );
  const open = await load('our gateway, public route GET /api/books', `${gateway}/api/books`, {
    watched: ourGateway,
  });
  const guarded = await load(
    'our gateway, member route GET /api/favourites (JWT, revocation, logging)',
    `${gateway}/api/favourites`,
    { headers: auth, watched: ourGateway },
  );

  // Added latency on an idle machine: one connection at a time.
  const idleDirect = await load('idle: direct, 1 connection', `${upstream}/favourites`, {
    connections: 1,
    watched: upstreamOnly,
  });
  const idleMember = await load('idle: our gateway member route, 1 connection', `${gateway}/api/favourites`, {
    headers: auth,
    connections: 1,
    watched: ourGateway,
  });

  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  console.log(
    JSON.stringify({
      'member route ÷ express-gateway': ratio(guarded['req/s'], eg['req/s']),
      'public route ÷ direct': ratio(open['req/s'], direct['req/s']),
      'express-gateway ÷ direct': ratio(eg['req/s'], direct['req/s']),
      // How far the framework alone gets: the ceiling of any gateway built on it.
      'bare Fastify + undici ÷ direct': ratio(bare['req/s'], direct['req/s']),
      'public route ÷ bare Fastify + undici (target ≥ 0.5)': ratio(open['req/s'], bare['req/s']),
      // What @fastify/reply-from costs against the hand-made hop, and our gateway against it.
      'bare Fastify + reply-from ÷ bare Fastify + undici': ratio(bareReplyFrom['req/s'], bare['req/s']),
      'public route ÷ bare Fastify + reply-from': ratio(open['req/s'], bareReplyFrom['req/s']),
      // How far Node's HTTP server and client get with no framework: the ceiling of any gateway
      // written in Node, on this machine, in this run.
      'bare node:http + undici ÷ direct': ratio(bareNode['req/s'], direct['req/s']),
      // autocannon's latencies are whole milliseconds: with one connection, a request's time
      // is the inverse of the rate, which says more at this scale.
      'time added per request on the member route, idle, ms (target p50 ≤ 0.5)': Number(
        (1000 / idleMember['req/s'] - 1000 / idleDirect['req/s']).toFixed(2),
      ),
    }),
  );
} finally {
  for (const proc of processes) proc.kill();
  await ours?.stopAll();
  await stack.teardown();
}
