/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { invoiceTotals } from './presenter.ts';
export type { PresentedInvoice } from './presenter.ts';
export { linesOf, listInvoices as listInvoiceRows } from './queries.ts';
export { invoicesRoutes } from './routes.ts';
export { createInvoiceIn, listInvoices, previewInvoice, transitionInvoice } from './service.ts';
export type { InvoiceTransition } from './service.ts';
export { invoicesWebRoutes } from './web-routes.ts';
// For recurring invoices (a template is an invoice's body; each occurrence a create, and a send,
// in its own transaction), estimates (the arithmetic, the field and line rules, the client and
// workspace reads, the create a conversion calls, the PDF's fonts and formats) and the client page.
export { computeTotals, type Totals } from './totals.ts';
export {
  EXPENSE_SUMMARY_TYPES,
  NOTES_MAX,
  NUMBER_MAX,
  SUBJECT_MAX,
  TIME_SUMMARY_TYPES,
  assertDate,
  assertNoNul,
  currencyValue,
  invoiceNumber,
  optionalText,
  percentValue,
  translatedKind,
} from './rules.ts';
export { assertMayUseInvoices, createInvoice, explicitLines, getInvoice, kindChoices } from './service.ts';
// For retainers (billing/retainers): the locked invoice, and its funding and credit lines.
export { addRetainerLineIn, loadInvoice, removeRetainerLineIn } from './service.ts';
export { RETAINER_KIND } from './kinds.ts';
export { wrongState } from './rules.ts';
export { greeting, sendInvoiceMessageIn, signatureName, validateMessage } from './messages.ts';
export { invoiceProjects } from './projects.ts';
export { SuggestedRecipientsSchema, recipientsForClient } from './recipients.ts';
export { FIXED_FEE_BALANCE, findClient, fixedFeeEligible, loadWorkspace } from './queries.ts';
export { IsoDate, LineItemCreate, RecipientSchema, TotalsProperties } from './schemas.ts';
export type { CreateInput, LineInput, Recipient } from './schemas.ts';
export { creatorOf, documentHead, presentInvoice, presentTotals, printedTotals } from './presenter.ts';
export { documentFilename, fileSafe, formatDate, formatMoney, formatPercent, formatQuantity, pdfFilename } from './format.ts';
export { INK, MUTED, closingHeight, drawClient, drawClosing, drawLines, drawSeller, loadInvoiceDocument, loadSeller, notesBlock, openPdf, pageFooters, renderInvoicePdf, totalsBlock, totalsRows } from './pdf.ts';
export type { ClosingBlock } from './pdf.ts';
export type { Seller } from './pdf.ts';
// For the client page: which e-invoices an invoice can be, and the writer (loaded on first use).
export { E_INVOICE_ATTACHMENTS, attachmentFormat, attachmentProfile, eInvoiceFilename, missingFields } from './e-invoice-data.ts';
export type { EInvoiceAttachment } from './e-invoice-data.ts';
export const eInvoiceWriter = () => import('./e-invoice.ts');
