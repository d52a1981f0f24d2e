import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (they start processes, servers or a browser), longest first, as a
 * clean clone's CI run of 2026-12-06 timed them (Node.js 20, PGlite): cli-client 37 s, cli 31 s,
 * bench-harness 18 s, invoice-messages 15 s, e-invoices 12 s. Vitest runs the files it has timed
 * before longest first, but a fresh clone (CI's `npm ci`) has no timings, and by file size the
 * small bench-harness came near the end, where one worker ran it alone for its 18 s.
 */
const LONGEST = ['test/cli-client.test.ts', 'test/cli.test.ts', 'test/unit/bench-harness.test.ts', 'test/invoice-messages.test.ts', 'test/e-invoices.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((name) => f.moduleId.replaceAll('\\', '/').endsWith(name));
      return i < 0 ? LONGEST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: LongestFirst },
    // Password hashing at 2^10 instead of 2^17 (src/auth/passwords.ts): sign-ins were most of the suite's time.
    env: { PASSWORD_SCRYPT_LOG2N: '10' },
  },
});
