import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/**
 * The API keys that may work, as known to this process: the first 12 bytes of
 * each non-revoked credential's SHA-256 (16 base64url characters), loaded at start
 * and topped up on demand. The rate limiter (src/http/rate-limit.ts) uses it to
 * tell a key that cannot be valid, which a flooded address may be refused for,
 * from one that may be, which always goes on to authentication.
 *
 * - Membership is a hint, never a grant: authentication still looks the key up.
 *   A prefix shared by a bad key (2^-96) only costs that key a lookup.
 * - Top-ups read the keys whose `serial` (insertion order, migration 0071) is
 *   above the highest seen minus OVERLAP, so keys whose insert committed after
 *   a later-numbered one are still found. No clock is involved.
 * - At most one top-up is in flight per process; callers that arrive meanwhile
 *   share the next one, which starts after the current one ends (so it sees
 *   keys committed before they asked) and not sooner than `spacingMs` (1 s by default) after the
 *   previous start: a flood costs at most one small query per second per process.
 * - Revoked keys leave it when authentication sees the revocation (forget); a
 *   revoked key still listed costs a lookup within its own per-credential budget.
 */
export const KEY_PREFIX_CHARS = 16;
const OVERLAP = 100;

const prefixOf = (secretHash: Buffer) => secretHash.subarray(0, 12).toString('base64url');

export class ValidKeys {
  private readonly prefixes = new Set<string>();
  private highest = 0;
  private flight: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private lastStart = 0;
  /** Completed top-ups and loads (tests read it). */
  queries = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly spacingMs: number, // config.rateLimit.keyRefreshMs
  ) {}

  /** Whether the key whose limiter hash (base64url SHA-256) starts with `prefix` may be valid. */
  has(prefix: string): boolean {
    return this.prefixes.has(prefix);
  }

  /** A key that authenticated (created after the last top-up, or missed by it). */
  add(secretHash: Buffer) {
    this.prefixes.add(prefixOf(secretHash));
  }

  /** A key authentication found revoked or expired. */
  forget(secretHash: Buffer) {
    this.prefixes.delete(prefixOf(secretHash));
  }

  /** All non-revoked keys: at start. */
  load(): Promise<void> {
    return (this.flight = this.run(0));
  }

  /** Resolves after a top-up that started after this call (shared with concurrent callers). */
  refresh(): Promise<void> {
    if (this.next) return this.next;
    if (!this.flight && Date.now() - this.lastStart >= this.spacingMs) return (this.flight = this.run(Math.max(0, this.highest - OVERLAP)));
    const previous = this.flight;
    this.next = (async () => {
      if (previous) await previous.catch(() => {});
      const wait = this.lastStart + this.spacingMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.next = null;
      return (this.flight = this.run(Math.max(0, this.highest - OVERLAP)));
    })();
    return this.next;
  }

  private async run(above: number): Promise<void> {
    this.lastStart = Date.now();
    try {
      const { rows } = await this.db.executeQuery<{ secret_hash: Buffer; serial: string }>(
        CompiledQuery.raw('select secret_hash, serial from credentials where serial > $1 and revoked_at is null order by serial', [above]),
      );
      for (const row of rows) {
        this.prefixes.add(prefixOf(row.secret_hash));
        const serial = Number(row.serial);
        if (serial > this.highest) this.highest = serial;
      }
      this.queries++;
    } finally {
      this.flight = null;
    }
  }
}
