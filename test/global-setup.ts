import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/db/migrate.ts';
import { PGliteDialect } from '../src/db/pglite-dialect.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded data directory to copy (openTestDatabase), or '' on PostgreSQL. */
    pgliteTemplate: string;
  }
}

/**
 * Runs once per `vitest run`, before any test file. On the embedded database it
 * creates and migrates one data directory; every test database is then a copy
 * of it (openTestDatabase), which opens with a third of the CPU of a new
 * in-memory database (initdb inside WebAssembly, then every migration). The
 * copies live on /dev/shm (memory) where there is one. On PostgreSQL each file
 * migrates its own schema.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return;
  }
  setFlagsFromString('--liftoff-only'); // as in the workers (vitest.config.ts): a one-off database compiles faster
  const base = mkdtempSync(join(memoryDir() ?? tmpdir(), 'sheaf-test-'));
  const template = join(base, 'template');
  mkdirSync(template);
  const db = new Kysely<any>({ dialect: new PGliteDialect(new PGlite(join(template, 'pglite'))) });
  try {
    await migrate(db);
  } finally {
    await db.destroy();
  }
  project.provide('pgliteTemplate', template);
  return () => rmSync(base, { recursive: true, force: true });
}

/** /dev/shm when it has room for the copies (a container's default 64 MB does not), else nothing. */
function memoryDir(): string | undefined {
  if (!existsSync('/dev/shm')) return undefined;
  const { bavail, bsize } = statfsSync('/dev/shm');
  return bavail * bsize > 2 ** 30 ? '/dev/shm' : undefined;
}
