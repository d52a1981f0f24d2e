import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite has no lock on its data directory: two processes on one `./data` would
 * corrupt it. The first process writes its pid into `sheaf.lock`; a second one
 * refuses to start while that pid is alive, and takes over a stale lock.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'sheaf.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(path, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `the embedded database in ${dir} is in use by process ${pid}; stop it first, or use PostgreSQL (DATABASE_URL) to run several processes`,
          { cause: err },
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
