import type { Workspace } from '../../api/session.ts';

/**
 * Who uses the invoice pages: owners, administrators and managers, as the server's
 * mayUseInvoices (src/access/invoices.ts) decides. The server still refuses the rest;
 * this only keeps the navigation from offering a page that would be empty.
 */
export const mayUseInvoices = (w: Pick<Workspace, 'role'>) => ['owner', 'administrator', 'manager'].includes(w.role);
