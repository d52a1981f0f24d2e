/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { invoiceTotals } from './presenter.ts';
export type { PresentedInvoice } from './presenter.ts';
export { linesOf, listInvoices as listInvoiceRows } from './queries.ts';
export { invoicesRoutes } from './routes.ts';
export { createInvoiceIn, listInvoices, previewInvoice, transitionInvoice } from './service.ts';
export type { InvoiceTransition } from './service.ts';
export { invoicesWebRoutes } from './web-routes.ts';
// For recurring invoices: their template is an invoice's body, each occurrence a create (and a send) in its own transaction.
export { sendInvoiceMessageIn, validateMessage } from './messages.ts';
export { EXPENSE_SUMMARY_TYPES, NOTES_MAX, SUBJECT_MAX, TIME_SUMMARY_TYPES, optionalText, percentValue } from './rules.ts';
export { IsoDate, LineItemCreate, RecipientSchema } from './schemas.ts';
export type { CreateInput, LineInput } from './schemas.ts';
export { getInvoice } from './service.ts';
export { loadInvoiceDocument, renderInvoicePdf } from './pdf.ts';
export { presentInvoice } from './presenter.ts';
export { pdfFilename } from './format.ts';
