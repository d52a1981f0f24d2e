import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { notFound } from '../../../errors.ts';
import type { Renderer } from '../../../outbox/worker.ts';
import {
  INK,
  MUTED,
  assertMayUseInvoices,
  closingHeight,
  drawClient,
  drawClosing,
  drawLines,
  drawSeller,
  findClient,
  formatDate,
  loadSeller,
  notesBlock,
  openPdf,
  pageFooters,
  totalsBlock,
  totalsRows,
  type Seller,
} from '../invoices/index.ts';
import { estimateTotals } from './presenter.ts';
import type { EstimateLineRow, EstimateRow } from './queries.ts';
import { pdfFilename } from './rules.ts';
import { loadEstimate } from './service.ts';

/**
 * The estimate as a PDF (pdfkit), in the client's language, with the invoice
 * PDF's fonts, colours, long-word breaking and number formats (shared through
 * the invoices' index): the seller and the client as the invoice prints them
 * (the invoice settings' legal name, IDs, logo and footer: an estimate goes to
 * the same client from the same business), "ESTIMATE"/"ANGEBOT", number and
 * date, subject, the lines, subtotal, discount, taxes, total and notes, and a
 * "page i of n" footer. Letter paper for USD and CAD, A4 otherwise.
 */

export const ESTIMATE_PDF_RENDERER = 'estimate_pdf';

export interface EstimateDocument {
  estimate: EstimateRow;
  lines: EstimateLineRow[];
  workspace: Seller;
  client: { name: string; address: string | null; language: string; vat_id?: string | null };
}

/** The estimate with what its PDF prints (workspace, client); `visibleTo`: only one in that principal's reach (404 otherwise). */
export async function loadDocument(trx: Tx, companyId: string, id: string, visibleTo?: Principal): Promise<EstimateDocument> {
  const { row, lines } = await loadEstimate(trx, companyId, id, { visibleTo });
  const loaded = await loadSeller(trx, companyId);
  const client = await findClient(trx, companyId, row.client_id);
  if (!loaded || !client) throw notFound('estimate');
  return { estimate: row, lines, workspace: loaded.seller, client: { name: client.name, address: client.address, language: client.language, vat_id: client.vat_id } };
}

/** The web app's PDF of an estimate and its download name. */
export async function getEstimatePdf(db: Kysely<DB>, p: Principal, id: string): Promise<{ pdf: Buffer; filename: string }> {
  assertMayUseInvoices(p);
  const doc = await withTenant(db, p.companyId, (trx) => loadDocument(trx, p.companyId, id, p));
  return { pdf: await renderEstimatePdf(doc), filename: pdfFilename(doc.estimate.number, doc.client.language) };
}

/** The outbox renderer: the PDF attached to an estimate's e-mail, rendered at delivery time. */
export const estimateRenderers: Record<string, Renderer> = {
  [ESTIMATE_PDF_RENDERER]: async (db, companyId, params) => renderEstimatePdf(await withTenant(db, companyId, (trx) => loadDocument(trx, companyId, params.estimate_id))),
};

export async function renderEstimatePdf(d: EstimateDocument): Promise<Buffer> {
  const e = d.estimate;
  const totals = estimateTotals(e, d.lines);
  const language = d.client.language;
  const pdf = openPdf(e, 'estimate.title', d);
  const { doc, t, tr, money, left, right, width, done } = pdf;
  const footers = pageFooters(pdf, d.workspace.footer);

  // Sender (left) and the document's title and facts (right).
  const senderBottom = drawSeller(pdf, d.workspace);
  const factsX = left + width * 0.5;
  const factsW = right - factsX;
  doc.fillColor(INK).font('bold').fontSize(22).text(t(tr('estimate.heading')), factsX, 46, { width: factsW, align: 'right' });
  let y = doc.y + 4;
  for (const [label, value] of [
    [tr('estimate.number'), e.number],
    [tr('estimate.issueDate'), formatDate(e.issue_date, language)],
    ...(e.valid_until ? [[tr('estimate.validUntil'), formatDate(e.valid_until, language)]] : []),
  ]) {
    doc.font('body').fontSize(9).fillColor(MUTED).text(t(label), factsX, y, { width: factsW / 2 });
    doc.font('bold').fontSize(9).fillColor(INK).text(t(value, factsW / 2), factsX + factsW / 2, y, { width: factsW / 2, align: 'right' });
    y = Math.max(doc.y, y + 13);
  }
  y = Math.max(y, senderBottom) + 22;

  // The client, the subject.
  y = drawClient(pdf, tr('estimate.preparedFor'), d.client, y);
  if (e.subject) {
    doc.font('bold').fontSize(10.5).fillColor(INK).text(t(e.subject, width), left, y, { width });
    y = doc.y + 12;
  }

  // The lines, as the invoice prints them (with the column of the taxes each line bears), and the
  // closing (totals, notes) kept together with the last line, as the invoice's.
  const closing = [totalsBlock(pdf, totalsRows(pdf, e, totals, language), { label: tr('estimate.total', { currency: e.currency }), value: money(totals.amount) })];
  if (e.notes) closing.push(notesBlock(pdf, e.notes));
  y = drawLines(pdf, e, d.lines, totals, language, y, closingHeight(closing));
  await drawClosing(pdf, y, closing);

  footers.draw((page, pages) => tr('estimate.footer', { workspace: d.workspace.name, number: e.number, page, pages }));
  return done();
}
