import { buildStaleBundles } from '@cartable/stack/bundles';
import { startTestStack, type TestStack } from '@cartable/stack/test-stack';
import type { TestProject } from 'vitest/node';
import { rateLimitSettings } from '../gateway/src/config.ts';

/**
 * Vitest's global setup of the end-to-end projects: one whole stack per worker, started once and
 * handed to the test files (libs/stack/src/shared-stack.ts), so that a journey pays for its own
 * steps, not for starting seven processes. Files that stop, kill or reconfigure a part of the
 * product start a stack of their own instead (the « e2e-faults » project).
 *
 * The shared stacks carry the demo catalogue, as `npm start` does: journeys that read it (class
 * lists, exchanges, the API's contract walk) find it there. Their per-address limits are opened
 * wide: every file calls from 127.0.0.1, and twenty sign-ups in ten minutes is one file's worth.
 * The limits are proven on a stack of their own (system/walking-skeleton) and by the gateway's tests.
 */
const wideLimits = Object.fromEntries(Object.keys(rateLimitSettings).map((name) => [name, '1000000/60']));

export default async function setup(project: TestProject) {
  const count = Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
  // Every stack of the run, shared or a file's own, then starts its processes from their bundles.
  await buildStaleBundles();
  const stacks: TestStack[] = [];
  try {
    // One after the other: two starting at once on a 2-core machine take as long, and fail worse.
    for (let i = 0; i < count; i++) stacks.push(await startTestStack({ env: { SEED_DEMO: '1', ...wideLimits } }));
  } catch (err) {
    await Promise.all(stacks.map((s) => s.teardown()));
    throw err;
  }
  project.provide(
    'sharedStacks',
    stacks.map((s) => s.addresses),
  );
  return async () => {
    await Promise.all(stacks.map((s) => s.teardown()));
  };
}
