import { defineConfig } from 'vitest/config';

/** One project per workspace (`npx vitest --project auth`), plus manifests and end-to-end journeys. */
const workspace = (name: string, dir: string) => ({
  test: {
    name,
    include: [`${dir}/test/**/*.test.ts`],
    environment: 'node' as const,
    // The files of a worker share their imports (fastify, drizzle, the service's modules): each
    // still has its own module scope, and no file mocks a module.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

/**
 * A frontend's component tests: its screens in jsdom with Testing Library, the API answered by
 * MSW (libs/ui/testing), in French as a member reads them.
 */
const frontend = (name: string, dir: string) => ({
  test: {
    name,
    include: [`${dir}/test/**/*.test.{ts,tsx}`],
    environment: 'jsdom' as const,
    setupFiles: ['libs/ui/testing/setup.ts'],
    // React, the router and the screens are imported once per worker; the setup file still runs
    // for each file (the MSW server listens for it; answers, DOM and session reset after each test).
    isolate: false,
    testTimeout: 20_000,
  },
});

export default defineConfig({
  test: {
    // Two files at a time on our 2-core machines: most of a journey's time is spent waiting on
    // processes and a browser, not computing (VITEST_MAX_WORKERS to change it).
    maxWorkers: 2,
    projects: [
      workspace('contracts', 'libs/contracts'),
      workspace('service-kit', 'libs/service-kit'),
      workspace('ui', 'libs/ui'),
      frontend('shell-screens', 'frontends/shell'),
      frontend('catalog-screens', 'frontends/catalog'),
      frontend('admin-screens', 'frontends/admin'),
      workspace('gateway', 'gateway'),
      workspace('auth', 'services/auth'),
      workspace('catalog', 'services/catalog'),
      workspace('messaging', 'services/messaging'),
      workspace('moderation', 'services/moderation'),
      workspace('notifications', 'services/notifications'),
      workspace('payment-simulator', 'services/payment-simulator'),
      { test: { name: 'scripts', include: ['scripts/test/**/*.test.ts'], environment: 'node', testTimeout: 20_000 } },
      { test: { name: 'deploy', include: ['k8s/test/**/*.test.ts'], environment: 'node' } },
      {
        // Real processes and a real browser. The journeys run on one stack per worker, started
        // once by the global setup; the files that break a part on purpose start their own.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/shared-stacks.ts'],
          // The files of a worker share its imports (the stack library, playwright, pg): each
          // still has its own module scope, and no file mocks a module.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A screen waited for as a person waits for it: seconds, not vitest's default second.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
