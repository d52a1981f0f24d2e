/**
 * What the web app's benchmarks share (web-home, web-week, web-planner): the production
 * build of web/dist (rebuilt first when missing or older than its sources, unless a build
 * made elsewhere is named), a database of their own (a fresh PGlite directory, or with
 * DATABASE_URL a throw-away schema of that PostgreSQL), the app serving both in this process,
 * and Chromium (/usr/bin/chromium, or CHROMIUM) driven by Playwright. `cleanUp` closes the
 * browser and the app, then drops the schema or removes the directory, once: at the end, or on
 * Ctrl-C or SIGTERM (exit code 130; bench/harness.ts wayOut).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type LaunchOptions } from '@playwright/test';
import { buildApp } from '../src/app.ts';
import { prepareWebApp, WEB_ROOT } from '../src/cli/web-build.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { benchSchema, dropSchemaOrSay, median, wayOut } from './harness.ts';

export async function openWebBench(name: string, options: { dist?: string; log: (line: string) => void }) {
  const dist = options.dist ?? (await prepareWebApp({ info: options.log, warn: options.log }, WEB_ROOT));
  if (!dist) throw new Error('web/dist could not be built: run "npm run build:web" to see why.');
  const databaseUrl = process.env.DATABASE_URL;
  const { schema } = benchSchema();
  const dataDir = databaseUrl ? null : mkdtempSync(join(tmpdir(), `sheaf-bench-${name}-`));
  const database = await openDatabase(databaseUrl ? { databaseUrl, schema } : { dataDir });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let browser: Browser | undefined;
  const exit = wayOut('closing the browser and the app, and removing the database', async (interrupted) => {
    await browser?.close().catch(() => {});
    await app?.close().catch(() => {});
    // After Ctrl-C a connection may still be checked out (a seed cut short), which closing would wait for.
    if (!interrupted) await database.close().catch(() => {});
    if (databaseUrl) await dropSchemaOrSay(databaseUrl, schema);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    database,
    db: database.db,
    cleanUp: exit.cleanup,
    /** Serves the API and the web build on a free port of 127.0.0.1; its base URL. */
    async serve(): Promise<string> {
      const config = loadConfig({ LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000000' }, { port: 0, host: '127.0.0.1', dataDir, webDist: dist, webBuild: false });
      app = await buildApp({ config, db: database.db });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    },
    async launchBrowser(launch: { headed: boolean; args?: LaunchOptions['args'] }): Promise<Browser> {
      browser = await chromium.launch({
        executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
        headless: !launch.headed,
        args: launch.args,
        // The way out above closes the browser on Ctrl-C and SIGTERM. Playwright's own Ctrl-C
        // handler would close it too and then exit, before the schema or directory was removed.
        handleSIGINT: false,
        handleSIGTERM: false,
      });
      return browser;
    },
  };
}

/** Median, p95 (nearest rank), min and max of the samples. */
export const stats = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { n: s.length, median: median(s), p95: at(0.95), min: s[0], max: s[s.length - 1] };
};

/** Milliseconds to one decimal, as the results files keep them. */
export const round = (x: number) => Math.round(x * 10) / 10;
