import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/process/**/*.test.ts'],
    // dist/ for the process tests, built once per run (skipped when nothing it is made from has changed).
    globalSetup: ['test/helpers/build-dist.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
