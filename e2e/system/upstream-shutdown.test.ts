import { messages } from '@cartable/contracts';
import { startTestStack, type TestStack } from '@cartable/stack/test-stack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A service stopping under load, behind the real gateway: catalog gets SIGTERM while twenty
 * clients read the catalogue without pause, stays down a moment, and starts again. Every request
 * is counted: each gets a response, catalog's own or the gateway's French 503 JSON, never a
 * dropped connection nor Fastify's English « Service Unavailable ».
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ only: ['auth', 'catalog', 'gateway'] });
});
afterAll(async () => {
  await stack?.teardown();
});

interface Outcome {
  phase: 'before' | 'stopping' | 'down' | 'starting' | 'restarted';
  status: number;
  contentType: string;
  body: string;
}

describe('a service stopping under load', () => {
  it('answers every request: catalog’s response or the French 503, through SIGTERM, downtime and restart', async () => {
    let phase: Outcome['phase'] = 'before';
    let running = true;
    const outcomes: Outcome[] = [];
    const failures: string[] = [];
    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const at = phase;
        try {
          // A different page each time, so that catalog's own page cache does not answer them all.
          const res = await fetch(`${stack.api}/books?page=${(i % 5) + 1}&min_price=${n * 100 + (i % 50)}`);
          outcomes.push({
            phase: at,
            status: res.status,
            contentType: res.headers.get('content-type') ?? '',
            body: await res.text(),
          });
        } catch (err) {
          failures.push(`${at}: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}`);
        }
      }
    };
    const clients = Array.from({ length: 20 }, (_, n) => client(n));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    await pause(1500);
    phase = 'stopping';
    await stack.stop('catalog');
    phase = 'down';
    await pause(1000);
    phase = 'starting';
    await stack.start('catalog');
    phase = 'restarted';
    await pause(1500);
    running = false;
    await Promise.all(clients);

    const count = (p: Outcome['phase'], status: number) =>
      outcomes.filter((o) => o.phase === p && o.status === status).length;
    console.log(
      `${outcomes.length} responses, ${failures.length} failed requests; ` +
        ['before', 'stopping', 'down', 'starting', 'restarted']
          .map((p) => `${p}: ${count(p as Outcome['phase'], 200)} × 200, ${count(p as Outcome['phase'], 503)} × 503`)
          .join('; '),
    );
    expect(failures).toEqual([]);
    // Nothing but catalog's pages and the French 503.
    expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set([200, 503]));
    for (const outcome of outcomes.filter((o) => o.status !== 200)) {
      expect(outcome.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(outcome.body)).toEqual({ message: messages.serviceUnavailable });
    }
    expect(outcomes.some((o) => /Service Unavailable/i.test(o.body))).toBe(false);
    // Served before, refused while down, served again after the restart.
    expect(count('before', 200)).toBeGreaterThan(20);
    expect(count('down', 503)).toBeGreaterThan(0);
    expect(count('down', 200)).toBe(0);
    expect(count('restarted', 200)).toBeGreaterThan(0);
  }, 120_000);
});
