import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import type { ChildSpec, TableResourceSpec } from './resources.ts';
import { renderingOf } from './render.ts';

/**
 * The backup's SQL. Every query takes the workspace id first and filters on it
 * (row-level security is the second wall). The SQL fragments are the constants
 * of resources.ts; every value (workspace id, keyset cursor, limit, offset,
 * parent ids) is a parameter.
 */

const keyList = (spec: TableResourceSpec) => sql.raw(spec.key.map((k) => k.column).join(', '));

/** One workspace's row count of a resource (parents only). */
export async function countRecords(trx: Tx, companyId: string, spec: TableResourceSpec): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.raw(spec.from)}
    where ${sql.raw(spec.companyColumn)} = ${companyId}`.execute(trx);
  return Number(rows[0].n);
}

/** A record rendered by PostgreSQL: its JSON text and whether a json value in it must be re-serialized. */
export interface RenderedRow {
  json: string;
  reserialize: boolean;
}

/** A parent record: also its key values (the cursor) and its `id` (its children's parent key). */
export interface RenderedParent extends RenderedRow {
  key: string[];
  id: string;
}

/**
 * Up to `limit` parent records in key order, as JSON text: after the keyset
 * `after` (the key of the last record of the previous page) when given, else
 * from `offset`.
 */
export async function selectPage(
  trx: Tx,
  companyId: string,
  spec: TableResourceSpec,
  { after, offset, limit }: { after: string[] | null; offset: number; limit: number },
): Promise<RenderedParent[]> {
  const r = await renderingOf(trx, spec.columns, spec.from);
  const keyset: RawBuilder<unknown> = after
    ? sql`and (${keyList(spec)}) > (${sql.join(after.map((v) => sql`${v}::uuid`))})`
    : sql``;
  const keys = spec.key.map((k, i) => `${k.column} as __k${i}`).join(', ');
  const keyOut = spec.key.map((_, i) => `s.__k${i}`).join(', ');
  const hasId = r.columns.some((c) => c.name === 'id');
  const { rows } = await sql<{ j: string; n: boolean | null; id: string | null } & Record<string, string>>`select row_to_json(v)::text as j,
      ${sql.raw(r.needsReserialize ?? 'false')} as n, ${sql.raw(hasId ? 's.id::text' : 'null::text')} as id, ${sql.raw(keyOut)}
    from (select ${sql.raw(spec.columns)}, ${sql.raw(keys)} from ${sql.raw(spec.from)}
      where ${sql.raw(spec.companyColumn)} = ${companyId} ${keyset}
      order by ${keyList(spec)}
      limit ${limit} offset ${after ? 0 : offset}) s
    cross join lateral (select ${sql.raw(r.select)}) v
    order by ${sql.raw(keyOut)}`.execute(trx);
  return rows.map((row) => ({
    json: row.j,
    reserialize: row.n === true,
    id: row.id ?? '',
    key: spec.key.map((_, i) => String(row[`__k${i}`])),
  }));
}

/** The children of the given parents as JSON text, grouped by parent key, each group in the child's order. */
export async function selectChildren(
  trx: Tx,
  companyId: string,
  child: ChildSpec,
  parentIds: string[],
): Promise<Map<string, RenderedRow[]>> {
  const groups = new Map<string, RenderedRow[]>();
  if (parentIds.length === 0) return groups;
  const r = await renderingOf(trx, child.columns, child.from);
  const order = `${child.parentColumn}, ${child.orderBy}`;
  const { rows } = await sql<{ j: string; n: boolean | null; p: string }>`select row_to_json(v)::text as j,
      ${sql.raw(r.needsReserialize ?? 'false')} as n, s.__parent::text as p
    from (select ${sql.raw(child.columns)}, ${sql.raw(child.parentColumn)} as __parent,
        row_number() over (order by ${sql.raw(order)}) as __o
      from ${sql.raw(child.from)}
      where x.company_id = ${companyId}
        and ${sql.raw(child.parentColumn)} = any(string_to_array(${parentIds.join(',')}, ',')::uuid[])
        ${child.where ? sql`and ${sql.raw(child.where)}` : sql``}
      order by ${sql.raw(order)}) s
    cross join lateral (select ${sql.raw(r.select)}) v
    order by s.__o`.execute(trx);
  for (const row of rows) {
    let group = groups.get(row.p);
    if (!group) groups.set(row.p, (group = []));
    group.push({ json: row.j, reserialize: row.n === true });
  }
  return groups;
}

/**
 * A receipt file that an invoice of the workspace carries (the receipt of an
 * expense billed on an invoice), with its bytes; undefined otherwise.
 */
export async function findInvoiceExpenseReceipt(trx: Tx, companyId: string, fileId: string) {
  return trx
    .selectFrom('files as f')
    .select(['f.id', 'f.filename', 'f.content_type', 'f.byte_size', 'f.data'])
    .where('f.company_id', '=', companyId)
    .where('f.id', '=', fileId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('expenses as e')
          .select(sql`1`.as('one'))
          .whereRef('e.company_id', '=', 'f.company_id')
          .whereRef('e.receipt_file_id', '=', 'f.id')
          .where('e.invoice_id', 'is not', null),
      ),
    )
    .executeTakeFirst();
}
