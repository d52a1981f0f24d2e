import { sql, type Insertable, type Kysely, type UpdateObject } from 'kysely';
import { conflict } from '../errors.ts';
import type { Tx } from './tenant.ts';
import type { DB } from './types.ts';

/**
 * Writes and checks every workspace table with an `id` does the same way, whatever the table:
 * the row is the workspace's (company_id), and a write stamps its timestamps.
 */

/** The tables whose rows are a workspace's, named by an id, with creation and change times. */
type WorkspaceTable = {
  [T in keyof DB]: DB[T] extends { company_id: unknown; id: unknown; created_at: unknown; updated_at: unknown } ? T : never;
}[keyof DB];

/** The workspace tables whose rows have a name, unique in the workspace ignoring case. */
type NamedTable = { [T in WorkspaceTable]: DB[T] extends { name: unknown } ? T : never }[WorkspaceTable];

/** The table as Kysely sees one of many: the callers' types are checked against the table they name. */
const untyped = (trx: Tx) => trx as unknown as Kysely<any>;

/** Inserts the workspace's row `id` of `table`, created and changed `now`. */
export async function insertRow<T extends WorkspaceTable>(
  trx: Tx,
  table: T,
  companyId: string,
  id: string,
  values: Omit<Insertable<DB[T]>, 'company_id' | 'id' | 'created_at' | 'updated_at'>,
  now: Date,
) {
  await untyped(trx)
    .insertInto(table as string)
    .values({ company_id: companyId, id, ...values, created_at: now, updated_at: now })
    .execute();
}

/** Sets `changes` (values, or SQL computed in the write) on the workspace's row `id` of `table`, changed `now`. */
export async function updateRow<T extends WorkspaceTable>(trx: Tx, table: T, companyId: string, id: string, changes: UpdateObject<DB, T>, now: Date) {
  await untyped(trx)
    .updateTable(table as string)
    .set({ ...changes, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/**
 * The `keys` columns of a loaded row, as a new object: a record's writable state as its rules
 * see it (the result lacks none of them, so a state type that names a column the list forgets fails to compile).
 */
export function columnsOf<R extends object, K extends keyof R>(row: R, keys: readonly K[]): Pick<R, K> {
  const out = {} as Pick<R, K>;
  for (const key of keys) out[key] = row[key];
  return out;
}

/** How two values of one column compare, for the columns that are not compared by identity. */
export type SameRules<S> = { [K in keyof S]?: (a: S[K], b: S[K]) => boolean };

/**
 * The columns of `after` whose value differs from `before`: what a PATCH writes (an unchanged
 * PATCH writes nothing, and its audit entry names only what changed). A column in `same` compares
 * by its rule (decimals as amounts, `'12.50'` is `'12.5'`; JSON as values); the others by identity.
 */
export function changedColumns<S extends object>(before: S, after: S, same: SameRules<S> = {}): Partial<S> {
  const out: Partial<S> = {};
  for (const key of Object.keys(after) as Array<keyof S>) {
    const rule = same[key];
    if (!(rule ? rule(before[key], after[key]) : before[key] === after[key])) out[key] = after[key];
  }
  return out;
}

/** The workspace's rows of `table` but `exceptId`: what "taken" and "in use" look among. */
function otherRows(trx: Tx, table: WorkspaceTable, companyId: string, exceptId: string | undefined) {
  let query = untyped(trx)
    .selectFrom(table as string)
    .select('id')
    .where('company_id', '=', companyId);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return query;
}

/** Whether another row of the workspace's `table` (all but `exceptId`) has this name, ignoring case. */
export async function nameTaken(trx: Tx, table: NamedTable, companyId: string, name: string, exceptId?: string) {
  const row = await otherRows(trx, table, companyId, exceptId).where(sql`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
  return row !== undefined;
}

/** The 409 when another row of the workspace has the name; `noun` with its article ('A client', 'An expense category'). */
export const nameTakenError = (noun: string, name: string) =>
  conflict(`${noun} named '${name}' already exists in this workspace.`, { field: 'name', refusal: 'name_taken' });

/**
 * What a write that checked nameTaken first throws when it fails: a unique-index race on the name
 * (two creates or renames with one name at once, `name` the one written) is the check's 409; any other error as it was.
 */
export const nameRace = (err: unknown, noun: string, name: string | undefined) =>
  (err as { code?: string } | undefined)?.code === '23505' && name !== undefined ? nameTakenError(noun, name) : err;

/** Whether another row of the workspace's `table` (all but `exceptId`) has `value` in `column` (an invoice's number, an expense's receipt file). */
export async function otherRowHas<T extends WorkspaceTable>(trx: Tx, table: T, companyId: string, column: keyof DB[T] & string, value: string, exceptId: string) {
  const row = await otherRows(trx, table, companyId, exceptId).where(column as string, '=', value).executeTakeFirst();
  return row !== undefined;
}
