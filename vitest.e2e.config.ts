import { defineConfig } from 'vitest/config';

// End-to-end: real WordPress instances (test/e2e/setup.ts brings them up and down), the sandbox in-process,
// and later the built CLI. Files run one after another: they share the two WordPress instances.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/setup.ts', 'test/helpers/temp-root.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
