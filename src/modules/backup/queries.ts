import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../../db/tenant.ts';
import type { ChildSpec, TableResourceSpec } from './resources.ts';

/**
 * The backup's SQL. Every query takes the workspace id first and filters on it
 * (row-level security is the second wall). The SQL fragments are the constants
 * of resources.ts; every value (workspace id, keyset cursor, limit, offset,
 * parent ids) is a parameter.
 */

type Row = Record<string, unknown>;

const keyList = (spec: TableResourceSpec) => sql.raw(spec.key.map((k) => k.column).join(', '));

/** One workspace's row count of a resource (parents only). */
export async function countRecords(trx: Tx, companyId: string, spec: TableResourceSpec): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.raw(spec.from)}
    where ${sql.raw(spec.companyColumn)} = ${companyId}`.execute(trx);
  return Number(rows[0].n);
}

/**
 * Up to `limit` parent rows in key order: after the keyset `after` (the key of
 * the last record of the previous page) when given, else from `offset`.
 */
export async function selectPage(
  trx: Tx,
  companyId: string,
  spec: TableResourceSpec,
  { after, offset, limit }: { after: string[] | null; offset: number; limit: number },
): Promise<Row[]> {
  const keyset: RawBuilder<unknown> = after
    ? sql`and (${keyList(spec)}) > (${sql.join(after.map((v) => sql`${v}::uuid`))})`
    : sql``;
  const { rows } = await sql<Row>`select ${sql.raw(spec.columns)} from ${sql.raw(spec.from)}
    where ${sql.raw(spec.companyColumn)} = ${companyId} ${keyset}
    order by ${keyList(spec)}
    limit ${limit} offset ${after ? 0 : offset}`.execute(trx);
  return rows;
}

/** The children of the given parents, grouped by parent key, each group in the child's order. */
export async function selectChildren(trx: Tx, companyId: string, child: ChildSpec, parentIds: string[]): Promise<Map<string, Row[]>> {
  const groups = new Map<string, Row[]>();
  if (parentIds.length === 0) return groups;
  const { rows } = await sql<Row>`select ${sql.raw(child.columns)}, ${sql.raw(child.parentColumn)} as __parent
    from ${sql.raw(child.from)}
    where x.company_id = ${companyId}
      and ${sql.raw(child.parentColumn)} = any(string_to_array(${parentIds.join(',')}, ',')::uuid[])
      ${child.where ? sql`and ${sql.raw(child.where)}` : sql``}
    order by ${sql.raw(child.parentColumn)}, ${sql.raw(child.orderBy)}`.execute(trx);
  for (const row of rows) {
    const parent = String(row.__parent);
    delete row.__parent;
    let group = groups.get(parent);
    if (!group) groups.set(parent, (group = []));
    group.push(row);
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
