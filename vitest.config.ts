import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file gets its own database (a copy of a migrated PGlite data directory, or its own PostgreSQL schema).
    fileParallelism: true,
    maxWorkers: 2,
    execArgv: ['--liftoff-only'],
    isolate: false,
  },
});
