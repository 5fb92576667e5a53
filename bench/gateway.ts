/**
 * Gateway benchmark: what the gateway adds in front of a service, and how fast it says 503 when
 * the owner is down. Starts its own isolated stack (like the system tests), prints the figures.
 *   npm run bench -- gateway        (DURATION=10 CONNECTIONS=50 by default)
 */

import { startTestStack } from '@cartable/stack/test-stack';
import autocannon from 'autocannon';
import { printLine } from './support/line.ts';
import { benchEnv } from './support/stack-env.ts';

const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 50);

const load = async (title: string, url: string) => printLine(title, await autocannon({ url, connections, duration }));

const stack = await startTestStack({ env: benchEnv });
try {
  console.log(`# ${connections} connections, ${duration} s each, on ${process.platform} with Node ${process.version}`);
  const path = '/locations/cities?country_id=266';
  await load('GET /api/locations/cities through the gateway', `${stack.api}${path}`);
  await load('GET /locations/cities straight to catalog', `${stack.url('catalog')}${path}`);

  await stack.stop('catalog');
  const timings: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    const res = await fetch(`${stack.api}/books`);
    await res.arrayBuffer();
    if (res.status !== 503) throw new Error(`expected 503, got ${res.status}`);
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      title: '503 while catalog is down (50 sequential requests)',
      'p50 ms': Number(timings[25]?.toFixed(2)),
      'max ms': Number(timings.at(-1)?.toFixed(2)),
    }),
  );
} finally {
  await stack.teardown();
}
