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

const lowest = 20_000;
const highest = Math.max(lowest + 1000, ephemeralRangeStart()) - 1;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port nothing listens on now, outside the kernel's ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = lowest + Math.floor(Math.random() * (highest - lowest + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`aucun port libre entre ${lowest} et ${highest}`);
}
