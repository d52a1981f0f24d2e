import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readlinkSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * PGlite has no lock on its data directory: two processes on one `./data` would corrupt it.
 * The first process writes `sheaf.lock` (its pid, where that pid means something, and a token of
 * its own) and touches the file every HEARTBEAT_MS while it runs. A second process refuses to
 * start while the holder lives, and takes over a lock whose holder is gone:
 *
 * - a holder in this process's PID namespace (the same host, not another container) is alive
 *   while its pid is, so a lock left by a crash is taken over at once;
 * - a holder elsewhere (another container sharing the volume, where the server and a
 *   `docker run --volumes-from` command are both pid 1, or another machine) cannot be asked by
 *   pid: it is alive while its heartbeat is, so the second process watches the file for up to
 *   STALE_MS and refuses as soon as it is touched, or takes it over when it never is.
 *
 * Releasing removes the lock only while it is still this process's (its token).
 */
const HEARTBEAT_MS = 2_000;
const STALE_MS = 10_000;

interface Holder {
  pid: number;
  /** Where `pid` is meaningful: this host and PID namespace (see here()). */
  where: string;
  token: string;
}

/** This process's host and PID namespace ("pid:[4026531836]" on Linux): a pid is comparable only within one. */
function here(): string {
  let namespace = '';
  try {
    namespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux: the host alone.
  }
  return `${hostname()} ${namespace}`;
}

function readHolder(path: string): Holder | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const holder = JSON.parse(text) as Holder;
    if (typeof holder.pid === 'number' && typeof holder.where === 'string' && typeof holder.token === 'string') return holder;
  } catch {
    // An older Sheaf's lock holds its pid alone.
  }
  const pid = Number(text);
  return Number.isInteger(pid) && pid > 0 ? { pid, where: here(), token: '' } : { pid: 0, where: '', token: '' };
}

const touchedAt = (path: string): number | null => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * Whether a holder in another PID namespace is alive: the file is touched within STALE_MS of
 * when this process started watching, or was touched less than STALE_MS ago and is again.
 */
async function heartbeatSeen(path: string): Promise<boolean> {
  const first = touchedAt(path);
  if (first === null) return false;
  const deadline = Date.now() + STALE_MS;
  while (Date.now() < deadline) {
    if (Date.now() - first > STALE_MS + HEARTBEAT_MS) return false; // long untouched: gone
    await sleep(HEARTBEAT_MS / 4);
    const now = touchedAt(path);
    if (now === null) return false;
    if (now !== first) return true;
  }
  return false;
}

export async function lockDataDir(dir: string): Promise<() => void> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'sheaf.lock');
  const mine: Holder = { pid: process.pid, where: here(), token: randomUUID() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      const heartbeat = setInterval(() => {
        const now = new Date();
        try {
          if (readHolder(path)?.token === mine.token) utimesSync(path, now, now);
        } catch {
          // The next beat tries again.
        }
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return () => {
        clearInterval(heartbeat);
        if (readHolder(path)?.token === mine.token) rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(path);
      if (holder && holder.pid) {
        const alive = holder.where === mine.where ? holder.pid !== process.pid && isAlive(holder.pid) : await heartbeatSeen(path);
        if (alive) {
          const elsewhere = holder.where === mine.where ? '' : ' in another container or on another host';
          throw new Error(
            `the embedded database in ${dir} is in use by process ${holder.pid}${elsewhere}; stop it first, or use PostgreSQL (DATABASE_URL) to run several processes`,
            { cause: err },
          );
        }
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
