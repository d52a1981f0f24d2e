/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { invoiceTotals } from './presenter.ts';
export type { PresentedInvoice } from './presenter.ts';
export { linesOf, listInvoices as listInvoiceRows } from './queries.ts';
export { invoicesRoutes } from './routes.ts';
export { listInvoices, transitionInvoice } from './service.ts';
export type { InvoiceTransition } from './service.ts';
export { invoicesWebRoutes } from './web-routes.ts';
export { getInvoice } from './service.ts';
export { loadInvoiceDocument, renderInvoicePdf } from './pdf.ts';
export { presentInvoice } from './presenter.ts';
export { pdfFilename } from './format.ts';
