import type { Decimal } from 'decimal.js';
import { isSEPACountry } from 'ibantools';
import type { InvoiceState } from '../../../db/types.ts';
import { translator } from '../../../i18n/index.ts';
import { epcPayload } from './girocode.ts';
import type { BankAccountRow } from './queries.ts';
import { groupedIban } from './rules.ts';

/**
 * The invoice PDF's "Payment details": the default bank account of the invoice's
 * currency (holder, IBAN in groups of four, BIC, bank, local account), and for an
 * EUR invoice paid into a SEPA IBAN a GiroCode (girocode.ts) that a banking app
 * scans into a transfer with the amount due and the invoice number as reference.
 * Nothing is drawn when the currency has no default account. The account stays on
 * an invoice with nothing left to pay (it is where the money went), but the code
 * and its "scan and pay" do not: they would invite a payment that is not owed.
 *
 * Drawn into the invoice's pdfkit document (billing/invoices/pdf.ts), which has
 * registered the fonts 'body' and 'bold'; `encode` is its text encoder (the built-in
 * fonts only encode Windows-1252). The QR code is drawn as vector squares (error
 * correction M, the EPC's level), so it stays sharp at any zoom and in print.
 */

export interface PaymentDetails {
  account: BankAccountRow | null | undefined;
  currency: string;
  amountDue: Decimal;
  /** The invoice's state: a paid, closed (written off) or voided invoice asks for no payment. */
  state: InvoiceState;
  invoiceNumber: string;
  /** The client's language, in which the document speaks. */
  language: string;
  encode: (text: string, fitWidth?: number) => string;
}

const INK = '#1f2328';
const MUTED = '#6b7280';
/** The code's side in points (about 3.2 cm: the EPC asks for at least 2 cm). */
const QR_SIZE = 92;

/** States in which an invoice asks for no payment, whatever its figures say. */
const SETTLED: ReadonlySet<InvoiceState> = new Set(['paid', 'closed', 'voided']);

/**
 * The GiroCode's text for this invoice, or null when none applies: nothing to pay (no amount
 * due, or paid, closed or voided), not EUR, no IBAN, or an IBAN outside SEPA.
 */
export function girocodeOf(d: Omit<PaymentDetails, 'encode'>): string | null {
  if (!d.amountDue.gt(0) || SETTLED.has(d.state)) return null;
  const a = d.account;
  if (!a?.iban || d.currency !== 'EUR' || a.currency !== 'EUR' || !isSEPACountry(a.iban.slice(0, 2))) return null;
  const text = translator(d.language)('paymentDetails.reference', { number: d.invoiceNumber });
  return epcPayload({ name: a.holder, iban: a.iban, bic: a.bic, amount: d.amountDue, text });
}

/**
 * The block laid out before it is drawn: its exact height (what drawing it takes, so the invoice
 * can keep it on the page of its totals, or move it whole), and `draw(y)`, which draws it from
 * `y` and returns where it ends. Null when nothing is printed (no default account). The caller
 * decides the page; the block never breaks.
 */
export interface PaymentDetailsBlock {
  height: number;
  draw(y: number): Promise<number>;
}

export function paymentDetailsBlock(doc: PDFKit.PDFDocument, d: PaymentDetails): PaymentDetailsBlock | null {
  const a = d.account;
  if (!a) return null;
  const tr = translator(d.language);
  const t = d.encode;
  // The account number (IBAN or local) is what the payer types: bold.
  const rows: Array<[label: string, value: string, strong?: boolean]> = [[tr('paymentDetails.holder'), a.holder]];
  if (a.iban) rows.push([tr('paymentDetails.iban'), groupedIban(a.iban), true]);
  if (a.bic) rows.push([tr('paymentDetails.bic'), a.bic]);
  if (a.bank_name) rows.push([tr('paymentDetails.bank'), a.bank_name]);
  if (a.local_account) rows.push([tr('paymentDetails.account'), a.local_account, true]);
  const payload = girocodeOf(d);

  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.right - left;
  const textW = payload ? width - QR_SIZE - 24 : width;
  doc.font('body').fontSize(9);
  const labelW = Math.min(textW / 3, Math.max(...rows.map(([label]) => doc.widthOfString(t(label)))) + 12);
  const valueW = textW - labelW;
  // Every height measured as it is drawn (same fonts, sizes and widths): an estimate that came
  // out short let pdfkit break the block across pages by itself, one that came out long moved it.
  const heading = t(tr('paymentDetails.heading'));
  doc.font('bold').fontSize(9);
  const headingH = doc.heightOfString(heading, { width: textW, characterSpacing: 0.5 }) + 4;
  const cells = rows.map(([label, value, strong]) => {
    const labelText = t(label);
    const valueText = t(value, valueW);
    doc.font('body').fontSize(9);
    const labelH = doc.heightOfString(labelText, { width: labelW });
    doc.font(strong ? 'bold' : 'body').fontSize(9.5);
    const valueH = doc.heightOfString(valueText, { width: valueW });
    return { labelText, valueText, strong, h: Math.max(13, labelH, valueH) + 2 };
  });
  const textH = headingH + cells.reduce((h, c) => h + c.h, 0);
  const caption = payload ? t(tr('paymentDetails.scan')) : '';
  const captionW = QR_SIZE + 80;
  doc.font('body').fontSize(7);
  const codeH = payload ? QR_SIZE + 4 + doc.heightOfString(caption, { width: captionW }) : 0;
  const height = Math.max(textH, codeH);

  return {
    height,
    async draw(top: number) {
      doc.font('bold').fontSize(9).fillColor(MUTED).text(heading, left, top, { width: textW, characterSpacing: 0.5 });
      let y = top + headingH;
      for (const c of cells) {
        doc.font('body').fontSize(9).fillColor(MUTED).text(c.labelText, left, y, { width: labelW });
        doc.font(c.strong ? 'bold' : 'body').fontSize(9.5).fillColor(INK);
        doc.text(c.valueText, left + labelW, y, { width: valueW });
        y += c.h;
      }
      if (payload) {
        const x = left + width - QR_SIZE;
        await drawQr(doc, payload, x, top, QR_SIZE);
        doc.font('body').fontSize(7).fillColor(MUTED).text(caption, x - 80, top + QR_SIZE + 4, { width: captionW, align: 'right' });
      }
      doc.x = left;
      doc.y = top + height;
      return doc.y;
    },
  };
}

/** The QR code of `text` (byte mode, so UTF-8; error correction M) as filled squares, a row's dark run at a time. */
async function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  // qrcode is loaded with the first payment code, not when the server starts (as pdfkit is).
  const { create } = await import('qrcode');
  const { modules } = create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const n = modules.size;
  const cell = size / n;
  doc.save();
  for (let row = 0; row < n; row++) {
    let col = 0;
    while (col < n) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      // A hair wider than the cell, so anti-aliasing leaves no seams between squares.
      doc.rect(x + start * cell, y + row * cell, (col - start) * cell + 0.05, cell + 0.05);
    }
  }
  doc.fillColor('#000000').fill();
  doc.restore();
}
