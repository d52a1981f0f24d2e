import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './helpers.ts';

/**
 * Every index is written by every insert into its table (and by each update that is not HOT), so
 * one that another index makes useless is pure cost: time_entries carried two such, paid on every
 * create (migration 0102, docs/decisions.md "Hot paths: redundant indexes dropped").
 *
 * An index is redundant here when it is a plain btree (not unique, not partial, no expressions)
 * whose key columns lead another plain btree's keys in the same order and directions, and whose
 * included columns that one has too: any scan it serves, the other serves in the same order.
 * Unique and partial indexes are left out, as they state a rule or hold other rows.
 */

let db: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db.close());

describe('the schema’s indexes', () => {
  it('has no plain btree index that another one covers', async () => {
    const { rows } = await sql<{ redundant: string; covered_by: string }>`
      with plain as (
        select i.indexrelid, i.indrelid, i.indnkeyatts as nkeys, i.indkey::int2[] as cols, i.indoption::int2[] as opts
        from pg_index i
        join pg_class x on x.oid = i.indexrelid
        join pg_namespace n on n.oid = x.relnamespace
        join pg_am am on am.oid = x.relam
        where n.nspname = current_schema() and am.amname = 'btree'
          and not i.indisunique and i.indpred is null and i.indexprs is null
      )
      select a.indexrelid::regclass::text as redundant, b.indexrelid::regclass::text as covered_by
      from plain a
      join plain b on b.indrelid = a.indrelid and b.indexrelid <> a.indexrelid and b.nkeys >= a.nkeys
      where a.cols[0:a.nkeys - 1] = b.cols[0:a.nkeys - 1]
        and a.opts[0:a.nkeys - 1] = b.opts[0:a.nkeys - 1]
        and a.cols <@ b.cols
        -- Two of exactly the same columns: name the later one only.
        and (a.cols <> b.cols or a.nkeys <> b.nkeys or a.indexrelid > b.indexrelid)
      order by 1, 2`.execute(db.db);
    expect(rows).toEqual([]);
  });
});
