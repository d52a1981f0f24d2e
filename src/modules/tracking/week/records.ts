import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { timeRecordVisible } from '../../../access/time.ts';
import type { Tx } from '../../../db/tenant.ts';
import { fetchCountedPage, type PageParams } from '../../../http/pagination.ts';
import { isId } from '../../../ids.ts';

/**
 * What time entries and expenses, the records of a person's week, share in their
 * queries: one visibility rule (timeRecordVisible), the list filters, the list's
 * order and count, and the read of one record. `alias` is the record table's alias
 * (`te` for time_entries, `ex` for expenses).
 */

export type RecordTable = { table: 'time_entries'; alias: 'te' } | { table: 'expenses'; alias: 'ex' };
type RecordAlias = RecordTable['alias'];

/** The list filters time entries and expenses share. */
export interface RecordFilter {
  userId?: string;
  projectId?: string;
  clientId?: string;
  /** spent_date from, inclusive. */
  from?: string;
  /** spent_date to, inclusive. */
  to?: string;
  isBilled?: boolean;
  source?: string;
  updatedSince?: Date;
}

/**
 * The conditions of a list of time entries or expenses, on the record table
 * under `alias` alone (the client's filter reads its projects in a subquery), so a
 * page and its count share them: what the principal may see, then the filters.
 */
export function recordConditions(eb: ExpressionBuilder<any, any>, alias: RecordAlias, p: Principal, filter: RecordFilter) {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const conditions: Expression<SqlBool>[] = [timeRecordVisible(p, alias)(eb)];
  if (filter.userId) conditions.push(eb(column('user_id'), '=', filter.userId));
  if (filter.projectId) conditions.push(eb(column('project_id'), '=', filter.projectId));
  if (filter.clientId) {
    const clients = eb
      .selectFrom('projects as fp')
      .select('fp.id')
      .whereRef('fp.company_id', '=', column('company_id'))
      .where('fp.client_id', '=', filter.clientId);
    conditions.push(eb(column('project_id'), 'in', clients));
  }
  if (filter.from) conditions.push(eb(column('spent_date'), '>=', filter.from));
  if (filter.to) conditions.push(eb(column('spent_date'), '<=', filter.to));
  if (filter.isBilled !== undefined) conditions.push(eb(column('is_billed'), '=', filter.isBilled));
  if (filter.source) conditions.push(eb(column('source'), '=', filter.source));
  if (filter.updatedSince) conditions.push(eb(column('updated_at'), '>=', filter.updatedSince));
  return conditions;
}

/**
 * One page of records, newest work first: spent_date descending, then created_at
 * descending, then id descending (ids are unique, so the order is total and pages are
 * stable). `select` is the record's select (its joins and columns, on the workspace);
 * `where` the conditions (recordConditions and the record's own). The total is
 * counted on the record table alone (fetchCountedPage).
 */
export function listRecords<O>(
  trx: Tx,
  companyId: string,
  { table, alias }: RecordTable,
  select: SelectQueryBuilder<any, any, O>,
  where: (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>,
  page: PageParams,
): Promise<{ rows: O[]; total: number }> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const rows = select.where(where).orderBy(column('spent_date'), 'desc').orderBy(column('created_at'), 'desc').orderBy(column('id'), 'desc');
  const count = trx
    .selectFrom(sql.table(table).as(alias))
    .select(sql<string>`count(*)`.as('n'))
    .where(column('company_id'), '=', companyId)
    .where(where);
  return fetchCountedPage(rows, count, page);
}

/**
 * One record by id from its select, or undefined (also for an id that is not one):
 * when `visibleTo` is given, only if that principal may see it. `lock` takes a row
 * lock on the record (not on what it joins).
 */
export function findRecord<O>(
  select: SelectQueryBuilder<any, any, O>,
  alias: RecordAlias,
  id: string,
  { visibleTo, lock = false }: { visibleTo?: Principal; lock?: boolean } = {},
): Promise<O | undefined> {
  if (!isId(id)) return Promise.resolve(undefined);
  let query = select.where(sql.ref(`${alias}.id`), '=', id);
  if (visibleTo) query = query.where(timeRecordVisible(visibleTo, alias));
  if (lock) query = query.forUpdate(alias);
  return query.executeTakeFirst();
}
