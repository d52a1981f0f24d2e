import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.ts';
import { MAX_AGE_MS, MAX_ENTRIES, MAX_READING, PAUSE_PAGES, ReadAhead, type ReadResult } from '../../src/modules/workspace/backup/read-ahead.ts';

/**
 * The backup read-ahead's bookkeeping, with a stand-in database that answers
 * the current snapshot: what is served, what is read again, and its bounds.
 * (test/backup-read-ahead.test.ts crawls a real PostgreSQL.)
 */

function setup() {
  const db = { snapshot: 'S1', executeQuery: async () => ({ rows: [{ snapshot: db.snapshot }] }) };
  let now = 1_000;
  const ahead = new ReadAhead<string>(db as unknown as Kysely<DB>, () => now);
  const read = (page: string, snapshot = 'S1') => () => Promise.resolve<ReadResult<string>>({ page, snapshot });
  return { db, ahead, read, later: (ms: number) => void (now += ms) };
}

describe('the backup read-ahead', () => {
  it('serves a page read under the current snapshot once, and nothing for a key it does not hold', async () => {
    const { ahead, read } = setup();
    ahead.offer('k2', 0, read('page 2'));
    expect(await ahead.take('k3')).toEqual({ result: null, pause: 0 });
    expect(await ahead.take('k2')).toEqual({ result: { page: 'page 2', snapshot: 'S1' }, pause: 0 });
    expect(await ahead.take('k2')).toEqual({ result: null, pause: 0 });
    expect([ahead.hits, ahead.stale]).toEqual([1, 0]);
  });

  it('reads again a page whose snapshot is no longer current, and pauses the crawl for PAUSE_PAGES pages', async () => {
    const { db, ahead, read } = setup();
    ahead.offer('k2', 0, read('page 2'));
    db.snapshot = 'S2'; // something committed since
    const stale = await ahead.take('k2');
    expect(stale).toEqual({ result: null, pause: PAUSE_PAGES });
    expect(ahead.stale).toBe(1);
    // The crawl offers its next pages with the pause it was given: nothing is read until it runs out.
    let pause = stale.pause;
    let reads = 0;
    for (let page = 3; pause > 0; page++) {
      ahead.offer(`k${page}`, pause, () => (reads++, read(`page ${page}`, 'S2')()));
      pause = (await ahead.take(`k${page}`)).pause;
    }
    expect(reads).toBe(0);
    ahead.offer('k-after', pause, () => (reads++, read('page after', 'S2')()));
    expect((await ahead.take('k-after')).result?.page).toBe('page after');
    expect(reads).toBe(1);
  });

  it('drops reads older than MAX_AGE_MS and reads that failed', async () => {
    const { ahead, read, later } = setup();
    ahead.offer('old', 0, read('old page'));
    later(MAX_AGE_MS + 1);
    expect((await ahead.take('old')).result).toBeNull();
    ahead.offer('failed', 0, () => Promise.reject(new Error('statement timeout')));
    expect(await ahead.take('failed')).toEqual({ result: null, pause: 0 });
    expect(ahead.hits).toBe(0);
  });

  it('keeps at most MAX_ENTRIES, the oldest leaving first, and reads at most MAX_READING at a time', async () => {
    const { ahead, read } = setup();
    for (let i = 0; i <= MAX_ENTRIES; i++) {
      ahead.offer(`k${i}`, 0, read(`page ${i}`));
      await ahead.settled(); // each read ends before the next starts
    }
    expect((await ahead.take('k0')).result).toBeNull();
    expect((await ahead.take(`k${MAX_ENTRIES}`)).result?.page).toBe(`page ${MAX_ENTRIES}`);

    const gates: Array<() => void> = [];
    let started = 0;
    const slow = (page: string) => () => {
      started++;
      return new Promise<ReadResult<string>>((resolve) => gates.push(() => resolve({ page, snapshot: 'S1' })));
    };
    for (let i = 0; i < MAX_READING + 2; i++) ahead.offer(`s${i}`, 0, slow(`slow ${i}`));
    expect(started).toBe(MAX_READING);
    for (const open of gates) open();
    expect((await ahead.take('s0')).result?.page).toBe('slow 0');
    expect((await ahead.take(`s${MAX_READING}`)).result).toBeNull();
    ahead.offer('s-next', 0, slow('slow next'));
    expect(started).toBe(MAX_READING + 1);
  });
});
