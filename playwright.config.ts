import { defineConfig } from '@playwright/test';

/**
 * Browser tests (test/web, `npm run test:web`): Debian's Chromium (Playwright downloads
 * none), the production build served by an in-process Sheaf with its real headers
 * (test/web/fixtures.ts), two workers for the two cores.
 */
// The in-process server's password hashing at 2^10 instead of 2^17 (src/auth/passwords.ts), as in vitest.config.ts.
process.env.PASSWORD_SCRYPT_LOG2N ??= '10';

export default defineConfig({
  testDir: 'test/web',
  testMatch: '*.spec.ts',
  globalSetup: './test/web/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? 'line' : 'list',
  // Generous: two workers share two cores with the server they test, axe and the screenshots.
  // The long walks (a day in German, an expense recorded, edited, filtered and deleted) run a
  // dozen axe passes; on a machine three times slower than usual (2026-11-27) they passed 60 s.
  // These are bounds against a hang, not measurements: speed is measured by the benchmarks.
  timeout: 150_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
