import { defineConfig } from 'vitest/config';

/** `npm test -w @cartable/ui`: the web kit's unit tests (each file picks its environment). */
export default defineConfig({
  test: {
    name: 'ui',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
