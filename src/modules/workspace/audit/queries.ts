import { sql, type Expression, type SqlBool } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';
import { AUDIT_KINDS, likePattern, type AuditKind, type AuditPeriod } from './rules.ts';

/** What the audit page filters by: the acting person, kinds of action, a period. */
export interface AuditFilter {
  actorUserId?: string;
  kinds?: AuditKind[];
  period: AuditPeriod;
}

/**
 * A page of the workspace's audit log, newest first, with who acted and a label
 * for the subject: `before` is the id of the last row of the previous page (keyset
 * on occurred_at, id: audit_logs_time_idx). Names are read from the tables as they
 * are now (a renamed project shows its new name, a webhook endpoint its URL); a subject
 * deleted since falls back to the name, number or URL its record kept in details.
 */
export function auditLogPage(trx: Tx, companyId: string, filter: AuditFilter, limit: number, before?: string) {
  let q = trx
    .selectFrom('audit_logs as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .leftJoin('credentials as c', (j) => j.onRef('c.company_id', '=', 'a.company_id').onRef('c.id', '=', 'a.credential_id'))
    .leftJoin('users as su', (j) => j.onRef('su.id', '=', 'a.subject_id').on('a.subject_type', '=', 'user'))
    .leftJoin('invoices as si', (j) => j.onRef('si.company_id', '=', 'a.company_id').onRef('si.id', '=', 'a.subject_id').on('a.subject_type', '=', 'invoice'))
    .leftJoin('estimates as se', (j) => j.onRef('se.company_id', '=', 'a.company_id').onRef('se.id', '=', 'a.subject_id').on('a.subject_type', '=', 'estimate'))
    .leftJoin('clients as sc', (j) => j.onRef('sc.company_id', '=', 'a.company_id').onRef('sc.id', '=', 'a.subject_id').on('a.subject_type', '=', 'client'))
    .leftJoin('projects as sp', (j) => j.onRef('sp.company_id', '=', 'a.company_id').onRef('sp.id', '=', 'a.subject_id').on('a.subject_type', '=', 'project'))
    .leftJoin('tasks as st', (j) => j.onRef('st.company_id', '=', 'a.company_id').onRef('st.id', '=', 'a.subject_id').on('a.subject_type', '=', 'task'))
    .leftJoin('credentials as sk', (j) => j.onRef('sk.company_id', '=', 'a.company_id').onRef('sk.id', '=', 'a.subject_id').on('a.subject_type', '=', 'credential'))
    .leftJoin('webhook_endpoints as sw', (j) => j.onRef('sw.company_id', '=', 'a.company_id').onRef('sw.id', '=', 'a.subject_id').on('a.subject_type', '=', 'webhook_endpoint'))
    .leftJoin('saved_reports as sr', (j) => j.onRef('sr.company_id', '=', 'a.company_id').onRef('sr.id', '=', 'a.subject_id').on('a.subject_type', '=', 'saved_report'))
    .select([
      'a.id',
      'a.occurred_at',
      'a.action',
      'a.actor_user_id',
      'a.credential_id',
      'a.subject_type',
      'a.subject_id',
      'a.details',
      'u.first_name as actor_first_name',
      'u.last_name as actor_last_name',
      'c.name as key_name',
      'c.prefix as key_prefix',
      sql<string | null>`coalesce(
        nullif(trim(su.first_name || ' ' || su.last_name), ''),
        si.number, se.number, sc.name, sp.name, st.name, nullif(sk.name, ''), sw.url, sr.name,
        a.details->>'name', a.details->>'number', a.details->>'url')`.as('subject_label'),
    ])
    .where('a.company_id', '=', companyId);
  if (filter.actorUserId) q = q.where('a.actor_user_id', '=', filter.actorUserId);
  if (filter.period.since) q = q.where('a.occurred_at', '>=', filter.period.since);
  if (filter.period.until) q = q.where('a.occurred_at', '<', filter.period.until);
  if (filter.kinds?.length) {
    const patterns = filter.kinds.flatMap((k) => AUDIT_KINDS[k]).map(likePattern);
    q = q.where((eb) => eb.or(patterns.map((p) => eb('a.action', 'like', p))));
  }
  if (before) {
    const after: Expression<SqlBool> = sql<SqlBool>`(a.occurred_at, a.id) < (select b.occurred_at, b.id from audit_logs b where b.company_id = ${companyId} and b.id = ${before})`;
    q = q.where(after);
  }
  return q.orderBy('a.occurred_at', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
}

export type AuditRow = Awaited<ReturnType<typeof auditLogPage>>[number];

/** The workspace's time zone: the page's days and the CSV's times are its. */
export async function workspaceTimezone(trx: Tx, companyId: string): Promise<string> {
  const row = await trx.selectFrom('companies').select('timezone').where('id', '=', companyId).executeTakeFirstOrThrow();
  return row.timezone;
}
