import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/commands/**/*.test.ts',
      // A verb's own tests, beside it (CONTRIBUTING.md, "Adding a verb").
      'src/commands/**/*.test.ts',
      'test/process/**/*.test.ts',
    ],
    // dist/ for the process tests, built once per run (skipped when nothing it is made from has changed);
    // one temporary folder for the run, removed at its end.
    globalSetup: ['test/helpers/build-dist.ts', 'test/helpers/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Separate processes: the process tests' signal handlers, environment and child processes stay apart.
    pool: 'forks',
    // One worker per core on the 2-core machines this runs on (vitest's default leaves one core idle: cores - 1).
    // The in-process files are CPU-bound; the process files mostly wait on their children.
    maxWorkers: 2,
  },
});
