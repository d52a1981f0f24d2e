import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { timeRecordVisible } from '../../../access/time.ts';

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
export function recordConditions(eb: ExpressionBuilder<any, any>, alias: 'te' | 'ex', p: Principal, filter: RecordFilter) {
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
