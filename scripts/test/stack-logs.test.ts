import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPorts, startStack } from '@cartable/stack/processes';
import { freePort } from '@cartable/stack/test-stack';
import { afterAll, describe, expect, it } from 'vitest';

const logDir = mkdtempSync(join(tmpdir(), 'cartable-stack-logs-'));
afterAll(() => rmSync(logDir, { recursive: true, force: true }));

/** The payment simulator alone (it needs no database), its log written by itself. */
async function simulator(env: Record<string, string> = {}) {
  const port = await freePort();
  return startStack(
    { ports: { ...defaultPorts, 'payment-simulator': port }, env, databaseUrls: {}, logDir, logsDirect: true },
    ['payment-simulator'],
  );
}

describe('a stack whose processes write their logs themselves (logsDirect)', () => {
  it('leaves each log in its file', async () => {
    const stack = await simulator({ LOG_LEVEL: 'info' });
    try {
      await fetch(`${stack.url('payment-simulator')}/no-such-page`);
    } finally {
      await stack.stopAll();
    }
    expect(readFileSync(join(logDir, 'payment-simulator.log'), 'utf8')).toContain('"url":"/no-such-page"');
  });

  it('still says why a process died at start, read from its file', async () => {
    // A key shorter than the simulator's configuration allows: it stops before listening.
    await expect(simulator({ PAYMENT_AGGREGATOR_KEY: 'short' })).rejects.toThrow(/PAYMENT_AGGREGATOR_KEY/);
  });
});
