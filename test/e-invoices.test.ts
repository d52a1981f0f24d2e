import { InvoiceService } from '@e-invoice-eu/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '../src/db/tenant.ts';
import { documentLocale } from '../src/i18n/index.ts';
import { newId } from '../src/ids.ts';
import { eInvoiceData } from '../src/modules/billing/invoices/e-invoice-data.ts';
import { loadInvoiceDocument } from '../src/modules/billing/invoices/pdf.ts';
import { createTestContext, type TestContext } from './helpers.ts';
import {
  apiOf,
  billableProject,
  insertClient,
  insertEntry,
  insertItemCategories,
  makeInvoiceWorkspace,
  type InvoiceWorkspace,
} from './fixtures/invoices.ts';
import {
  artefactsAvailable,
  artefactsMissingReason,
  artefactsRequired,
  extractFacturXXml,
  facturXSchemaMissingReason,
  formatFindings,
  validateFacturXXsd,
  validateSchematronBatch,
  validateXsd,
  type SchematronResult,
} from './support/einvoice-validation.ts';

/**
 * E-invoices (issue 25 item 10): GET /invoices/:id/xml (CII, UBL; EN 16931 and
 * XRechnung 3.0) and /pdf?format=facturx, validated against the official artefacts
 * (the CII D16B and UBL 2.1 XSDs, CEN's EN 16931 Schematron, KoSIT's XRechnung
 * Schematron; test/support/einvoice-validation.ts) for invoices with a discount,
 * two tax rates, a credit line, an exempt line, payments, a retainer credit,
 * another currency and imported time; the 422 naming every missing field; tenancy, roles, bad queries,
 * and the e-invoice attached to an e-mail.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let clientId: string;
let bareClientId: string;

async function completeSeller(companyId: string) {
  await ctx.db
    .updateTable('companies')
    .set({ sender_email: 'billing@acme.example', sender_phone: '+49 30 1234567' })
    .where('id', '=', companyId)
    .execute();
  await ctx.db
    .insertInto('invoice_settings')
    .values({
      company_id: companyId,
      legal_name: 'Acme Studio GmbH',
      vat_id: 'DE123456789',
      registration_number: 'HRB 12345',
      street: 'Hauptstraße 1',
      postal_code: '10115',
      city: 'Berlin',
      country_code: 'DE',
      contact_name: 'Olive Owner',
      vat_exemption_reason: 'Steuerfreie Bildungsleistung nach § 4 Nr. 21 UStG',
    })
    .execute();
  await ctx.db
    .insertInto('bank_accounts')
    .values({ company_id: companyId, id: newId(), currency: 'EUR', holder: 'Acme Studio GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', is_default: true })
    .execute();
}

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  await completeSeller(w.companyId);
  await insertItemCategories(ctx.db, w.companyId, ['Design', 'Hosting', 'Credit', 'Training']);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex AG', address: 'Ring 2\n80331 München' });
  const patch = await api(w.owner, 'PATCH', `/api/v2/clients/${clientId}`, {
    vat_id: 'DE987654321',
    invoice_email: 'ap@globex.example',
    street: 'Ring 2',
    postal_code: '80331',
    city: 'München',
    country_code: 'de',
    buyer_reference: '04011000-12345-03',
  });
  expect(patch.statusCode).toBe(200);
  bareClientId = await insertClient(ctx.db, w.companyId, { name: 'Initech' });
});
afterAll(() => ctx.close());

async function create(body: Record<string, unknown>, client = clientId) {
  const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: client, ...body });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json() as { id: string; number: string; amount: number; due_amount: number };
}

/** The discount, both taxes, a credit line, an exempt line and a payment: every total rule at once (made once). */
let mixed: Promise<Awaited<ReturnType<typeof create>>> | undefined;
const mixedInvoice = () => (mixed ??= makeMixedInvoice());
async function makeMixedInvoice() {
  const inv = await create({
    number: '2026-0042',
    issue_date: '2026-11-30',
    purchase_order: 'PO-7',
    notes: 'Payable within 30 days.',
    service_period_start: '2026-11-01',
    service_period_end: '2026-11-30',
    discount: 5,
    tax: 19,
    tax2: 7,
    line_items: [
      { kind: 'Design', description: 'Visual design', quantity: 10, unit_price: 95.5, taxed: true, taxed2: false },
      { kind: 'Hosting', description: 'Printed guide', quantity: 2, unit_price: 20, taxed: false, taxed2: true },
      { kind: 'Training', description: 'Workshop', quantity: 1, unit_price: 300, taxed: false, taxed2: false },
      { kind: 'Credit', description: 'Retainer credit', quantity: 1, unit_price: 50, effect: 'credit', taxed: true, taxed2: false },
    ],
  });
  await ctx.db
    .insertInto('invoice_payments')
    .values({ company_id: w.companyId, id: newId(), invoice_id: inv.id, amount: '100', paid_date: '2026-12-01' })
    .execute();
  return inv;
}

/** Prices of four, two, three and one decimals (made once). */
let fine: Promise<Awaited<ReturnType<typeof create>>> | undefined;
const fineInvoice = () =>
  (fine ??= create({
    issue_date: '2026-11-30',
    tax: 19,
    line_items: [
      { kind: 'Design', description: 'Thirds of an hour', quantity: 3, unit_price: 33.3333, taxed: true },
      { kind: 'Design', description: 'A fine rate', quantity: 2, unit_price: 123.45, taxed: true },
      { kind: 'Hosting', description: 'Three decimals', quantity: 2, unit_price: 12.345, taxed: true },
      { kind: 'Training', description: 'Half a euro', quantity: 1, unit_price: 87.5, taxed: true },
    ],
  }));

const xmlOf = async (id: string, query = '') => {
  const res = await api(w.owner, 'GET', `/api/v2/invoices/${id}/xml${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

describe('e-invoice downloads', () => {
  it('serves CII by default, private and named after the number, and lists the capability', async () => {
    const inv = await mixedInvoice();
    const res = await xmlOf(inv.id);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="invoice-2026-0042-cii.xml"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-service-features']).toContain('e-invoice-en16931');
    expect(res.body).toContain('<rsm:CrossIndustryInvoice');
    expect(res.body).toContain('<ram:ID>2026-0042</ram:ID>');
    const ubl = await xmlOf(inv.id, '?syntax=ubl');
    expect(ubl.headers['content-disposition']).toBe('attachment; filename="invoice-2026-0042-ubl.xml"');
    expect(ubl.body).toContain('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"');
    const xr = await xmlOf(inv.id, '?syntax=ubl&profile=xrechnung');
    expect(xr.headers['content-disposition']).toBe('attachment; filename="invoice-2026-0042-xrechnung-ubl.xml"');
    expect(xr.body).toContain('urn:xeinkauf.de:kosit:xrechnung_3.0');
  });

  it('carries the invoice’s own figures: the discount per VAT category, each tax, the credit, the payment', async () => {
    // Hand-computed: lines 955 + 40 + 300 − 50 = 1,245.00; discount 5 % = 62.25;
    // 19 % on (955 − 50) × 0.95 = 859.75 → 163.35; 7 % on 40 × 0.95 = 38 → 2.66;
    // total 1,245 − 62.25 + 163.35 + 2.66 = 1,348.76; paid 100; due 1,248.76.
    const inv = await mixedInvoice();
    expect(inv.amount).toBe(1348.76);
    const { body } = await xmlOf(inv.id, '?syntax=ubl');
    expect(body).toContain('<cbc:LineExtensionAmount currencyID="EUR">1245.00</cbc:LineExtensionAmount>');
    expect(body).toContain('<cbc:TaxExclusiveAmount currencyID="EUR">1182.75</cbc:TaxExclusiveAmount>');
    expect(body).toContain('<cbc:TaxInclusiveAmount currencyID="EUR">1348.76</cbc:TaxInclusiveAmount>');
    expect(body).toContain('<cbc:AllowanceTotalAmount currencyID="EUR">62.25</cbc:AllowanceTotalAmount>');
    expect(body).toContain('<cbc:PrepaidAmount currencyID="EUR">100.00</cbc:PrepaidAmount>');
    expect(body).toContain('<cbc:PayableAmount currencyID="EUR">1248.76</cbc:PayableAmount>');
    expect(body).toContain('<cbc:TaxAmount currencyID="EUR">166.01</cbc:TaxAmount>');
    // 19 %: base 905 − allowance 45.25 = 859.75, tax 163.35; 7 %: 40 − 2 = 38, tax 2.66; exempt: 300 − 15 = 285.
    expect(body).toMatch(/<cbc:TaxableAmount currencyID="EUR">859\.75<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">163\.35</);
    expect(body).toMatch(/<cbc:TaxableAmount currencyID="EUR">38\.00<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">2\.66</);
    expect(body).toMatch(/<cbc:TaxableAmount currencyID="EUR">285\.00<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">0\.00</);
    expect(body).toContain('<cbc:TaxExemptionReason>Steuerfreie Bildungsleistung nach § 4 Nr. 21 UStG</cbc:TaxExemptionReason>');
    // The credit line: a negative quantity at the positive price.
    expect(body).toContain('<cbc:InvoicedQuantity unitCode="C62">-1</cbc:InvoicedQuantity>');
    expect(body).toContain('<cbc:LineExtensionAmount currencyID="EUR">-50.00</cbc:LineExtensionAmount>');
    // SEPA credit transfer to the euro account, referenced by the number.
    expect(body).toContain('<cbc:PaymentMeansCode>58</cbc:PaymentMeansCode>');
    expect(body).toContain('<cbc:ID>DE89370400440532013000</cbc:ID>');
  });

  it('writes a price of three or four decimals exactly, per 10 or 100 units, as each syntax and Factur-X', async () => {
    // The writer takes BT-146 with at most two decimals; these prices were a 500.
    const inv = await fineInvoice();
    const { body: ubl } = await xmlOf(inv.id, '?syntax=ubl');
    expect(ubl).toMatch(/<cbc:PriceAmount currencyID="EUR">3333\.33<\/cbc:PriceAmount>\s*<cbc:BaseQuantity unitCode="C62">100<\/cbc:BaseQuantity>/);
    expect(ubl).toMatch(/<cbc:PriceAmount currencyID="EUR">123\.45<\/cbc:PriceAmount>\s*<cbc:BaseQuantity unitCode="C62">10<\/cbc:BaseQuantity>/);
    // A price of two decimals or fewer has no base quantity.
    expect(ubl).toMatch(/<cbc:PriceAmount currencyID="EUR">87\.5<\/cbc:PriceAmount>\s*<\/cac:Price>/);
    // 3 × 33.3333 = 99.9999 → 100.00; 2 × 123.45 = 246.90; 2 × 12.345 = 24.69; 1 × 87.5.
    expect(ubl).toContain('<cbc:LineExtensionAmount currencyID="EUR">459.09</cbc:LineExtensionAmount>');
    const { body: cii } = await xmlOf(inv.id);
    expect(cii).toMatch(/<ram:ChargeAmount>3333\.33<\/ram:ChargeAmount>\s*<ram:BasisQuantity unitCode="C62">100<\/ram:BasisQuantity>/);
    expect((await xmlOf(inv.id, '?profile=xrechnung')).statusCode).toBe(200);
    const fx = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf?format=facturx`);
    expect(fx.statusCode, fx.body).toBe(200);
  });

  it('writes Factur-X: a PDF/A-3 with the CII XML embedded as factur-x.xml', async () => {
    const inv = await mixedInvoice();
    const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf?format=facturx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="invoice-2026-0042-facturx.pdf"');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain('pdfaid:part');
    if (artefactsAvailable()) {
      const xml = extractFacturXXml(pdf).toString('utf8');
      expect(xml).toContain('<rsm:CrossIndustryInvoice');
      expect(xml).toContain('<ram:ID>2026-0042</ram:ID>');
    }
    // The plain PDF stays what it was.
    const plain = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf?format=pdf`);
    expect(plain.headers['content-disposition']).toBe('attachment; filename="invoice-2026-0042.pdf"');
  });
});

/** An invoice with a credit drawing 200 on a retainer (linked in the database, as billing/retainers links it). */
let retained: Promise<{ id: string }> | undefined;
const retainedInvoice = () =>
  (retained ??= (async () => {
    const inv = await create({
      number: 'R-7',
      tax: 19,
      line_items: [
        { kind: 'Design', description: 'Design', quantity: 10, unit_price: 100, taxed: true },
        { kind: 'Credit', description: 'Retainer', quantity: 1, unit_price: 200, effect: 'credit', taxed: false, taxed2: false },
      ],
    });
    const retainerId = newId();
    await ctx.db.insertInto('retainers').values({ company_id: w.companyId, id: retainerId, client_id: clientId, name: 'Prepaid 2026', currency: 'EUR' }).execute();
    await ctx.db.updateTable('invoice_line_items').set({ retainer_id: retainerId }).where('invoice_id', '=', inv.id).where('effect', '=', 'credit').execute();
    return inv;
  })());

describe('the XML writer', () => {
  // Sheaf writes the library's object tree with fast-xml-parser instead of the library's xmlbuilder2
  // (src/modules/billing/invoices/e-invoice.ts renderXml): the bytes must be the library's own.
  it('writes byte for byte what @e-invoice-eu/core writes, in both syntaxes and both profiles, text with markup characters included', async () => {
    const odd = await create({
      number: 'A&B-<7>',
      notes: 'Tom & Jerry <"quoted"> O\'Brien\nSecond line über 5 €',
      tax: 19,
      line_items: [
        { kind: 'Design', description: 'A & B < C > "D" \'E\' ü', quantity: 1.5, unit_price: 10, taxed: true },
        { kind: 'Credit', description: 'Less <credit>', quantity: 1, unit_price: 5, effect: 'credit', taxed: true },
      ],
    });
    const library = new InvoiceService({ log: () => {}, warn: () => {}, error: () => {} });
    for (const inv of [odd, await mixedInvoice(), await retainedInvoice()]) {
      const doc = await withTenant(ctx.db, w.companyId, (trx) => loadInvoiceDocument(trx, w.companyId, inv.id));
      const lang = documentLocale(doc.client.language).toLowerCase();
      for (const [query, syntax, profile, format] of [
        ['', 'cii', 'en16931', 'CII'],
        ['?syntax=ubl', 'ubl', 'en16931', 'UBL'],
        ['?profile=xrechnung', 'cii', 'xrechnung', 'XRECHNUNG-CII'],
        ['?syntax=ubl&profile=xrechnung', 'ubl', 'xrechnung', 'XRECHNUNG-UBL'],
      ] as const) {
        const ours = (await xmlOf(inv.id, query)).body;
        const theirs = await library.generate(eInvoiceData(doc, profile, doc.client.language), { format, lang });
        expect(ours, `${doc.invoice.number} ${syntax} ${profile}`).toBe(theirs);
      }
    }
  }, 60_000);
});

describe('a retainer credit', () => {
  it('is money paid before: the paid amount, not a line', async () => {
    // 1,000 + 19 % = 1,190 before the credit; the invoice asks 990.
    const inv = await retainedInvoice();
    const got = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect(got.due_amount).toBe(990);
    const { body } = await xmlOf(inv.id, '?syntax=ubl');
    expect(body.match(/<cac:InvoiceLine>/g)).toHaveLength(1);
    expect(body).toContain('<cbc:LineExtensionAmount currencyID="EUR">1000.00</cbc:LineExtensionAmount>');
    expect(body).toContain('<cbc:TaxInclusiveAmount currencyID="EUR">1190.00</cbc:TaxInclusiveAmount>');
    expect(body).toContain('<cbc:PrepaidAmount currencyID="EUR">200.00</cbc:PrepaidAmount>');
    expect(body).toContain('<cbc:PayableAmount currencyID="EUR">990.00</cbc:PayableAmount>');
    expect(body).not.toContain('TaxExemptionReason');
  });
});

describe('an invoice that lacks what EN 16931 requires', () => {
  it('gives 422 naming every missing field, never a file', async () => {
    const inv = await create({ tax: 19, tax2: 7, line_items: [{ description: 'Both taxes', unit_price: 10, taxed: true, taxed2: true }] }, bareClientId);
    const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/xml`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: 'e_invoice_incomplete',
      field: 'line_items.0.taxed2',
      missing_fields: ['line_items.0.taxed2', 'client.country_code', 'client.invoice_email'],
    });
    const fx = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf?format=facturx`);
    expect(fx.statusCode).toBe(422);
    expect(fx.headers['content-type']).toContain('application/json');
  });

  it('names what XRechnung adds: buyer reference, addresses, contacts', async () => {
    const other = await insertClient(ctx.db, w.companyId, { name: 'Hooli' });
    await api(w.owner, 'PATCH', `/api/v2/clients/${other}`, { country_code: 'FR', invoice_email: 'ap@hooli.example' });
    const inv = await create({ line_items: [{ description: 'Work', unit_price: 10, taxed: false }] }, other);
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/xml`)).statusCode).toBe(200);
    const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/xml?profile=xrechnung`);
    expect(res.statusCode).toBe(422);
    expect(res.json().missing_fields).toEqual(['client.buyer_reference', 'client.city', 'client.postal_code']);
  });

  it('names the seller’s settings in a workspace that has none', async () => {
    const bare = await makeInvoiceWorkspace(ctx.db);
    const client = await insertClient(ctx.db, bare.companyId, { name: 'Umbrella' });
    const res0 = await api(bare.owner, 'POST', '/api/v2/invoices', { client_id: client, tax: 20, line_items: [{ description: 'Work', unit_price: 10, taxed: true }, { description: 'Free', unit_price: 5, taxed: false }] });
    const res = await api(bare.owner, 'GET', `/api/v2/invoices/${res0.json().id}/xml`);
    expect(res.statusCode).toBe(422);
    expect(res.json().missing_fields).toEqual([
      'invoice_settings.country_code',
      'client.country_code',
      'workspace.sender_email',
      'client.invoice_email',
      'invoice_settings.vat_id',
      'invoice_settings.vat_exemption_reason',
    ]);
  });
});

describe('bad requests, tenancy and roles', () => {
  it('refuses unknown syntaxes, profiles, formats and parameters with 400', async () => {
    const inv = await mixedInvoice();
    for (const q of ['?syntax=edifact', '?profile=peppol', '?foo=1']) {
      const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/xml${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf?format=zugferd`)).statusCode).toBe(400);
  });

  it('gives 404 for another workspace’s invoice and 403 to those without invoices', async () => {
    const inv = await mixedInvoice();
    const other = await makeInvoiceWorkspace(ctx.db);
    expect((await api(other.owner, 'GET', `/api/v2/invoices/${inv.id}/xml`)).statusCode).toBe(404);
    expect((await api(other.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf?format=facturx`)).statusCode).toBe(404);
    expect((await api(w.member, 'GET', `/api/v2/invoices/${inv.id}/xml`)).statusCode).toBe(403);
    expect((await api(w.mgrInvoices, 'GET', `/api/v2/invoices/${inv.id}/xml`)).statusCode).toBe(200);
  });

  it('validates the client’s country code', async () => {
    const res = await api(w.owner, 'PATCH', `/api/v2/clients/${bareClientId}`, { country_code: 'XX' });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('country_code');
    const client = await api(w.owner, 'GET', `/api/v2/clients/${clientId}`);
    expect(client.json()).toMatchObject({ country_code: 'DE', city: 'München', buyer_reference: '04011000-12345-03' });
  });
});

describe('the e-invoice on the e-mail', () => {
  it('attaches the chosen e-invoice, rendered by the outbox', async () => {
    const inv = await mixedInvoice();
    const res = await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, {
      recipients: [{ email: 'ap@globex.example' }],
      attach_e_invoice: 'xrechnung-cii',
    });
    expect(res.statusCode, res.body).toBe(201);
    const outbox = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', w.companyId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const attachments = (outbox.payload as { attachments: Array<Record<string, unknown>> }).attachments;
    expect(attachments).toContainEqual({
      filename: 'invoice-2026-0042-xrechnung-cii.xml',
      content_type: 'application/xml',
      render: 'invoice_e_invoice',
      params: { invoice_id: inv.id, format: 'xrechnung-cii' },
    });
    const { eInvoiceRenderers } = await import('../src/modules/billing/invoices/e-invoice.ts');
    const bytes = await eInvoiceRenderers.invoice_e_invoice(ctx.db, w.companyId, { invoice_id: inv.id, format: 'xrechnung-cii' });
    expect(bytes.toString('utf8')).toContain('urn:xeinkauf.de:kosit:xrechnung_3.0');
    // The message and its history say which e-invoice went with it; one without says none.
    expect(res.json()).toMatchObject({ attach_pdf: true, attach_e_invoice: 'xrechnung-cii' });
    const plain = await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'ap@globex.example' }], event_type: 'reminder' });
    expect(plain.statusCode, plain.body).toBe(201);
    const history = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/messages`);
    expect(history.json().invoice_messages.map((m: { event_type: string; attach_e_invoice: string | null }) => [m.event_type, m.attach_e_invoice])).toEqual([
      ['send', 'xrechnung-cii'],
      ['reminder', null],
    ]);
  });

  it('sends Factur-X in the plain PDF’s place, and the plain PDF beside an XML one', async () => {
    const attachmentsOf = async (body: Record<string, unknown>) => {
      const inv = await mixedInvoice();
      const res = await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'ap@globex.example' }], ...body });
      expect(res.statusCode, res.body).toBe(201);
      const outbox = await ctx.db
        .selectFrom('invoice_messages as m')
        .innerJoin('outbox as o', 'o.id', 'm.outbox_id')
        .select('o.payload')
        .where('m.id', '=', res.json().id)
        .executeTakeFirstOrThrow();
      return (outbox.payload as { attachments: Array<{ filename: string }> }).attachments.map((a) => a.filename.replace(/^invoice-[^-]+-\d+/, 'invoice-N'));
    };
    // The same invoice twice (the plain PDF and the Factur-X PDF) was what attach_pdf's default gave.
    expect(await attachmentsOf({ attach_e_invoice: 'facturx' })).toEqual(['invoice-N-facturx.pdf']);
    expect(await attachmentsOf({ attach_e_invoice: 'facturx', attach_pdf: false })).toEqual(['invoice-N-facturx.pdf']);
    expect(await attachmentsOf({ attach_e_invoice: 'cii' })).toEqual(['invoice-N.pdf', 'invoice-N-cii.xml']);
    expect(await attachmentsOf({})).toEqual(['invoice-N.pdf']);
  });

  it('refuses an incomplete one with 422 and sends nothing', async () => {
    const inv = await create({ line_items: [{ description: 'Work', unit_price: 10 }] }, bareClientId);
    const res = await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, {
      recipients: [{ email: 'x@initech.example' }],
      attach_e_invoice: 'facturx',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().missing_fields).toEqual(['client.country_code', 'client.invoice_email']);
    const messages = await ctx.db.selectFrom('invoice_messages').select('id').where('invoice_id', '=', inv.id).execute();
    expect(messages).toHaveLength(0);
    const state = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`);
    expect(state.json().state).toBe('draft');
  });
});

// Runs wherever xmllint is installed (CI installs it), without the downloaded artefacts: the Factur-X
// EN 16931 XSD comes with npm ci. In CI a missing tool fails the block instead of skipping it.
describe.skipIf(Boolean(facturXSchemaMissingReason()) && !process.env.CI)('CII checked against the Factur-X EN 16931 profile XSD', () => {
  it('the CII of every kind of invoice, XRechnung included, and the factur-x.xml inside the PDF pass it', async () => {
    const missing = facturXSchemaMissingReason();
    if (missing) throw new Error(`in CI this check must run: ${missing}`);
    const mixed = await mixedInvoice();
    const credit = await retainedInvoice();
    const fx = await api(w.owner, 'GET', `/api/v2/invoices/${mixed.id}/pdf?format=facturx`);
    expect(fx.statusCode).toBe(200);
    const documents = [
      { name: 'mixed CII', xml: (await xmlOf(mixed.id)).rawPayload },
      { name: 'mixed XRechnung CII', xml: (await xmlOf(mixed.id, '?profile=xrechnung')).rawPayload },
      { name: 'retainer credit CII', xml: (await xmlOf(credit.id)).rawPayload },
      { name: 'fine prices CII', xml: (await xmlOf((await fineInvoice()).id)).rawPayload },
      { name: 'Factur-X factur-x.xml', xml: extractFacturXXml(fx.rawPayload) },
    ];
    for (const d of documents) {
      const r = await validateFacturXXsd(d.xml);
      expect(r.errors, d.name).toEqual([]);
      expect(r.valid, d.name).toBe(true);
    }
    // The check has teeth: a document missing a required element fails it.
    const broken = documents[0].xml.toString('utf8').replace(/<ram:TypeCode>380<\/ram:TypeCode>/, '');
    expect(broken).not.toBe(documents[0].xml.toString('utf8'));
    expect((await validateFacturXXsd(broken)).valid).toBe(false);
  }, 120_000);
});

describe.skipIf(!artefactsAvailable() && !artefactsRequired())('validated against the official artefacts', () => {
  const documents: Array<{ name: string; xml: Buffer; syntax: 'cii' | 'ubl'; xrechnung: boolean }> = [];
  let results: SchematronResult[] = [];

  beforeAll(async () => {
    if (!artefactsAvailable()) throw new Error(`EINVOICE_ARTEFACTS_REQUIRED=1 but: ${artefactsMissingReason()}`);
    const mixed = await mixedInvoice();
    const fine = await fineInvoice();
    const usdClient = await insertClient(ctx.db, w.companyId, { name: 'Wayne Enterprises', currency: 'USD' });
    await api(w.owner, 'PATCH', `/api/v2/clients/${usdClient}`, { country_code: 'US', city: 'Gotham', postal_code: '10001', street: '1 Wayne Tower', invoice_email: 'ap@wayne.example' });
    const usd = await create({ currency: 'USD', tax: 0, line_items: [{ kind: 'Design', description: 'Logo', quantity: 3, unit_price: 333.33 }] }, usdClient);
    // Imported time: hours at the project's rate.
    const { projectId, taskId } = await billableProject(ctx.db, w.companyId, clientId, { rate: '120' });
    for (const [date, seconds] of [['2026-11-02', 5400], ['2026-11-03', 7200]] as const) {
      await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date, seconds });
    }
    const timeRes = await api(w.owner, 'POST', '/api/v2/invoices', {
      client_id: clientId,
      tax: 19,
      line_items_import: { project_ids: [projectId], time: { summary_type: 'task', from: '2026-11-01', to: '2026-11-30' } },
    });
    expect(timeRes.statusCode, timeRes.body).toBe(201);
    const time = timeRes.json();
    await ctx.db.updateTable('invoice_line_items').set({ taxed: true }).where('invoice_id', '=', time.id).execute();
    for (const [name, id, query, syntax, xrechnung] of [
      ['mixed CII', mixed.id, '', 'cii', false],
      ['mixed UBL', mixed.id, '?syntax=ubl', 'ubl', false],
      ['mixed XRechnung CII', mixed.id, '?profile=xrechnung', 'cii', true],
      ['mixed XRechnung UBL', mixed.id, '?syntax=ubl&profile=xrechnung', 'ubl', true],
      ['USD CII', usd.id, '', 'cii', false],
      ['USD UBL', usd.id, '?syntax=ubl', 'ubl', false],
      ['time CII', time.id, '', 'cii', false],
      ['time UBL', time.id, '?syntax=ubl', 'ubl', false],
      ['fine prices XRechnung CII', fine.id, '?profile=xrechnung', 'cii', true],
      ['fine prices XRechnung UBL', fine.id, '?syntax=ubl&profile=xrechnung', 'ubl', true],
    ] as const) {
      documents.push({ name, xml: (await xmlOf(id, query)).rawPayload, syntax, xrechnung });
    }
    const credit = await retainedInvoice();
    documents.push({ name: 'retainer credit CII', xml: (await xmlOf(credit.id)).rawPayload, syntax: 'cii', xrechnung: false });
    documents.push({ name: 'retainer credit UBL', xml: (await xmlOf(credit.id, '?syntax=ubl')).rawPayload, syntax: 'ubl', xrechnung: false });
    const fx = await api(w.owner, 'GET', `/api/v2/invoices/${mixed.id}/pdf?format=facturx`);
    documents.push({ name: 'Factur-X factur-x.xml', xml: extractFacturXXml(fx.rawPayload), syntax: 'cii', xrechnung: false });
    results = await validateSchematronBatch(documents.map(({ xml, syntax, xrechnung }) => ({ xml, syntax, xrechnung })));
  }, 240_000);

  it('every document passes its XSD', async () => {
    for (const d of documents) {
      const r = await validateXsd(d.xml, d.syntax);
      expect(r.errors, d.name).toEqual([]);
      expect(r.valid, d.name).toBe(true);
    }
  }, 120_000);

  it('every document passes the EN 16931 (and, for XRechnung, KoSIT’s) Schematron without a fatal finding', () => {
    expect(results).toHaveLength(documents.length);
    results.forEach((r, i) => {
      expect(r.errors, `${documents[i].name}:\n${formatFindings(r.errors)}`).toEqual([]);
      expect(r.firedRules.en16931, documents[i].name).toBeGreaterThan(0);
      if (documents[i].xrechnung) expect(r.firedRules.xrechnung, documents[i].name).toBeGreaterThan(0);
    });
  });

  it('the time invoice bills hours (HUR) and the USD invoice stays in dollars', () => {
    const time = documents.find((d) => d.name === 'time UBL')!.xml.toString('utf8');
    expect(time).toContain('unitCode="HUR"');
    const usd = documents.find((d) => d.name === 'USD UBL')!.xml.toString('utf8');
    expect(usd).toContain('<cbc:DocumentCurrencyCode>USD</cbc:DocumentCurrencyCode>');
    expect(usd).not.toContain('currencyID="EUR"');
  });
});
