import { existsSync, readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { notFound } from '../../../errors.ts';
import type { Renderer } from '../../../outbox/worker.ts';
import { formatDate, formatMoney, formatPercent, formatQuantity, pdfFilename } from './format.ts';
import { askedFor, invoiceTotals } from './presenter.ts';
import { findClient, loadWorkspace, type InvoiceRow, type LineRow } from './queries.ts';
import { termLabel, translatedKind } from './rules.ts';
import { documentLocale, translator } from '../../../i18n/index.ts';
import { assertMayUseInvoices, loadInvoice } from './service.ts';
import { printedSubtotal, type Totals } from './totals.ts';
import type { EInvoiceParties } from './e-invoice-data.ts';
import { defaultBankAccount, paymentDetailsBlock, type BankAccountRow } from '../bank-accounts/index.ts';
import { businessName, invoiceLogoOf, invoiceSettingsOf, type InvoiceSettingsState } from '../invoice-settings/index.ts';

/**
 * The invoice as a PDF (pdfkit): the seller (logo, legal name, address, sender
 * details, tax id, VAT id, registration number: invoice settings and workspace
 * settings) and the client (name, address, VAT id), number, dates, payment
 * terms, purchase order, subject, the lines (type, description, quantity with
 * "h" on time lines, unit price, amount; credits negative; when a tax applies,
 * which taxes each line bears, with a legend giving each tax's base), subtotal,
 * discount, taxes, total, payments, amount due and notes, with the settings'
 * footer and a "page i of n" line on every page. Letter paper for USD and CAD
 * invoices, A4 otherwise. Labels are in the client's language (src/i18n).
 *
 * Text uses DejaVu Sans when the system has it (full Latin, Greek, Cyrillic and
 * currency symbols); otherwise the built-in Helvetica, which only encodes
 * Windows-1252, so other characters are printed as "?" rather than garbled.
 */

export const INVOICE_PDF_RENDERER = 'invoice_pdf';

/**
 * The seller as the invoice and the estimate print it, from the invoice settings (the name the
 * business signs with, VAT ID, registration number, logo, footer) and the workspace settings
 * (address, sender e-mail and phone, tax ID).
 */
export interface Seller {
  /** The seller's name: the invoice settings' legal name, else the workspace's name (businessName). */
  name: string;
  address: string | null;
  sender_email?: string | null;
  sender_phone?: string | null;
  tax_id?: string | null;
  vat_id?: string | null;
  registration_number?: string | null;
  /** PNG, JPEG or (cleaned) SVG bytes. */
  logo?: { content_type: string; data: Buffer } | null;
  /** Printed at the foot of every page. */
  footer?: string | null;
}

/** What the PDF prints, and (the parties' parts) what its e-invoice also needs (e-invoice-data.ts). */
export interface InvoiceDocument extends EInvoiceParties {
  invoice: InvoiceRow;
  lines: LineRow[];
  workspace: Seller;
  client: { name: string; address: string | null; language: string; vat_id?: string | null };
  /** The default bank account of the invoice's currency, printed as payment details. */
  bankAccount?: BankAccountRow | null;
}

/** The seller every document of the workspace prints, and the invoice settings it comes from; null when the workspace is gone. */
export async function loadSeller(trx: Tx, companyId: string): Promise<{ seller: Seller; settings: InvoiceSettingsState } | null> {
  const workspace = await loadWorkspace(trx, companyId);
  if (!workspace) return null;
  const settings = await invoiceSettingsOf(trx, companyId);
  const logo = await invoiceLogoOf(trx, companyId);
  const { address, sender_email, sender_phone, tax_id } = workspace;
  return {
    seller: {
      name: businessName(settings, workspace.name),
      address,
      sender_email,
      sender_phone,
      tax_id,
      vat_id: settings.vat_id,
      registration_number: settings.registration_number,
      logo: logo ?? null,
      footer: settings.footer,
    },
    settings,
  };
}

/** The invoice and what its document prints; with `visibleTo`, only an invoice in that principal's reach. */
export async function loadInvoiceDocument(trx: Tx, companyId: string, invoiceId: string, visibleTo?: Principal): Promise<InvoiceDocument> {
  const { row, lines } = await loadInvoice(trx, companyId, invoiceId, { visibleTo });
  const loaded = await loadSeller(trx, companyId);
  const client = await findClient(trx, companyId, row.client_id);
  if (!loaded || !client) throw notFound('invoice');
  const { seller, settings } = loaded;
  const bankAccount = (await defaultBankAccount(trx, companyId, row.currency)) ?? null;
  return {
    invoice: row,
    lines,
    workspace: seller,
    client: { name: client.name, address: client.address, language: client.language, vat_id: client.vat_id },
    bankAccount,
    seller: {
      street: settings.street,
      postal_code: settings.postal_code,
      city: settings.city,
      country_code: settings.country_code,
      contact_name: settings.contact_name,
      vat_exemption_reason: settings.vat_exemption_reason,
    },
    buyer: {
      street: client.street,
      postal_code: client.postal_code,
      city: client.city,
      country_code: client.country_code,
      buyer_reference: client.buyer_reference,
      invoice_email: client.invoice_email,
    },
  };
}

/** GET /invoices/:id/pdf: the document and its download name. */
export async function getInvoicePdf(db: Kysely<DB>, p: Principal, id: string): Promise<{ pdf: Buffer; filename: string }> {
  assertMayUseInvoices(p);
  const doc = await withTenant(db, p.companyId, (trx) => loadInvoiceDocument(trx, p.companyId, id, p));
  return { pdf: await renderInvoicePdf(doc), filename: pdfFilename(doc.invoice.number, doc.client.language) };
}

/** The outbox renderer: the invoice PDF attached to a message, rendered at delivery time. */
export const invoicePdfRenderer: Renderer = async (db, companyId, params) => {
  const doc = await withTenant(db, companyId, (trx) => loadInvoiceDocument(trx, companyId, params.invoice_id));
  return renderInvoicePdf(doc);
};

/** Every renderer the invoice area provides to the outbox worker. */
export const invoiceRenderers: Record<string, Renderer> = { [INVOICE_PDF_RENDERER]: invoicePdfRenderer };

// ---------------------------------------------------------------- fonts

const DEJAVU_DIRS = ['/usr/share/fonts/truetype/dejavu', '/usr/share/fonts/dejavu', '/usr/share/fonts/TTF', '/usr/local/share/fonts'];

interface Fonts {
  regular: string | Buffer;
  bold: string | Buffer;
  unicode: boolean;
}

let fonts: Fonts | undefined;

export function loadFonts(): Fonts {
  if (fonts) return fonts;
  for (const dir of DEJAVU_DIRS) {
    const regular = `${dir}/DejaVuSans.ttf`;
    const bold = `${dir}/DejaVuSans-Bold.ttf`;
    if (existsSync(regular) && existsSync(bold)) {
      try {
        fonts = { regular: readFileSync(regular), bold: readFileSync(bold), unicode: true };
        return fonts;
      } catch {
        // unreadable: fall through to the built-in fonts
      }
    }
  }
  fonts = { regular: 'Helvetica', bold: 'Helvetica-Bold', unicode: false };
  return fonts;
}

/** Characters Windows-1252 (the built-in fonts' encoding) has beyond Latin-1. */
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

export function winAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    out += c === 10 || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || CP1252_EXTRA.has(ch) ? ch : c === 9 ? ' ' : c === 0x202f ? '\u00a0' : '?';
  }
  return out;
}

// ---------------------------------------------------------------- long words

/** Longer runs of non-space characters are measured; shorter ones always fit a column. */
const LONG_WORD = 12;
const HAS_LONG_WORD = new RegExp(`\\S{${LONG_WORD}}`);
const LONG_WORDS = new RegExp(`\\S{${LONG_WORD},}`, 'g');

/**
 * Hard-breaks words wider than `width` (in the document's current font and
 * size) into pieces that fit, joined by line breaks. pdfkit breaks such a word
 * itself, but by re-measuring ever shorter prefixes: a 10,000-character word
 * took seconds to lay out (quadratic); measured here one character at a time
 * (cached), it is linear.
 */
export function breakLongWords(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (!HAS_LONG_WORD.test(text)) return text;
  const state = doc as unknown as { _font?: { name?: string }; _fontSize?: number };
  const key = `${state._font?.name ?? ''}|${state._fontSize ?? 0}|`;
  const limit = width * 0.98;
  return text.replace(LONG_WORDS, (word) => {
    if (doc.widthOfString(word) <= limit) return word;
    const pieces: string[] = [];
    let piece = '';
    let used = 0;
    for (const ch of word) {
      const w = charWidth(doc, key, ch);
      if (piece && used + w > limit) {
        pieces.push(piece);
        piece = '';
        used = 0;
      }
      piece += ch;
      used += w;
    }
    if (piece) pieces.push(piece);
    return pieces.join('\n');
  });
}

const charWidths = new Map<string, number>();

function charWidth(doc: PDFKit.PDFDocument, fontKey: string, ch: string): number {
  const k = fontKey + ch;
  let w = charWidths.get(k);
  if (w === undefined) {
    w = doc.widthOfString(ch);
    if (charWidths.size < 50_000) charWidths.set(k, w);
  }
  return w;
}

// ---------------------------------------------------------------- layout

export const INK = '#1f2328';
export const MUTED = '#6b7280';
export const RULE = '#d0d7de';
export const BAND = '#f3f4f6';
/** The mark of a voided invoice. */
const VOID_RED = '#b42318';

const FOOTER_SIZE = 7.5;
/** The settings' footer takes at most this much of every page (2,000 characters fit; longer layouts are cut). */
const FOOTER_MAX_HEIGHT = 90;
const LOGO_BOX: [number, number] = [160, 56];

/**
 * Draws the logo into a box at the top left and returns where it ends. PNG and
 * JPEG through pdfkit, SVG (cleaned when uploaded) through svg-to-pdfkit. A logo
 * that cannot be drawn is left out rather than failing the invoice.
 */
function drawLogo(doc: PDFKit.PDFDocument, logo: { content_type: string; data: Buffer }, x: number, y: number): number | null {
  try {
    if (logo.content_type === 'image/svg+xml') {
      SVGtoPDF(doc as never, logo.data.toString('utf8'), x, y, {
        width: LOGO_BOX[0],
        height: LOGO_BOX[1],
        preserveAspectRatio: 'xMinYMin meet',
        warningCallback: () => undefined,
      });
      return y + LOGO_BOX[1];
    }
    const image = (doc as unknown as { openImage(src: Buffer): { width: number; height: number } }).openImage(logo.data);
    const scale = Math.min(LOGO_BOX[0] / image.width, LOGO_BOX[1] / image.height);
    doc.image(image as never, x, y, { width: image.width * scale, height: image.height * scale });
    return y + image.height * scale;
  } catch {
    return null;
  }
}

interface LineTax {
  marker: string;
  /** The tax's label as the totals print it, e.g. "Tax (20%)". */
  label: (language: string) => string;
  applies: (line: Pick<PrintedLine, 'taxed' | 'taxed2'>) => boolean;
  /** What the tax is charged on: its lines' signed amounts after the discount. */
  base: Decimal;
}

/** A document's two tax rates. */
type TaxRates = { tax: string | null; tax2: string | null };

/** The taxes of the document (a rate above zero), each with its lines and base. */
function lineTaxes(inv: TaxRates, totals: Totals): LineTax[] {
  const out: LineTax[] = [];
  if (Number(inv.tax ?? 0) > 0) {
    out.push({ marker: '1', label: (language) => translator(language)('invoice.tax', { percent: formatPercent(inv.tax!, language) }), applies: (l) => l.taxed, base: totals.taxBase });
  }
  if (Number(inv.tax2 ?? 0) > 0) {
    out.push({ marker: '2', label: (language) => translator(language)('invoice.tax2', { percent: formatPercent(inv.tax2!, language) }), applies: (l) => l.taxed2, base: totals.tax2Base });
  }
  return out;
}

/**
 * A new document as the invoice and the estimate print it, for its client: Letter paper for USD
 * and CAD, A4 otherwise, the fonts registered as `body` and `bold`, and what drawing needs (`tr`:
 * the client's language; `t`: text encoded for the font and, with a width, long words broken to
 * fit it; `money`: an amount in the document's currency, written as the client's language writes
 * it; the page's edges). The document's title (`titleKey` with its number) is its metadata's
 * title, and its subject unless it has one. `done` ends the document and gives its bytes.
 */
export function openPdf(
  document: { number: string; subject: string | null; currency: string },
  titleKey: 'invoice.title' | 'estimate.title',
  to: { client: { language: string }; workspace: { name: string } },
) {
  const language = to.client.language;
  const tr = translator(language);
  const title = tr(titleKey, { number: document.number });
  const f = loadFonts();
  const encode = f.unicode ? (s: string) => s : winAnsi;
  const doc = new PDFDocument({
    size: document.currency === 'USD' || document.currency === 'CAD' ? 'LETTER' : 'A4',
    margins: { top: 50, bottom: 60, left: 50, right: 50 },
    bufferPages: true,
    info: { Title: title, Author: to.workspace.name, Subject: document.subject ?? title },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Uint8Array) => chunks.push(Buffer.from(c)));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  doc.registerFont('body', f.regular as never);
  doc.registerFont('bold', f.bold as never);
  const t = (s: string, fitWidth?: number) => (fitWidth === undefined ? encode(s) : breakLongWords(doc, encode(s), fitWidth));
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const done = async () => {
    doc.end();
    await finished;
    return Buffer.concat(chunks);
  };
  const money = (v: { toFixed(): string } | string, opts?: { unitPrice?: boolean }) =>
    encode(formatMoney(typeof v === 'string' ? v : v.toFixed(), document.currency, { ...opts, language }));
  return { doc, encode, t, tr, money, left, right, width: right - left, bottom: () => doc.page.height - doc.page.margins.bottom, done };
}

type OpenPdf = ReturnType<typeof openPdf>;
export interface TotalsRow {
  label: string;
  value: string;
  strong?: boolean;
}

/**
 * The width of a document's Type column: as wide as the longest word of its lines' kinds (German
 * "Vorauszahlung" broke mid-word at the old fixed 64 pt), from 64 up to 90 pt; a longer category
 * name breaks (breakLongWords) rather than taking the description's width. 14 pt: the cell's
 * padding (2 × 5) and the slack pdfkit's line breaking needs. Leaves the font at the cells' (body, 9.5).
 */
export function kindColumnWidth(doc: PDFKit.PDFDocument, lines: Array<{ kind: string }>, language: string): number {
  doc.font('body').fontSize(9.5);
  const words = lines.flatMap((line) => translatedKind(line.kind, language).split(/\s+/));
  return Math.min(90, Math.max(64, ...words.map((word) => Math.ceil(doc.widthOfString(word)) + 14)));
}

/**
 * The width of a figures column (quantity, unit price, amount): its title (bold 8.5, upper-case, as
 * the header prints it) or its widest value (9.5, bold for amounts), whichever is wider, plus 14 pt
 * as for the Type column. Fixed widths sized for the longest figure left the description a quarter
 * of the table; fitted to what is printed, the description keeps the rest.
 */
export function figureColumnWidth(doc: PDFKit.PDFDocument, title: string, values: string[], { bold = false } = {}): number {
  doc.font('bold').fontSize(8.5);
  const titleW = doc.widthOfString(title, { characterSpacing: 0.3 });
  doc.font(bold ? 'bold' : 'body').fontSize(9.5);
  return Math.ceil(Math.max(titleW, ...values.map((v) => doc.widthOfString(v)))) + 14;
}

/**
 * The totals' rows both documents begin with: the subtotal, then the discount and each tax the
 * document has, then an invoice's retainer credit.
 */
export function totalsRows(
  { tr, money }: OpenPdf,
  document: { discount: string | null; tax: string | null; tax2: string | null },
  totals: Totals,
  language: string,
): TotalsRow[] {
  const percent = (x: string) => formatPercent(x, language);
  // A credit drawing on a retainer is money paid before (untaxed, outside the discount): printed
  // after the taxes, so the subtotal above the discount and taxes is that of the work and never
  // reads negative when the credit covers the taxes too. The API's subtotal keeps the spec's sum.
  const drawn = totals.retainerCredit;
  const rows: TotalsRow[] = [{ label: tr('invoice.subtotal'), value: money(printedSubtotal(totals)) }];
  if (Number(document.discount ?? 0) > 0) rows.push({ label: tr('invoice.discount', { percent: percent(document.discount!) }), value: money(totals.discountAmount.neg()) });
  if (Number(document.tax ?? 0) > 0) rows.push({ label: tr('invoice.tax', { percent: percent(document.tax!) }), value: money(totals.taxAmount) });
  if (Number(document.tax2 ?? 0) > 0) rows.push({ label: tr('invoice.tax2', { percent: percent(document.tax2!) }), value: money(totals.tax2Amount) });
  if (drawn.gt(0)) rows.push({ label: tr('invoice.retainerCredit'), value: money(drawn.neg()) });
  return rows;
}

/**
 * A block of a document's closing (totals, notes, payment details), laid out before it is drawn:
 * its exact height, and `draw(y)`, which draws it from `y` and returns where it ends. A block
 * that `flows` (notes) may continue on the next pages when it is taller than a page; the others
 * are never broken.
 */
export interface ClosingBlock {
  height: number;
  draw(y: number): number | Promise<number>;
  flows?: boolean;
}

/** The space between two blocks of the closing, and between the table and a flowing block. */
const CLOSING_GAP = 16;

/** The height the closing's blocks take on one page, with the gaps between them. */
export function closingHeight(blocks: ClosingBlock[]): number {
  return blocks.reduce((h, b) => h + b.height, 0) + CLOSING_GAP * Math.max(0, blocks.length - 1);
}

/**
 * The totals box at the right edge: the rows, then a band with the amount the document comes to
 * (an invoice's amount due, an estimate's total).
 */
export function totalsBlock({ doc, t, right }: OpenPdf, rows: TotalsRow[], band: { label: string; value: string }): ClosingBlock {
  const pad = 5;
  const boxW = 250;
  const boxX = right - boxW;
  return {
    // 10 above the rows, 17 a row, the band (2 + 26).
    height: 10 + 17 * rows.length + 28,
    draw(y) {
      y += 10;
      for (const r of rows) {
        doc.font(r.strong ? 'bold' : 'body').fontSize(10).fillColor(INK);
        doc.text(t(r.label), boxX, y, { width: boxW - 110 });
        doc.text(r.value, boxX + boxW - 110, y, { width: 110, align: 'right' });
        y += 17;
      }
      doc.rect(boxX, y + 2, boxW, 26).fill(BAND);
      doc.font('bold').fontSize(12).fillColor(INK).text(t(band.label), boxX + pad, y + 9, { width: boxW - 120 });
      doc.text(band.value, boxX + boxW - 120, y + 9, { width: 120 - pad, align: 'right' });
      return y + 28;
    },
  };
}

/** The document's notes under their heading, across the page's width; they flow onto the next pages when longer than one. */
export function notesBlock({ doc, t, tr, left, width }: OpenPdf, notes: string): ClosingBlock {
  const heading = t(tr('invoice.notes'));
  const text = t(notes, width);
  doc.font('bold').fontSize(9);
  const headingH = doc.heightOfString(heading, { width, characterSpacing: 0.5 });
  doc.font('body').fontSize(9.5);
  return {
    height: headingH + 3 + doc.heightOfString(text, { width }),
    flows: true,
    draw(y) {
      doc.font('bold').fontSize(9).fillColor(MUTED).text(heading, left, y, { width, characterSpacing: 0.5 });
      doc.font('body').fontSize(9.5).fillColor(INK).text(text, left, doc.y + 3, { width });
      return doc.y;
    },
  };
}

/**
 * The closing from `y`, after the lines: its blocks stay together on one page, this one when they
 * fit, else the next (drawLines has carried the last line there, so a page never holds the closing
 * alone when a line could come with it). A closing taller than a page is placed a block at a time:
 * a block that does not fit goes whole to the next page, notes taller than a page flow.
 * Returns where it ends.
 */
export async function drawClosing({ doc, bottom }: OpenPdf, y: number, blocks: ClosingBlock[]): Promise<number> {
  const top = doc.page.margins.top;
  const newPage = () => {
    doc.addPage();
    return doc.page.margins.top;
  };
  const total = closingHeight(blocks);
  if (y > top && y + total > bottom() && total <= bottom() - top) y = newPage();
  for (const [i, block] of blocks.entries()) {
    if (i > 0) y += CLOSING_GAP;
    const fitsAPage = block.height <= bottom() - top;
    if (y > top && y + block.height > bottom() && (fitsAPage || !block.flows)) y = newPage();
    y = await block.draw(y);
  }
  doc.x = doc.page.margins.left;
  doc.y = y;
  return y;
}

/**
 * The seller's block at the top left, as both documents print it: the logo, the name, the
 * address, then the sender details (a tax number, VAT ID and registration number are required
 * on invoices in many countries, and an estimate names the same business). Returns where it ends.
 */
export function drawSeller({ doc, t, tr, left, width }: OpenPdf, seller: Seller): number {
  const w = width * 0.42;
  const logoBottom = seller.logo ? drawLogo(doc, seller.logo, left, 50) : null;
  doc.fillColor(INK).font('bold').fontSize(16);
  doc.text(t(seller.name, w), left, logoBottom === null ? 50 : logoBottom + 8, { width: w });
  const details = [
    seller.address,
    seller.sender_email,
    seller.sender_phone,
    seller.tax_id ? tr('invoice.taxId', { id: seller.tax_id }) : null,
    seller.vat_id ? tr('invoice.vatId', { id: seller.vat_id }) : null,
    seller.registration_number ? tr('invoice.registrationNumber', { number: seller.registration_number }) : null,
  ];
  for (const line of details.filter((x): x is string => Boolean(x))) {
    doc.font('body').fontSize(9).fillColor(MUTED);
    doc.text(t(line, w), { width: w });
  }
  return doc.y;
}

/** The client's block from `y` under its heading ("BILL TO", "PREPARED FOR"): name, address, VAT ID. Returns where the text below starts. */
export function drawClient({ doc, t, tr, left, width }: OpenPdf, heading: string, client: { name: string; address: string | null; vat_id?: string | null }, y: number): number {
  const w = width * 0.6;
  doc.font('body').fontSize(9).fillColor(MUTED).text(t(heading), left, y, { characterSpacing: 0.5 });
  doc.font('bold').fontSize(11).fillColor(INK);
  doc.text(t(client.name, w), left, doc.y + 2, { width: w });
  doc.font('body').fontSize(9.5);
  if (client.address) doc.text(t(client.address, w), { width: w });
  if (client.vat_id) doc.text(t(tr('invoice.vatId', { id: client.vat_id }), w), { width: w });
  return doc.y + 14;
}

/**
 * The foot of every page: the settings' footer (when set) above a page line. Called before
 * anything is drawn, it makes the text area of every page end above the footer; `draw`, called
 * last, writes both on every page (`pageLine` gives the page's line from its number and the count).
 */
export function pageFooters({ doc, t, left, width }: OpenPdf, footer: string | null | undefined) {
  const footerText = footer ? t(footer, width) : null;
  doc.font('body').fontSize(FOOTER_SIZE);
  const footerHeight = footerText ? Math.min(doc.heightOfString(footerText, { width }), FOOTER_MAX_HEIGHT) + 6 : 0;
  if (footerHeight > 0) {
    doc.page.margins.bottom += footerHeight;
    doc.options.margins = { ...doc.page.margins };
  }
  return {
    draw(pageLine: (page: number, pages: number) => string) {
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i++) {
        doc.switchToPage(i);
        const savedBottom = doc.page.margins.bottom;
        doc.page.margins.bottom = 0;
        if (footerText) {
          doc.font('body').fontSize(FOOTER_SIZE).fillColor(MUTED);
          doc.text(footerText, left, doc.page.height - 44 - footerHeight, { width, height: FOOTER_MAX_HEIGHT, align: 'center', ellipsis: true });
        }
        doc.font('body').fontSize(8).fillColor(MUTED).text(t(pageLine(i + 1, range.count)), left, doc.page.height - 40, { width, align: 'center', lineBreak: false });
        doc.page.margins.bottom = savedBottom;
      }
    },
  };
}

/** A line as the documents' table prints it (an invoice's; an estimate's has no effect or source). */
export interface PrintedLine {
  kind: string;
  description: string | null;
  quantity: string;
  unit_price: string;
  taxed: boolean;
  taxed2: boolean;
  effect?: 'charge' | 'credit';
  import_source?: 'time' | 'expense' | null;
}

/**
 * The lines table both documents print, from `y`: type, description, quantity (time lines in
 * hours), unit price, amount and, with a tax on the document, a last column marking the taxes
 * each line bears, with its legend; a description taller than a page flows onto the next pages.
 * `keepWithLast` is the height of what must follow the last line on its page (the closing): when
 * it does not fit below, the last line goes to the next page with it (under the repeated header),
 * so the totals and payment details never stand on a page without a line. Returns where it ends.
 */
export function drawLines(pdf: OpenPdf, document: TaxRates, lines: PrintedLine[], totals: Totals, language: string, y: number, keepWithLast = 0): number {
  const { doc, t, tr, money, left, right, width, bottom } = pdf;
  const taxes = lineTaxes(document, totals);
  // As wide as its title ("STEUER" is wider than "TAX"), which must not wrap.
  doc.font('bold').fontSize(8.5);
  const taxTitle = t(tr('invoice.columns.taxes').toLocaleUpperCase(documentLocale(language)));
  const taxW = taxes.length > 0 ? Math.max(36, Math.ceil(doc.widthOfString(taxTitle, { characterSpacing: 0.3 })) + 14) : 0;
  const kindW = kindColumnWidth(doc, lines, language);
  const upper = (key: 'quantity' | 'unitPrice' | 'amount') => t(tr(`invoice.columns.${key}`).toLocaleUpperCase(documentLocale(language)));
  // Time lines are hours: their unit is printed with the quantity.
  const quantityText = (line: PrintedLine) =>
    line.import_source === 'time' ? t(tr('invoice.hours', { quantity: formatQuantity(line.quantity, language) })) : formatQuantity(line.quantity, language);
  const amountText = (line: PrintedLine, i: number) => (line.effect === 'credit' ? money(totals.lineAmounts[i].neg()) : money(totals.lineAmounts[i]));
  const quantityW = figureColumnWidth(doc, upper('quantity'), lines.map(quantityText));
  const unitPriceW = figureColumnWidth(doc, upper('unitPrice'), lines.map((l) => money(l.unit_price, { unitPrice: true })));
  const amountW = figureColumnWidth(doc, upper('amount'), lines.map(amountText), { bold: true });
  const cols = [
    { key: 'kind', title: tr('invoice.columns.kind'), w: kindW, align: 'left' as const },
    { key: 'description', title: tr('invoice.columns.description'), w: width - kindW - quantityW - unitPriceW - amountW - taxW, align: 'left' as const },
    { key: 'quantity', title: tr('invoice.columns.quantity'), w: quantityW, align: 'right' as const },
    { key: 'unit_price', title: tr('invoice.columns.unitPrice'), w: unitPriceW, align: 'right' as const },
    { key: 'amount', title: tr('invoice.columns.amount'), w: amountW, align: 'right' as const },
    ...(taxW > 0 ? [{ key: 'taxes', title: tr('invoice.columns.taxes'), w: taxW, align: 'right' as const }] : []),
  ];
  const pad = 5;
  // The legend of the tax column: each tax, its marker and the amount it is charged on (after the discount).
  doc.font('body').fontSize(8);
  const legendText =
    taxes.length > 0
      ? t([tr('invoice.taxLegend'), ...taxes.map((x) => tr('invoice.taxLegendItem', { marker: x.marker, tax: x.label(language), base: money(x.base) }))].join('  '), width)
      : null;
  // 4 above the legend, 2 below it.
  const legendH = legendText ? doc.heightOfString(legendText, { width }) + 6 : 0;
  const HEADER_H = 24;
  let rowsOnPage = 0;
  const header = () => {
    rowsOnPage = 0;
    doc.rect(left, y, width, 20).fill(BAND);
    let x = left;
    for (const c of cols) {
      doc.font('bold').fontSize(8.5).fillColor(MUTED).text(t(c.title.toLocaleUpperCase(documentLocale(language))), x + pad, y + 6, { width: c.w - 2 * pad, align: c.align, characterSpacing: 0.3 });
      x += c.w;
    }
    y += HEADER_H;
  };
  header();
  const colX = (key: string) => left + cols.slice(0, cols.findIndex((c) => c.key === key)).reduce((sum, c) => sum + c.w, 0);
  lines.forEach((line, i) => {
    doc.font('body').fontSize(9.5);
    const cellWidth = (key: string) => cols.find((c) => c.key === key)!.w - 2 * pad;
    const cells: Record<string, string> = {
      kind: t(translatedKind(line.kind, language), cellWidth('kind')),
      description: t(line.description ?? '', cellWidth('description')),
      quantity: quantityText(line),
      taxes: taxes.filter((x) => x.applies(line)).map((x) => x.marker).join(' ') || '–',
      unit_price: money(line.unit_price, { unitPrice: true }),
      amount: amountText(line, i),
    };
    const h = Math.max(...cols.map((c) => doc.heightOfString(cells[c.key] || ' ', { width: c.w - 2 * pad }))) + 8;
    // The last line, the legend and the closing (with the rule under the line) together, when they fit on one page.
    const tail = i === lines.length - 1 ? h + 2 + legendH + keepWithLast : 0;
    const keepsTogether = tail > 0 && rowsOnPage > 0 && y + tail > bottom() && doc.page.margins.top + HEADER_H + tail <= bottom();
    if (y + h > bottom() || keepsTogether) {
      doc.addPage();
      y = doc.page.margins.top;
      header();
    }
    // A line taller than a page: its description flows onto the next pages (pdfkit
    // continues the text there); the figures stay on the row's first page and the
    // table goes on below the end of the description.
    const rowPage = doc.bufferedPageRange().count - 1;
    let flowed: { page: number; y: number } | null = null;
    for (const c of cols) {
      if (flowed) doc.switchToPage(rowPage);
      doc.font(c.key === 'amount' ? 'bold' : 'body').fontSize(9.5).fillColor(line.effect === 'credit' && c.key === 'amount' ? '#b42318' : INK);
      doc.text(cells[c.key], colX(c.key) + pad, y + 3, { width: c.w - 2 * pad, align: c.align });
      const last = doc.bufferedPageRange().count - 1;
      if (!flowed && last > rowPage) flowed = { page: last, y: doc.y };
    }
    if (flowed) doc.switchToPage(flowed.page);
    y = flowed ? flowed.y + 5 : y + h;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
    y += 2;
    rowsOnPage++;
  });
  if (lines.length === 0) {
    doc.font('body').fontSize(9.5).fillColor(MUTED).text(t(tr('invoice.noLines')), left + pad, y + 4);
    y = doc.y + 6;
  }
  if (legendText) {
    if (y + legendH > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc.font('body').fontSize(8).fillColor(MUTED).text(legendText, left, y + 4, { width });
    y = doc.y + 2;
  }

  return y;
}

export async function renderInvoicePdf(d: InvoiceDocument): Promise<Buffer> {
  const inv = d.invoice;
  const totals: Totals = invoiceTotals(inv, d.lines);
  // The document speaks the client's language (labels, dates, numbers); what people typed prints as typed.
  const language = d.client.language;
  const pdf = openPdf(inv, 'invoice.title', d);
  const { doc, t, tr, money, left, right, width, done } = pdf;
  const date = (x: string) => formatDate(x, language);
  const voided = inv.state === 'voided';

  const footers = pageFooters(pdf, d.workspace.footer);

  // -- header: the seller (logo, name, details; left), "INVOICE" and the facts (right)
  const leftBottom = drawSeller(pdf, d.workspace);

  const factsX = left + width * 0.45;
  const factsW = right - factsX;
  doc.fillColor(INK).font('bold').fontSize(22).text(t(tr('invoice.heading')), factsX, 46, { width: factsW, align: 'right' });
  // A voided invoice says so where it is read first: a copy of it must never pass for a bill.
  if (voided) doc.fillColor(VOID_RED).font('bold').fontSize(14).text(t(tr('invoice.voided')), factsX, doc.y, { width: factsW, align: 'right', characterSpacing: 1 });
  doc.moveDown(0.3);
  const facts: Array<[string, string]> = [
    [tr('invoice.number'), inv.number],
    [tr('invoice.issueDate'), date(inv.issue_date)],
    [tr('invoice.dueDate'), date(inv.due_date)],
    [tr('invoice.paymentTerms'), termLabel(inv.payment_term, inv.issue_date, inv.due_date, language)],
  ];
  if (inv.purchase_order) facts.push([tr('invoice.purchaseOrder'), inv.purchase_order]);
  // Each day's words held together (no-break spaces): a period too long for the column breaks
  // after its dash, never inside a day ("30. November 2026 – 6." over "Dezember 2026").
  const period = (from: string | null, to: string | null) => [from, to].map((x) => (x ? date(x).replaceAll(' ', '\u00a0') : '…')).join(' – ');
  if (inv.service_period_start || inv.service_period_end) {
    facts.push([tr('invoice.servicePeriod'), period(inv.service_period_start, inv.service_period_end)]);
  } else if (inv.period_start || inv.period_end) {
    facts.push([tr('invoice.period'), period(inv.period_start, inv.period_end)]);
  }
  let y = doc.y;
  // The label column is as wide as its longest label (German ones are longer), within half the column.
  doc.font('body').fontSize(9);
  const labelW = Math.min(factsW / 2, Math.max(85, ...facts.map(([label]) => doc.widthOfString(t(label)) + 8)));
  for (const [label, value] of facts) {
    doc.font('body').fontSize(9).fillColor(MUTED).text(t(label), factsX, y, { width: labelW });
    doc.font('bold').fontSize(9).fillColor(INK);
    doc.text(t(value, factsW - labelW), factsX + labelW, y, { width: factsW - labelW, align: 'right' });
    y = Math.max(doc.y, y + 13);
  }
  y = Math.max(y, leftBottom) + 22;

  // -- bill to, subject
  y = drawClient(pdf, tr('invoice.billTo'), d.client, y);
  if (inv.subject) {
    doc.font('bold').fontSize(10.5).fillColor(INK);
    doc.text(t(inv.subject, width), left, y, { width });
    y = doc.y + 12;
  }

  // -- the closing: totals, notes, and the payment details (the bank account of the currency, and
  // a GiroCode for EUR while something is owed: billing/bank-accounts), measured first so they
  // stay together, with the last line, on one page.
  const rows = totalsRows(pdf, inv, totals, language);
  rows.push({ label: tr('invoice.total', { currency: inv.currency }), value: money(totals.amount), strong: true });
  if (Number(inv.paid_total) > 0) rows.push({ label: tr('invoice.paid'), value: money(`-${inv.paid_total}`) });
  const closing: ClosingBlock[] = [totalsBlock(pdf, rows, { label: tr('invoice.amountDue'), value: money(askedFor(inv, totals)) })];
  if (inv.notes) closing.push(notesBlock(pdf, inv.notes));
  const payment = voided
    ? null
    : paymentDetailsBlock(doc, { account: d.bankAccount, currency: inv.currency, amountDue: totals.dueAmount, state: inv.state, invoiceNumber: inv.number, language, encode: t });
  if (payment) closing.push(payment);

  y = drawLines(pdf, inv, d.lines, totals, language, y, closingHeight(closing));
  await drawClosing(pdf, y, closing);

  footers.draw((page, pages) => tr('invoice.footer', { workspace: d.workspace.name, number: inv.number, page, pages }));
  return done();
}
