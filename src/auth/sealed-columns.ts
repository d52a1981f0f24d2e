import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { openSecret, sealedWithCurrentKey, sealSecret, type SecretKeys } from './secret-box.ts';

/**
 * Every column that holds a value sealed with SHEAF_SECRET_KEY (src/auth/secret-box.ts), by
 * table and key column. One list, read by the start's check that the key opens what is stored
 * (server-secret-key.ts) and by `sheaf admin secret-key rotate`; a new sealed column is added
 * here, or neither sees it.
 */
export const SEALED_COLUMNS = [
  { table: 'user_two_factor', key: 'user_id', column: 'secret', what: 'two-factor secrets' },
  { table: 'single_sign_on_configs', key: 'company_id', column: 'client_secret', what: 'single sign-on client secrets' },
] as const;

/** One stored value of each sealed column (the start's check tries them). */
export async function sampleSealedValues(db: Kysely<DB>): Promise<Array<{ what: string; value: string }>> {
  const samples = [];
  for (const c of SEALED_COLUMNS) {
    const { rows } = await sql<{ value: string }>`select ${sql.ref(c.column)} as value from ${sql.table(c.table)} limit 1`.execute(db);
    if (rows[0]) samples.push({ what: c.what, value: rows[0].value });
  }
  return samples;
}

/**
 * Seals every value not sealed with the current key anew (after SHEAF_SECRET_KEY changed and the
 * old key moved to SHEAF_SECRET_KEY_PREVIOUS). Each row is replaced only if it still holds the
 * value read, so a change made meanwhile is not overwritten (the next run takes it). The service
 * role runs it, so row-level security does not hide any workspace's row.
 */
export async function resealAll(db: Kysely<DB>, keys: SecretKeys): Promise<{ resealed: number; current: number }> {
  let resealed = 0;
  let current = 0;
  for (const c of SEALED_COLUMNS) {
    const { rows } = await sql<{ id: string; value: string }>`select ${sql.ref(c.key)} as id, ${sql.ref(c.column)} as value from ${sql.table(c.table)}`.execute(db);
    for (const row of rows) {
      if (sealedWithCurrentKey(keys, row.value)) {
        current += 1;
        continue;
      }
      const fresh = sealSecret(keys, openSecret(keys, row.value));
      const done = await sql`update ${sql.table(c.table)} set ${sql.ref(c.column)} = ${fresh}
        where ${sql.ref(c.key)} = ${row.id} and ${sql.ref(c.column)} = ${row.value}`.execute(db);
      resealed += Number(done.numAffectedRows ?? 0);
    }
  }
  return { resealed, current };
}
