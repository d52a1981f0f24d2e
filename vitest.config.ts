import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/web/*.spec.ts are the browser tests (Playwright, `npm run test:web`), not vitest's.
    include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file gets its own database (a copy of a migrated PGlite data directory, or its own PostgreSQL schema).
    fileParallelism: true,
    maxWorkers: 2,
    execArgv: ['--liftoff-only'],
    isolate: false,
    // Password hashing at 2^10 instead of 2^17 (src/auth/passwords.ts): sign-ins were most of the suite's time.
    env: { PASSWORD_SCRYPT_LOG2N: '10' },
  },
});
