import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from '../../src/db/lockfile.ts';

/**
 * The embedded database's lock (src/db/lockfile.ts): one process per data directory, also when
 * the other one is in another container sharing the volume, where both are pid 1 and a pid says
 * nothing (the review of 2026-12-07: `docker run --volumes-from` took the live server's lock as
 * its own stale one, wrote to its database and corrupted it).
 */
const dirs: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sheaf-lock-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A lock as a process in another PID namespace (another container) writes it: pid 1, like ours could be. */
const foreignLock = (d: string, pid = process.pid) =>
  writeFileSync(join(d, 'sheaf.lock'), JSON.stringify({ pid, where: 'other-container pid:[1]', token: 'theirs' }));

describe('the data directory lock', () => {
  it('refuses a second holder in this namespace while the first lives, and is free once released', async () => {
    const d = dir();
    const release = await lockDataDir(d);
    const lock = JSON.parse(readFileSync(join(d, 'sheaf.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: process.pid, token: expect.any(String) });
    // As another live process of this host would hold it (this test's parent).
    writeFileSync(join(d, 'sheaf.lock'), JSON.stringify({ ...lock, pid: process.ppid, token: 'parent' }));
    await expect(lockDataDir(d)).rejects.toThrow(`in use by process ${process.ppid}; stop it first`);
    writeFileSync(join(d, 'sheaf.lock'), JSON.stringify(lock));
    release();
    expect(existsSync(join(d, 'sheaf.lock'))).toBe(false);
    (await lockDataDir(d))();
  });

  it('takes over at once a lock whose process in this namespace is gone (a crash), and an older Sheaf’s plain pid', async () => {
    const d = dir();
    writeFileSync(join(d, 'sheaf.lock'), '2147483646');
    const release = await lockDataDir(d);
    expect(JSON.parse(readFileSync(join(d, 'sheaf.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    release();
  });

  it('refuses a holder in another container while its heartbeat goes on, even with the same pid', async () => {
    const d = dir();
    foreignLock(d);
    const beat = setInterval(() => {
      const now = new Date();
      utimesSync(join(d, 'sheaf.lock'), now, now);
    }, 500);
    try {
      await expect(lockDataDir(d)).rejects.toThrow(/in use by process \d+ in another container or on another host/);
    } finally {
      clearInterval(beat);
    }
    // Its lock is left as it was.
    expect(JSON.parse(readFileSync(join(d, 'sheaf.lock'), 'utf8'))).toMatchObject({ token: 'theirs' });
  });

  it('takes over a lock from another container whose heartbeat stopped long ago', async () => {
    const d = dir();
    foreignLock(d);
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(d, 'sheaf.lock'), old, old);
    const release = await lockDataDir(d);
    release();
  });

  it('removes on release only its own lock, never one that another process holds now', async () => {
    const d = dir();
    const release = await lockDataDir(d);
    foreignLock(d, 1); // as if another process had taken the directory over
    release();
    expect(JSON.parse(readFileSync(join(d, 'sheaf.lock'), 'utf8'))).toMatchObject({ token: 'theirs' });
  });
});
