import { defineConfig } from 'vitest/config';

/** One project per workspace (`npx vitest --project auth`), plus manifests and end-to-end journeys. */
const workspace = (name: string, dir: string) => ({
  test: {
    name,
    include: [`${dir}/test/**/*.test.ts`],
    environment: 'node' as const,
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
    testTimeout: 20_000,
  },
});

export default defineConfig({
  test: {
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
      { test: { name: 'scripts', include: ['scripts/test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'deploy', include: ['k8s/test/**/*.test.ts'], environment: 'node' } },
      {
        // Real processes and a real browser: one file at a time, each with its own stack.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
