import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPorts, restartBudget, type Stack, startStack } from '@cartable/stack/processes';
import { eventually, freePort } from '@cartable/stack/test-stack';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The launcher (`npm start`) restarts a process that dies, as Kubernetes restarts a container,
 * within a budget: past it the process stays down and the launcher says so in French. On a real
 * process, the payment simulator (no database, quick to start).
 */
let stack: Stack | undefined;
const logDir = mkdtempSync(join(tmpdir(), 'cartable-restarts-'));
afterAll(async () => {
  await stack?.stopAll();
  rmSync(logDir, { recursive: true, force: true });
});

describe('the launcher', () => {
  it('counts restarts within a sliding window', () => {
    let now = 0;
    const budget = restartBudget({ max: 2, windowMs: 60_000 }, () => now);
    expect(budget.record()).toEqual({ allowed: true, count: 1 });
    now = 10_000;
    expect(budget.record()).toEqual({ allowed: true, count: 2 });
    now = 20_000;
    expect(budget.record().allowed).toBe(false);
    // A minute after the first exit, it has left the window.
    now = 70_001;
    expect(budget.record()).toEqual({ allowed: true, count: 2 });
  });

  it('starts a process that died again, then gives up past the limit with a French message', async () => {
    const port = await freePort();
    const said: string[] = [];
    stack = await startStack(
      {
        ports: { ...defaultPorts, 'payment-simulator': port },
        env: { LOG_LEVEL: 'warn' },
        databaseUrls: {},
        logDir,
        logsDirect: true,
        restart: { max: 2, windowMs: 60_000 },
        onRestart: (_name, message) => said.push(message),
      },
      ['payment-simulator'],
    );
    const ready = async () => (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => null))?.ok === true;
    for (const round of [1, 2]) {
      const pid = stack.pid('payment-simulator');
      process.kill(pid!, 'SIGKILL');
      await eventually(async () => {
        const now = stack?.pid('payment-simulator');
        return now && now !== pid && (await ready()) ? true : undefined;
      }, 60_000);
      expect(said.at(-1)).toBe(`payment-simulator s'est arrêté (signal SIGKILL) : redémarrage ${round}/2 en 60 s.`);
    }
    process.kill(stack.pid('payment-simulator')!, 'SIGKILL');
    await eventually(async () => (said.length === 3 ? true : undefined), 30_000);
    expect(said[2]).toMatch(
      /^payment-simulator s'est arrêté \(signal SIGKILL\) 3 fois en 60 s : il n'est plus redémarré\./,
    );
    expect(stack.pid('payment-simulator')).toBeUndefined();
    expect(await ready()).toBe(false);
  }, 120_000);
});
