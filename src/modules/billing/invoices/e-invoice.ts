import { FormatFactoryService, invoiceSchema, type Invoice, type InvoiceServiceOptions, type Logger } from '@e-invoice-eu/core';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';
import { XMLBuilder } from 'fast-xml-parser';
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
const formats = new FormatFactoryService();
const validators = new Map<string, ValidateFunction>();

/** Text and attribute values escaped as the library's xmlbuilder2 does (&, <, >); the builder adds the quotes' entities to attribute values. */
const escapeXml = (_name: string, value: unknown) => String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const xmlBuilder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#',
  format: true,
  indentBy: '\t',
  suppressEmptyNode: true,
  processEntities: false,
  tagValueProcessor: escapeXml,
  attributeValueProcessor: escapeXml,
});

/** xmlbuilder2 reads an element given as `{ '#': { '#': text, '@attr': value } }` as the inner object; fast-xml-parser is given that object. */
function unwrapText(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(unwrapText);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node);
  if (entries.length === 1 && entries[0]![0] === '#' && typeof entries[0]![1] === 'object' && entries[0]![1] !== null) return unwrapText(entries[0]![1]);
  return Object.fromEntries(entries.map(([key, value]) => [key, unwrapText(value)]));
}

/**
 * The library's renderXML (its object tree written through xmlbuilder2's DOM, tab-indented),
 * written with fast-xml-parser's builder instead: the same bytes (test/e-invoices.test.ts
 * compares them with the library's own output), but ~25 ms instead of ~380 ms for a 500-line
 * invoice, which was most of a Factur-X render (docs/decisions.md "E-invoices"). The one
 * difference: an apostrophe in an attribute value is written as &apos; (xmlbuilder2 keeps it).
 */
function renderXml(this: { cleanAttributes(data: object): void }, data: object): string {
  this.cleanAttributes(data);
  return `<?xml version="1.0" encoding="utf-8"?>\n${xmlBuilder.build(unwrapText(data)).trimEnd()}`;
}

/**
 * The library's InvoiceService.generate, with two changes. The XML is written by renderXml above.
 * The JSON schema of each format is compiled once, not on every call (the library builds a new Ajv and compiles the whole invoice
 * schema each time, about half the time of a 500-line invoice; docs/decisions.md "E-invoices").
 * The steps are the library's: its schema patched by the format, the same Ajv options, the
 * format's defaults, the format's writer.
 */
async function generate(input: Invoice, options: InvoiceServiceOptions) {
  const writer = formats.createFormatService(options.format, quiet);
  const format = formats.normalizeFormat(options.format);
  let validate = validators.get(format);
  if (!validate) {
    const schema = structuredClone(invoiceSchema);
    writer.patchSchema(schema);
    validate = new Ajv2019({ strict: true, allErrors: true, useDefaults: true }).compile(schema) as ValidateFunction;
    validators.set(format, validate);
  }
  const invoice = structuredClone(input);
  // A complete document (missingFields) always passes, so a refusal is our bug: a plain 500 with
  // the schema's findings for the log (the library's own error would pass for a request validation
  // error in Fastify).
  if (!validate(invoice)) throw new Error(`The e-invoice writer refused the invoice: ${JSON.stringify(validate.errors).slice(0, 2000)}`);
  writer.fillInvoiceDefaults(invoice);
  Object.assign(writer, { renderXML: renderXml });
  return writer.generate(invoice, { ...options, format });
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
      pdf: { buffer: pdf, filename: pdfFilename(doc.invoice.number, language), mimetype: 'application/pdf' },
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
    filename: eInvoiceFilename(doc.invoice.number, format, doc.client.language),
  };
}

/** The outbox renderer of an e-invoice attached to a message (the format is in the attachment's params). */
const eInvoiceRenderer: Renderer = async (db, companyId, params) => {
  const doc = await withTenant(db, companyId, (trx) => loadInvoiceDocument(trx, companyId, params.invoice_id));
  return renderEInvoice(doc, attachmentFormat(params.format as EInvoiceAttachment));
};

export const eInvoiceRenderers: Record<string, Renderer> = { [E_INVOICE_RENDERER]: eInvoiceRenderer };
