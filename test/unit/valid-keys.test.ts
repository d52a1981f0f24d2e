import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ValidKeys } from '../../src/auth/valid-keys.ts';
import type { DB } from '../../src/db/types.ts';

/**
 * The valid-key list's top-ups (src/auth/valid-keys.ts) on a stand-in database that answers the
 * one query it sends: a flood of bad keys must cost at most one top-up per spacing, and every
 * caller must wait for a top-up that started after it asked. test/rate-limit.test.ts runs the list
 * inside the API with a short spacing; this holds the spacing itself.
 */

const hashOf = (key: string) => createHash('sha256').update(key).digest();
const prefixOf = (key: string) => hashOf(key).subarray(0, 12).toString('base64url');

function standIn(rows: Array<{ secret_hash: Buffer; serial: string }>) {
  const starts: number[] = [];
  const db = {
    executeQuery: async () => {
      starts.push(Date.now());
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { rows: [...rows] };
    },
  } as unknown as Kysely<DB>;
  return { db, starts };
}

describe('ValidKeys', () => {
  it('lists the keys at load and a key added later after a refresh', async () => {
    const rows = [{ secret_hash: hashOf('first'), serial: '1' }];
    const { db } = standIn(rows);
    const keys = new ValidKeys(db, 50);
    await keys.load();
    expect(keys.has(prefixOf('first'))).toBe(true);
    expect(keys.has(prefixOf('second'))).toBe(false);
    rows.push({ secret_hash: hashOf('second'), serial: '2' });
    await keys.refresh();
    expect(keys.has(prefixOf('second'))).toBe(true);
    keys.forget(hashOf('second'));
    expect(keys.has(prefixOf('second'))).toBe(false);
  });

  it('starts top-ups at least the spacing apart, and callers that arrive meanwhile share one', async () => {
    const spacing = 200;
    const { db, starts } = standIn([]);
    const keys = new ValidKeys(db, spacing);
    await keys.load();
    // A flood: 50 callers at once, then 50 more while that top-up waits its turn.
    await Promise.all(Array.from({ length: 50 }, () => keys.refresh()));
    await Promise.all(Array.from({ length: 50 }, () => keys.refresh()));
    expect(keys.queries).toBe(3); // the load and two top-ups, not 100
    expect(starts).toHaveLength(3);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(spacing - 1);
  });
});
