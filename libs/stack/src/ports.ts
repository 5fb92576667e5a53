import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The kernel hands out its ephemeral range both to `listen(0)` and to every outgoing connection.
 * A port found free there and handed to a child process can be taken, before the child binds it,
 * by any connection the tests open meanwhile (PostgreSQL, Redis, NATS): the child then dies with
 * EADDRINUSE. So test ports are drawn at random below that range, where only listeners live.
 */
function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(low) || 32768;
  } catch {
    return 32768;
  }
}

const rangeLowest = 20_000;
const rangeHighest = Math.max(rangeLowest + 1000, ephemeralRangeStart()) - 1;

/**
 * Test files run in several worker processes at once (vitest's VITEST_POOL_ID, 1, 2, …): each
 * draws from its own slice of the range, so two workers never pick the same port in the moment
 * between the check and the child's bind (CI once saw maildev meet EADDRINUSE that way).
 */
const SLICES = 8;
function workerSlice(): [number, number] {
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(pool) || pool < 1) return [rangeLowest, rangeHighest];
  const size = Math.floor((rangeHighest - rangeLowest + 1) / SLICES);
  const low = rangeLowest + ((pool - 1) % SLICES) * size;
  return [low, low + size - 1];
}

/** Ports this process handed out lately: not handed again before their owner had time to bind. */
const handedOut = new Map<number, number>();
const HELD_MS = 60_000;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port nothing listens on now, outside the kernel's ephemeral range. */
export async function freePort(): Promise<number> {
  const [lowest, highest] = workerSlice();
  const now = Date.now();
  for (const [port, at] of handedOut) if (now - at > HELD_MS) handedOut.delete(port);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = lowest + Math.floor(Math.random() * (highest - lowest + 1));
    if (handedOut.has(port)) continue;
    handedOut.set(port, now);
    if (await canListen(port)) return port;
  }
  throw new Error(`aucun port libre entre ${lowest} et ${highest}`);
}

/**
 * Starts something on ports it draws with freePort. A port found free can still be taken before
 * the child binds it (by another stack starting at the same moment): on EADDRINUSE it starts
 * again, drawing new ports, up to `attempts` times.
 */
export async function onFreePorts<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= attempts || !String(err).includes('EADDRINUSE')) throw err;
    }
  }
}
