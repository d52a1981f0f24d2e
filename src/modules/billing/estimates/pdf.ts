import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { notFound } from '../../../errors.ts';
import { documentLocale } from '../../../i18n/index.ts';
import type { Renderer } from '../../../outbox/worker.ts';
import {
  BAND,
  INK,
  MUTED,
  RULE,
  assertMayUseInvoices,
  drawClient,
  drawSeller,
  drawTotals,
  figureColumnWidth,
  findClient,
  formatDate,
  formatQuantity,
  kindColumnWidth,
  loadSeller,
  openPdf,
  pageFooters,
  totalsRows,
  translatedKind,
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
  const { doc, t, tr, money, left, right, width, bottom, done } = pdf;
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

  // The lines: type, description, quantity, unit price, amount.
  const pad = 5;
  const locale = documentLocale(language);
  const kindW = kindColumnWidth(doc, d.lines, language);
  // The figures' columns fit what they print (the invoice's rule), the description keeps the rest.
  const upper = (key: 'quantity' | 'unitPrice' | 'amount') => t(tr(`invoice.columns.${key}`).toLocaleUpperCase(locale));
  const quantityW = figureColumnWidth(doc, upper('quantity'), d.lines.map((l) => formatQuantity(l.quantity, language)));
  const unitPriceW = figureColumnWidth(doc, upper('unitPrice'), d.lines.map((l) => money(l.unit_price, { unitPrice: true })));
  const amountW = figureColumnWidth(doc, upper('amount'), totals.lineAmounts.map((a) => money(a)), { bold: true });
  const cols = [
    { title: tr('invoice.columns.kind'), w: kindW, align: 'left' as const },
    { title: tr('invoice.columns.description'), w: width - kindW - quantityW - unitPriceW - amountW, align: 'left' as const },
    { title: tr('invoice.columns.quantity'), w: quantityW, align: 'right' as const },
    { title: tr('invoice.columns.unitPrice'), w: unitPriceW, align: 'right' as const },
    { title: tr('invoice.columns.amount'), w: amountW, align: 'right' as const },
  ];
  const tableHeader = () => {
    doc.rect(left, y, width, 20).fill(BAND);
    let x = left;
    for (const c of cols) {
      doc.font('bold').fontSize(8.5).fillColor(MUTED).text(t(c.title.toLocaleUpperCase(locale)), x + pad, y + 6, { width: c.w - 2 * pad, align: c.align });
      x += c.w;
    }
    y += 24;
  };
  tableHeader();
  d.lines.forEach((line, i) => {
    doc.font('body').fontSize(9.5);
    const cells = [
      t(translatedKind(line.kind, language), cols[0].w - 2 * pad),
      t(line.description ?? '', cols[1].w - 2 * pad),
      formatQuantity(line.quantity, language),
      money(line.unit_price, { unitPrice: true }),
      money(totals.lineAmounts[i]),
    ];
    const h = Math.max(...cells.map((c, k) => doc.heightOfString(c || ' ', { width: cols[k].w - 2 * pad }))) + 8;
    if (y + h > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
      tableHeader();
    }
    let x = left;
    cells.forEach((c, k) => {
      doc.font(k === 4 ? 'bold' : 'body').fontSize(9.5).fillColor(INK).text(c, x + pad, y + 3, { width: cols[k].w - 2 * pad, align: cols[k].align });
      x += cols[k].w;
    });
    y += h;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
    y += 2;
  });

  // Totals.
  y = drawTotals(pdf, y, totalsRows(pdf, e, totals, language), { label: tr('estimate.total', { currency: e.currency }), value: money(totals.amount) }, 50);

  if (e.notes) {
    doc.font('bold').fontSize(9).fillColor(MUTED).text(t(tr('invoice.notes')), left, y, { characterSpacing: 0.5 });
    doc.font('body').fontSize(9.5).fillColor(INK).text(t(e.notes, width), left, doc.y + 3, { width });
  }

  footers.draw((page, pages) => tr('estimate.footer', { workspace: d.workspace.name, number: e.number, page, pages }));
  return done();
}
