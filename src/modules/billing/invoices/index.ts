/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { invoiceTotals } from './presenter.ts';
export type { PresentedInvoice } from './presenter.ts';
export { linesOf, listInvoices as listInvoiceRows } from './queries.ts';
export { invoicesRoutes } from './routes.ts';
export { listInvoices, transitionInvoice } from './service.ts';
export type { InvoiceTransition } from './service.ts';
export { invoicesWebRoutes } from './web-routes.ts';
// What estimates (billing/estimates) share with invoices: the arithmetic, the field rules, the
// line checks, the client and workspace reads, the create that a conversion calls, the mail
// checks and the PDF's fonts and formats.
export { computeTotals, type Totals } from './totals.ts';
export {
  NOTES_MAX,
  NUMBER_MAX,
  SUBJECT_MAX,
  assertDate,
  currencyValue,
  invoiceNumber,
  optionalText,
  percentValue,
  translatedKind,
} from './rules.ts';
export { createInvoice, explicitLines, assertMayUseInvoices } from './service.ts';
export { invoiceProjects } from './projects.ts';
export { findClient, loadWorkspace } from './queries.ts';
export { LineItemCreate, RecipientSchema, IsoDate } from './schemas.ts';
export type { LineInput, Recipient } from './schemas.ts';
export { validateMessage } from './messages.ts';
export { fileSafe, formatDate, formatMoney, formatPercent, formatQuantity } from './format.ts';
export { BAND, INK, MUTED, RULE, breakLongWords, loadFonts, winAnsi } from './pdf.ts';
