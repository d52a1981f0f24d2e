import { InvoiceService, type Logger } from '@e-invoice-eu/core';
import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant } from '../../../db/tenant.ts';
import { documentLocale } from '../../../i18n/index.ts';
import type { Renderer } from '../../../outbox/worker.ts';
import { assertComplete, attachmentFormat, E_INVOICE_RENDERER, eInvoiceData, eInvoiceFilename, type EInvoiceAttachment, type EInvoiceFormat, type EInvoiceProfile, type EInvoiceSyntax } from './e-invoice-data.ts';
import { pdfFilename } from './format.ts';
import { loadInvoiceDocument, renderInvoicePdf, type InvoiceDocument } from './pdf.ts';
import { assertMayUseInvoices } from './service.ts';

/**
 * The invoice's e-invoices: EN 16931 as CII (UN/CEFACT D16B) or UBL 2.1 XML, the
 * XRechnung 3.0 profile of either, and Factur-X (EN 16931 profile): the invoice's
 * PDF made PDF/A-3 with the CII XML embedded as factur-x.xml. @e-invoice-eu/core
 * writes the syntaxes and the PDF/A (docs/decisions.md, "E-invoices"); what the
 * invoice says, and what it lacks, is e-invoice-data.ts.
 */

const LIBRARY_FORMATS: Record<`${EInvoiceSyntax}:${EInvoiceProfile}`, string> = {
  'cii:en16931': 'CII',
  'ubl:en16931': 'UBL',
  'cii:xrechnung': 'XRECHNUNG-CII',
  'ubl:xrechnung': 'XRECHNUNG-UBL',
};

/** The library's own warnings (e.g. about its deprecations) are not the caller's business. */
const quiet: Logger = { log: () => {}, warn: () => {}, error: () => {} };
const service = new InvoiceService(quiet);

/**
 * The library checks its input against its JSON schema. A complete document (missingFields) always
 * passes, so a refusal is our bug: a plain 500 carrying the schema's findings for the log, not the
 * library's error, whose `validation` property Fastify would take for a request validation error.
 */
async function generate(...args: Parameters<InvoiceService['generate']>) {
  try {
    return await service.generate(...args);
  } catch (err) {
    const findings = (err as { errors?: unknown }).errors;
    throw new Error(`The e-invoice writer refused the invoice: ${findings ? JSON.stringify(findings).slice(0, 2000) : String(err)}`, { cause: err });
  }
}

/** The e-invoice of a loaded document: a 422 naming every missing field before anything is written. */
export async function renderEInvoice(doc: InvoiceDocument, format: EInvoiceFormat): Promise<Buffer> {
  const profile = format.kind === 'facturx' ? 'en16931' : format.profile;
  assertComplete(doc, profile);
  const language = doc.client.language;
  const data = eInvoiceData(doc, profile, language);
  const lang = documentLocale(language).toLowerCase();
  if (format.kind === 'facturx') {
    const pdf = await renderInvoicePdf(doc);
    const out = await generate(data, {
      format: 'Factur-X-EN16931',
      lang,
      pdf: { buffer: pdf, filename: pdfFilename(doc.invoice.number), mimetype: 'application/pdf' },
    });
    return Buffer.from(out as Uint8Array);
  }
  const xml = await generate(data, { format: LIBRARY_FORMATS[`${format.syntax}:${format.profile}`], lang });
  return Buffer.from(xml as string, 'utf8');
}

/** GET /invoices/:id/xml and /pdf?format=facturx: the file, its name and its type. */
export async function getEInvoice(db: Kysely<DB>, p: Principal, id: string, format: EInvoiceFormat) {
  assertMayUseInvoices(p);
  const doc = await withTenant(db, p.companyId, (trx) => loadInvoiceDocument(trx, p.companyId, id, p));
  return {
    body: await renderEInvoice(doc, format),
    filename: eInvoiceFilename(doc.invoice.number, format),
  };
}

/** The outbox renderer of an e-invoice attached to a message (the format is in the attachment's params). */
const eInvoiceRenderer: Renderer = async (db, companyId, params) => {
  const doc = await withTenant(db, companyId, (trx) => loadInvoiceDocument(trx, companyId, params.invoice_id));
  return renderEInvoice(doc, attachmentFormat(params.format as EInvoiceAttachment));
};

export const eInvoiceRenderers: Record<string, Renderer> = { [E_INVOICE_RENDERER]: eInvoiceRenderer };
