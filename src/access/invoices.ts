import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import { managesProjectRow, maySeeRates } from './catalog.ts';
import { hasPermission, isAdmin, isManager, type RouteAccess } from './policy.ts';

/**
 * Who may see and change invoices (the spec's "Permissions by identity" rows:
 * "Invoices create, update, send — Manager: yes"; "Invoices delete —
 * administrator"), and over which invoices and projects (issue 13).
 *
 * - Owners and administrators: every invoice of the workspace; create for any
 *   client, from the work of any project.
 * - Managers (no flag needed): create invoices for the clients they can see;
 *   read, update, send, download and list the messages of the invoices they
 *   created. With `view_invoices` they also read, update and send every invoice
 *   of the workspace (one flag for reading and writing: what a manager may read
 *   in full, they may also edit and send, as the spec's table lets managers
 *   update and send without naming whose invoices).
 *   Imported work and project lines are limited to the projects the manager
 *   actively manages (whose time they see in full), with or without the flag, as
 *   the uninvoiced report limits managers; importing time (priced at billable
 *   rates) needs `view_billable_rates`, as that report does.
 * - Delete (drafts only): owners and administrators.
 * - Members, contractors, client memberships and personal sync keys: nothing.
 *
 * An invoice the caller may not read is 404 on every route, like any other
 * record the caller cannot see; the list leaves it out.
 */

/**
 * The route access every invoice route but DELETE declares: any internal member;
 * the services then refuse all but owners, administrators and managers
 * (mayUseInvoices), since no single manager flag is required.
 */
export const INVOICE_ACCESS: RouteAccess = 'authenticated';
/** The route access of DELETE /invoices/:id. */
export const INVOICE_DELETE_ACCESS: RouteAccess = 'administrator';

const fullAccessKey = (p: Principal) => p.kind !== 'personal';

/** Uses the invoice routes at all: creates invoices, and reads, updates and sends those in reach (invoiceVisible). */
export const mayUseInvoices = (p: Principal) => fullAccessKey(p) && (isAdmin(p) || isManager(p));

/** Reads (and so updates and sends) every invoice of the workspace, not only the ones they created. */
export const seesAllInvoices = (p: Principal) => mayUseInvoices(p) && hasPermission(p, 'view_invoices');

/** SQL condition: the invoice row aliased `alias` is in the principal's reach. */
export function invoiceVisible(p: Principal, alias = 'i') {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    if (!mayUseInvoices(p)) return sql<SqlBool>`false`;
    if (seesAllInvoices(p)) return sql<SqlBool>`true`;
    return eb(sql.ref(`${alias}.created_by`), '=', p.userId);
  };
}

/**
 * Pricing tracked time (an import with `time`) shows the billable rates of the
 * work: it needs the billable-rate permission. Expenses and explicit lines carry
 * the amounts recorded or typed, and do not.
 */
export const mayInvoiceTrackedTime = (p: Principal) => maySeeRates(p);

/** Whether the principal may invoice the work of every project (else: the projects it actively manages). */
export const invoicesEveryProject = (p: Principal) => isAdmin(p);

/**
 * SQL condition: the project row aliased `alias` is one whose work (imports) and
 * lines (`project_id`) the principal may invoice: every project for owners and
 * administrators; for managers, the projects they actively manage.
 */
export function invoiceableProject(p: Principal, alias = 'projects') {
  return (eb: ExpressionBuilder<any, any>): Expression<SqlBool> => {
    if (!mayUseInvoices(p)) return sql<SqlBool>`false`;
    if (invoicesEveryProject(p)) return sql<SqlBool>`true`;
    return managesProjectRow(eb, p, `${alias}.company_id`, `${alias}.id`);
  };
}

/** Delete a draft (and release the time and expenses it captured). */
export const mayDeleteInvoices = (p: Principal) => fullAccessKey(p) && isAdmin(p);

/** Close, void or mark paid in full an open invoice (the web app's close and void, the operator's commands). */
export const mayCloseInvoices = (p: Principal) => fullAccessKey(p) && isAdmin(p);
