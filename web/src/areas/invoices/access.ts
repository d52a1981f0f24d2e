import { isManagerOrAbove } from '../../api/access.ts';

/**
 * Who uses the invoice pages: owners, administrators and managers, as the server's
 * mayUseInvoices (src/access/invoices.ts) decides; anyone else gets "not available to
 * your role". The server still refuses the rest, per invoice.
 */
export const mayUseInvoices = isManagerOrAbove;
