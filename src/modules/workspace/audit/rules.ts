import { DateTime } from 'luxon';
import { badRequest } from '../../../errors.ts';
import { isIsoDate } from '../../../time/workspace-time.ts';
import type { AuditAction } from './actions.ts';

/**
 * The audit page's kinds: groups of actions an administrator filters by (issue 28
 * item 4). A kind is a list of SQL LIKE patterns over `action`; kinds may overlap
 * (a deleted invoice is an invoice and a deletion). An action no kind names is
 * still listed when no kind is chosen. New actions join a kind by their prefix.
 */
export const AUDIT_KINDS = {
  sign_ins: ['session.%', 'two_factor.%', 'passkey.%'],
  keys: ['credential.%'],
  people: ['member.%', 'teammate.%', 'invitation.%'],
  settings: [
    'workspace.%',
    'invoice_settings.%',
    'break_rules.%',
    'holidays.%',
    'working_pattern.%',
    'bank_account.%',
    'webhook_endpoint.%',
    'webhook_delivery.%',
    'expense_category.%',
    'invoice_item_category.%',
    'outbox.%',
    'sso.%',
  ],
  invoices: ['invoice.%', 'estimate.%', 'recurring_invoice.%', 'retainer.%'],
  approvals: ['timesheet.%'],
  records: [
    'client.%',
    'contact.%',
    'project.%',
    'task.%',
    'rate.%',
    'project_assignment.%',
    'task_assignment.%',
    'expense.%',
    'time_off.%',
    'planning_%',
    'saved_report.%',
    'import.%',
  ],
  deletions: ['%deleted', '%removed'],
} as const satisfies Record<string, readonly string[]>;

export type AuditKind = keyof typeof AUDIT_KINDS;
export const AUDIT_KIND_NAMES = Object.keys(AUDIT_KINDS) as AuditKind[];

/** Whether an action matches a LIKE pattern of a kind (only `%` is used, and `_` in names is literal). */
function matches(action: string, pattern: string): boolean {
  const parts = pattern.split('%');
  const re = new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(action);
}

/** The kinds an action belongs to (the page shows them; the filter's SQL uses the patterns). */
export const kindsOf = (action: string): AuditKind[] => AUDIT_KIND_NAMES.filter((k) => AUDIT_KINDS[k].some((p) => matches(action, p)));

/**
 * LIKE treats `_` as "any one character"; the patterns mean it literally, so it is
 * escaped for SQL (with the default escape character, a backslash).
 */
export const likePattern = (pattern: string) => pattern.replace(/_/g, '\\_');

/** Actions the sign-in code writes (src/modules/people/sessions) and the administrator's sign-out of a person. */
export const SIGN_IN_SUCCEEDED = 'session.signed_in' satisfies AuditAction;
export const SIGN_IN_FAILED = 'session.sign_in_failed' satisfies AuditAction;
export const SESSIONS_ENDED = 'session.ended_all' satisfies AuditAction;

export interface AuditPeriod {
  /** The first instant included. */
  since?: Date;
  /** The first instant after the period. */
  until?: Date;
}

/**
 * `from` and `to` (calendar days, both included) as instants in the workspace's time
 * zone: the log shows times in that zone, so a day is that zone's day. 400 naming the
 * field for anything but a real date, or `to` before `from`.
 */
export function auditPeriod(from: string | undefined, to: string | undefined, timezone: string): AuditPeriod {
  for (const [field, value] of [['from', from], ['to', to]] as const) {
    if (value !== undefined && !isIsoDate(value)) throw badRequest(`${field} must be a date (YYYY-MM-DD).`, { field });
  }
  if (from !== undefined && to !== undefined && to < from) throw badRequest('to must not be before from.', { field: 'to' });
  const startOf = (day: string) => DateTime.fromISO(day, { zone: timezone }).startOf('day');
  return {
    since: from === undefined ? undefined : startOf(from).toJSDate(),
    until: to === undefined ? undefined : startOf(to).plus({ days: 1 }).toJSDate(),
  };
}

/** An instant as the workspace's wall-clock time to the second with its offset (`2025-03-30T09:15:00+02:00`), for the CSV. */
export const inZone = (at: Date, timezone: string) => DateTime.fromJSDate(at, { zone: timezone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
