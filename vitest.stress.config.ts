import { defineConfig } from 'vitest/config';

// Throughput and stress (`npm run test:stress`, which `.ci/run` runs): the sandbox under 10,000 requests and a
// SIGKILL mid-stream, the CLI against an endless list at its default limits. Kept out of `npm test` because
// they load the machine for minutes; they assert no speed, only what must hold under load, and every deadline
// in them bounds a hang far above any load.
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    globalSetup: ['test/helpers/build-dist.ts', 'test/helpers/temp-root.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One file at a time: each is meant to have the machine to itself.
    fileParallelism: false,
  },
});
