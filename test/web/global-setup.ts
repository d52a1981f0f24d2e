import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { prepareWebApp, WEB_ROOT } from '../../src/cli/web-build.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';

/**
 * Once per `playwright test`, before the workers start: makes web/dist current (one
 * build, not one per worker) and migrates one embedded data directory that each
 * worker copies (initdb in WebAssembly and the migrations cost ~20 s of CPU: paid once).
 * Workers find both through the environment, which they inherit.
 */
export default async function globalSetup() {
  const dist = await prepareWebApp({ info: (m) => console.log(m), warn: (m) => console.warn(m) }, WEB_ROOT);
  if (!dist) throw new Error('web/dist could not be built: run "npm run build:web" to see why.');
  process.env.SHEAF_WEB_DIST = dist;

  setFlagsFromString('--liftoff-only'); // a one-off database: the baseline WebAssembly compiler is enough
  const base = mkdtempSync(join(tmpdir(), 'sheaf-web-template-'));
  const template = join(base, 'data');
  mkdirSync(template);
  const database = await openDatabase({ dataDir: template });
  try {
    await migrate(database.db);
  } finally {
    await database.close();
  }
  process.env.SHEAF_WEB_DB_TEMPLATE = template;
  return () => rmSync(base, { recursive: true, force: true });
}

/** A worker's own data directory: a copy of the migrated template. */
export function copyTemplate(): string {
  const template = process.env.SHEAF_WEB_DB_TEMPLATE;
  if (!template) throw new Error('test/web/global-setup.ts did not run (use playwright.config.ts).');
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-web-test-'));
  cpSync(template, dir, { recursive: true });
  return dir;
}
