import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../../../db/types.ts';

/**
 * Reading a crawl's next page while the client is still receiving this one.
 *
 * A crawl follows `links.next`, and the next link is only known once a page has
 * been read, so without this each page waited for the one before it: the
 * client, the server and PostgreSQL took turns (docs/decisions.md, "Hot paths:
 * the backup read-ahead"). After serving a page that has a next one, the
 * server starts reading that next page, keyed by workspace, resource, page
 * size and cursor; the request for it takes the read when it comes.
 *
 * A page read ahead is served only if it is exactly what a read at the time
 * of the request gives: the read records PostgreSQL's snapshot
 * (`pg_current_snapshot()`) as the first statement of its transaction, and the
 * request compares it with the current one. They are equal only if no
 * transaction has committed, or even been given a transaction id, in between,
 * so every statement of the read saw the same data a fresh read would see.
 * Otherwise the page is read again, and the crawl reads nothing ahead for its
 * next PAUSE_PAGES pages: on a busy server most reads ahead would be wasted.
 *
 * The request is authenticated and its permission checked as every request
 * is, before it takes anything; the key holds the caller's workspace, so a
 * cursor never reaches a page read for another one. Bounded: at most
 * MAX_READING reads at a time per process (each holds a pool connection), at
 * most MAX_ENTRIES kept, each for MAX_AGE_MS. Only on PostgreSQL: the embedded
 * database has one connection, where a read ahead would queue in front of
 * other requests.
 */

export interface ReadResult<Page> {
  page: Page;
  /** `pg_current_snapshot()` at the start of the read's transaction. */
  snapshot: string;
}

type Entry<Page> = { at: number } & ({ read: Promise<ReadResult<Page> | null> } | { pause: number });

export const MAX_READING = 4;
export const MAX_ENTRIES = 32;
export const MAX_AGE_MS = 10_000;
export const PAUSE_PAGES = 8;

const CURRENT_SNAPSHOT = CompiledQuery.raw('select pg_current_snapshot()::text as snapshot');

export class ReadAhead<Page> {
  private readonly entries = new Map<string, Entry<Page>>();
  private readonly reading = new Set<Promise<unknown>>();
  /** Pages served from a read ahead, and reads ahead found out of date (for tests and the decisions' figures). */
  hits = 0;
  stale = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: () => number = Date.now,
  ) {}

  static key(companyId: string, resource: string, perPage: number, after: string): string {
    return `${companyId}\u0000${resource}\u0000${perPage}\u0000${after}`;
  }

  /**
   * The page read ahead under `key` if a read now would give the same, else null; and for how many
   * more pages the crawl reads nothing ahead.
   */
  async take(key: string): Promise<{ result: ReadResult<Page> | null; pause: number }> {
    const entry = this.entries.get(key);
    if (!entry) return { result: null, pause: 0 };
    this.entries.delete(key);
    if (this.now() - entry.at > MAX_AGE_MS) return { result: null, pause: 0 };
    if ('pause' in entry) return { result: null, pause: entry.pause };
    const result = await entry.read;
    if (!result) return { result: null, pause: 0 };
    const { rows } = await this.db.executeQuery<{ snapshot: string }>(CURRENT_SNAPSHOT);
    if (rows[0].snapshot !== result.snapshot) {
      this.stale++;
      return { result: null, pause: PAUSE_PAGES };
    }
    this.hits++;
    return { result, pause: 0 };
  }

  /** Reads the page under `key` now (unless the crawl is paused, or enough reads are under way). */
  offer(key: string, pause: number, read: () => Promise<ReadResult<Page>>) {
    if (pause > 0) return this.keep(key, { at: this.now(), pause: pause - 1 });
    if (this.reading.size >= MAX_READING) return;
    const pending = read().catch(() => null); // the request reads it again, and meets the error itself if it persists
    this.reading.add(pending);
    void pending.finally(() => this.reading.delete(pending));
    this.keep(key, { at: this.now(), read: pending });
  }

  /** Resolves when the reads under way have ended (tests). */
  async settled(): Promise<void> {
    await Promise.all(this.reading);
  }

  private keep(key: string, entry: Entry<Page>) {
    this.entries.delete(key);
    while (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }
}
