import type { Principal } from '../auth/principal.ts';
import { hasPermission, isAdmin, type RouteAccess } from './policy.ts';

/**
 * Who may see and change invoices (the spec's "Permissions by identity" rows for
 * invoices). The invoice permission is workspace-wide: whoever holds it sees
 * every invoice of the workspace, of every client.
 *
 * - read, create, update, send: owners, administrators, and managers holding
 *   `view_invoices` (the spec's "manager or administrator"; a manager without
 *   the flag may not even read invoices, so may not create what it could not see);
 * - delete (drafts only): owners and administrators;
 * - members, contractors (unless also managers with the flag), client
 *   memberships and personal sync keys: nothing.
 */

/** The route access every invoice route but DELETE declares. */
export const INVOICE_ACCESS: RouteAccess = 'view_invoices';
/** The route access of DELETE /invoices/:id. */
export const INVOICE_DELETE_ACCESS: RouteAccess = 'administrator';

const fullAccessKey = (p: Principal) => p.kind !== 'personal';

/** List, get, PDF and message history. */
export const maySeeInvoices = (p: Principal) => fullAccessKey(p) && hasPermission(p, 'view_invoices');

/** Create (explicit lines or from tracked work), update drafts, send messages. */
export const mayWriteInvoices = (p: Principal) => maySeeInvoices(p);

/** Delete a draft (and release the time and expenses it captured). */
export const mayDeleteInvoices = (p: Principal) => fullAccessKey(p) && isAdmin(p);
