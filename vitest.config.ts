import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Most test files wait on real servers and processes (Redis, PostgreSQL, an MLLP peer, the command), so two
    // files at a time keep a 2-core machine busy; vitest's default (cores − 1) would run them one by one there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
