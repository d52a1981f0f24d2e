import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import PDFDocument from 'pdfkit';
import { extractText, getDocumentProxy } from 'unpdf';
import { newId } from '../src/ids.ts';
import { invoicePdfRenderer, invoiceRenderers, INVOICE_PDF_RENDERER } from '../src/modules/billing/invoices/pdf.ts';
import { createTestContext, type TestContext } from './helpers.ts';
import { apiOf, assignUser, billableProject, insertClient, insertItemCategories, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * GET /invoices/:id/pdf: the headers, and the document's text (extracted with
 * unpdf) carrying every figure of the invoice, formatted in its currency.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let clientId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db); // "Acme Studio", 1 Main Street / 10115 Berlin, EUR
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex Corporation', address: '2 Side Road\nSpringfield' });
  // The kinds the lines below name (a line's kind names an item category, issue 25).
  await insertItemCategories(ctx.db, w.companyId, ['Design', 'Hosting', 'Credit', 'Expense', 'K'.repeat(64)]);
});
afterAll(() => ctx.close());

/** The document's text with its whitespace (line breaks, non-breaking spaces) made single spaces. */
async function pdfText(bytes: Uint8Array) {
  const { text, totalPages } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return { text: text.replace(/[\s\u00a0\u202f]+/g, ' '), totalPages };
}

async function create(body: Record<string, unknown>) {
  const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, ...body });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
}

describe('invoice PDF', () => {
  it('is a private, uncached attachment named after the number', async () => {
    const inv = await create({ number: '2026/07 A', line_items: [{ description: 'x', unit_price: 1 }] });
    const res = await api(w.admin, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="invoice-2026_07_A.pdf"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.vary).toBe('Authorization, Service-Account-Id, Cookie');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('carries the parties, the facts, every line and every total', async () => {
    const inv = await create({
      number: '2026-001',
      issue_date: '2026-03-01',
      payment_term: 'net_30',
      purchase_order: 'PO-42',
      subject: 'Website relaunch',
      notes: 'Payable by bank transfer within 30 days.',
      service_period_start: '2026-02-01',
      service_period_end: '2026-02-28',
      discount: 10,
      tax: 20,
      tax2: 5,
      line_items: [
        { kind: 'Design', description: 'Visual design', quantity: 10, unit_price: 100, taxed: true, taxed2: false },
        { kind: 'Hosting', description: 'Managed hosting', quantity: 2, unit_price: 50, taxed: false, taxed2: true },
        { kind: 'Credit', description: 'Goodwill credit', quantity: 1, unit_price: 100, effect: 'credit', taxed: true, taxed2: false },
        { description: 'Support hours', quantity: 1.25, unit_price: 80.5, taxed: false, taxed2: false },
      ],
    });
    // a payment recorded outside the API
    await ctx.db
      .insertInto('invoice_payments')
      .values({ company_id: w.companyId, id: newId(), invoice_id: inv.id, amount: '100', paid_date: '2026-03-05' })
      .execute();
    const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
    const { text, totalPages } = await pdfText(res.rawPayload);
    expect(totalPages).toBe(1);
    // subtotal 1000 + 100 − 100 + 100.625 → 100.63 = 1100.63; discount 110.063 → 110.06;
    // tax 900 × 0.9 × 20% = 162; tax2 100 × 0.9 × 5% = 4.5; total 1157.07; due 1057.07
    const api_ = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect(api_).toMatchObject({ subtotal: 1100.63, discount_amount: 110.06, tax_amount: 162, tax2_amount: 4.5, amount: 1157.07, due_amount: 1057.07 });
    for (const expected of [
      'Acme Studio',
      '1 Main Street 10115 Berlin',
      'INVOICE',
      'BILL TO Globex Corporation 2 Side Road Springfield',
      'Invoice number 2026-001',
      'Issue date 1 March 2026',
      'Due date 31 March 2026',
      'Payment terms Net 30',
      'Purchase order PO-42',
      'Service period 1 February 2026 – 28 February 2026',
      'Website relaunch',
      'Design Visual design 10 €100.00 €1,000.00',
      'Hosting Managed hosting 2 €50.00 €100.00',
      'Credit Goodwill credit 1 €100.00 -€100.00',
      'Service Support hours 1.25 €80.50 €100.63',
      'Subtotal €1,100.63',
      'Discount (10%) -€110.06',
      'Tax (20%) €162.00',
      'Tax 2 (5%) €4.50',
      'Total (EUR) €1,157.07',
      'Paid -€100.00',
      'Amount due €1,057.07',
      'NOTES Payable by bank transfer within 30 days.',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('speaks the client’s language: German labels, dates, numbers and Sheaf’s own line kinds; typed text as typed', async () => {
    const german = await insertClient(ctx.db, w.companyId, { name: 'Müller GmbH' });
    expect((await api(w.owner, 'PATCH', `/api/v2/clients/${german}`, { language: 'de' })).statusCode).toBe(200);
    const res = await api(w.owner, 'POST', '/api/v2/invoices', {
      client_id: german,
      number: 'DE-1',
      issue_date: '2026-03-01',
      payment_term: 'net_30',
      tax: 19,
      line_items: [
        { description: 'Beratung', quantity: 1.5, unit_price: 1000 },
        { kind: 'Hosting', description: 'Server', quantity: 1, unit_price: 10 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const { text } = await pdfText((await api(w.owner, 'GET', `/api/v2/invoices/${res.json().id}/pdf`)).rawPayload);
    for (const expected of [
      'RECHNUNG',
      'RECHNUNG AN Müller GmbH',
      'Rechnungsnummer DE-1',
      'Rechnungsdatum 1. März 2026',
      'Fällig am 31. März 2026',
      'Zahlungsbedingungen 30 Tage netto',
      'Leistung Beratung 1,5 1.000,00 € 1.500,00 €',
      'Hosting Server 1 10,00 € 10,00 €',
      'Zwischensumme 1.510,00 €',
      'Steuer (19 %) 286,90 €',
      'Gesamt (EUR) 1.796,90 €',
      'Offener Betrag 1.796,90 €',
      'Seite 1 von 1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/Invoice number|Amount due|Page 1 of/);
  });

  it('gives the description the width the figures do not need, also beside a long kind ("Vorauszahlung")', async () => {
    await insertItemCategories(ctx.db, w.companyId, ['Vorauszahlung']);
    const german = await insertClient(ctx.db, w.companyId, { name: 'Blau GmbH' });
    expect((await api(w.owner, 'PATCH', `/api/v2/clients/${german}`, { language: 'de' })).statusCode).toBe(200);
    const description = 'Wartung und Pflege der Website inkl. Sicherheitsupdates, Backups, Monitoring und bis zu 4 Stunden Änderungen pro Monat – Leistungszeitraum Januar bis Dezember 2027';
    const inv = await create({
      client_id: german,
      tax: 19,
      line_items: [
        { description, quantity: 12, unit_price: 349.9 },
        { kind: 'Vorauszahlung', description: 'Wartungsbudget', quantity: 1, unit_price: 700, effect: 'credit', taxed: false },
      ],
    });
    const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
    const page = await (await getDocumentProxy(new Uint8Array(res.rawPayload))).getPage(1);
    const rows = (await page.getTextContent()).items.map((item) => ('str' in item ? item.str.trim() : '')).filter((str) => str.length > 3 && str !== 'Leistung' && description.includes(str)); // the kind's word is in the text too
    // 160 characters: nine rows in the old fixed figures' columns beside the kind; seven now.
    expect(rows.join(' ').replace(/\s+/g, ' ')).toBe(description);
    expect(rows.length).toBeLessThanOrEqual(7);
  });

  it('breaks a long period after its dash, never inside a day', async () => {
    const german = await insertClient(ctx.db, w.companyId, { name: 'Café Noir GmbH' });
    expect((await api(w.owner, 'PATCH', `/api/v2/clients/${german}`, { language: 'de' })).statusCode).toBe(200);
    const invoice = await api(w.owner, 'POST', '/api/v2/invoices', {
      client_id: german,
      service_period_start: '2026-11-30',
      service_period_end: '2026-12-06',
      line_items: [{ description: 'Beratung', quantity: 1, unit_price: 100 }],
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    const pdf = await getDocumentProxy(new Uint8Array((await api(w.owner, 'GET', `/api/v2/invoices/${invoice.json().id}/pdf`)).rawPayload));
    const lines = (await (await pdf.getPage(1)).getTextContent()).items.map((i) => ('str' in i ? i.str.replace(/\u00a0/g, ' ').trim() : ''));
    // The period does not fit the facts' column on one line: each day stays whole on a line of its own.
    expect(lines).toContain('30. November 2026 –');
    expect(lines).toContain('6. Dezember 2026');
  });

  it('prints line kinds as people read them: the import\'s SERVICE as Service, beside Expense (issue 21)', async () => {
    const inv = await create({
      line_items: [
        { kind: 'Service', description: 'Design work', unit_price: 100 },
        { kind: 'Expense', description: 'Train ticket', unit_price: 20 },
      ],
    });
    // The first line's kind as an import of time writes it (the spec's value; a typed kind is stored as the category spells it).
    await ctx.db.updateTable('invoice_line_items').set({ kind: 'SERVICE' }).where('id', '=', inv.line_items[0].id).execute();
    inv.line_items = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json().line_items;
    expect(inv.line_items.map((l: { kind: string }) => l.kind)).toEqual(['SERVICE', 'Expense']); // the API keeps the spec's value
    const { text } = await pdfText((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).rawPayload);
    expect(text).toContain('Service Design work');
    expect(text).toContain('Expense Train ticket');
    expect(text).not.toContain('SERVICE');
  });

  it('prints the workspace’s sender details (e-mail, phone, tax ID) under its address, left of the facts', async () => {
    const other = await makeInvoiceWorkspace(ctx.db, { sender_email: 'billing@acme.example', sender_phone: '+49 30 1234567', tax_id: 'DE123456789' });
    const client = await insertClient(ctx.db, other.companyId, { name: 'Initech' });
    const res = await api(other.owner, 'POST', '/api/v2/invoices', { client_id: client, number: 'S-1', line_items: [{ description: 'x', unit_price: 1 }] });
    expect(res.statusCode, res.body).toBe(201);
    const bytes = (await api(other.owner, 'GET', `/api/v2/invoices/${res.json().id}/pdf`)).rawPayload;
    expect((await pdfText(bytes)).text).toContain('Acme Studio 1 Main Street 10115 Berlin billing@acme.example +49 30 1234567 Tax ID DE123456789');
    // Where they land: the address's column, below it, above BILL TO (nothing overlaps the header).
    const page = await (await getDocumentProxy(new Uint8Array(bytes))).getPage(1);
    const items = (await page.getTextContent()).items as Array<{ str: string; transform: number[] }>;
    const at = (s: string) => items.find((i) => i.str.includes(s))!.transform;
    const [address, email, phone, tax, billTo] = ['10115 Berlin', 'billing@acme.example', '+49 30', 'DE123456789', 'BILL TO'].map(at);
    for (const line of [email, phone, tax]) expect(line[4]).toBeCloseTo(address[4], 0);
    // PDF y grows upwards: each line below the previous one, BILL TO below them all.
    expect(address[5]).toBeGreaterThan(email[5]);
    expect(email[5]).toBeGreaterThan(phone[5]);
    expect(phone[5]).toBeGreaterThan(tax[5]);
    expect(tax[5]).toBeGreaterThan(billTo[5]);
    // Without them (the workspace above), nothing is printed in their place.
    const plain = await create({ line_items: [{ description: 'x', unit_price: 1 }] });
    expect((await pdfText((await api(w.owner, 'GET', `/api/v2/invoices/${plain.id}/pdf`)).rawPayload)).text).not.toContain('Tax ID');
  });

  it('formats each currency in its own way and picks Letter paper for USD', async () => {
    const jpy = await create({ currency: 'JPY', line_items: [{ description: 'Translation', quantity: 1.5, unit_price: 333 }] });
    const jpyText = (await pdfText((await api(w.owner, 'GET', `/api/v2/invoices/${jpy.id}/pdf`)).rawPayload)).text;
    expect(jpyText).toContain('Translation 1.5 ¥333.00 ¥500'.replace('¥333.00', '¥333'));
    expect(jpyText).toContain('Total (JPY) ¥500');

    const usd = await create({ currency: 'USD', line_items: [{ description: 'Consulting', quantity: 3, unit_price: 1234.5678 }] });
    const bytes = (await api(w.owner, 'GET', `/api/v2/invoices/${usd.id}/pdf`)).rawPayload;
    const usdText = (await pdfText(bytes)).text;
    // unit prices keep their four decimals, amounts are rounded to cents
    expect(usdText).toContain('Consulting 3 $1,234.5678 $3,703.70');
    const doc = await getDocumentProxy(new Uint8Array(bytes));
    const page = await doc.getPage(1);
    expect(page.view.slice(2).map(Math.round)).toEqual([612, 792]);
    const eur = (await api(w.owner, 'GET', `/api/v2/invoices/${jpy.id}/pdf`)).rawPayload;
    const a4 = await (await getDocumentProxy(new Uint8Array(eur))).getPage(1);
    expect(a4.view.slice(2).map(Math.round)).toEqual([595, 842]);
  });

  it('runs over several pages with the table header and page numbers repeated', async () => {
    const lines = Array.from({ length: 90 }, (_, i) => ({ description: `Line number ${i + 1}`, quantity: 1, unit_price: 10 }));
    const inv = await create({ line_items: lines });
    const { text, totalPages } = await pdfText((await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).rawPayload);
    expect(totalPages).toBeGreaterThan(1);
    expect(text).toContain(`Page ${totalPages} of ${totalPages}`);
    expect(text).toContain('Line number 1 ');
    expect(text).toContain('Line number 90 ');
    const headers = text.match(/DESCRIPTION/g)!.length;
    expect(headers).toBeGreaterThanOrEqual(2);
    expect(headers).toBeLessThanOrEqual(totalPages);
    expect(text).toContain('Total (EUR) €900.00');
  });

  it('lays out the longest text the API accepts in linear work, across pages, without losing any of it', async () => {
    const word = 'x'.repeat(10_000); // one unbroken word, the longest description
    const inv = await create({
      subject: 's'.repeat(1000),
      notes: 'n'.repeat(10_000),
      line_items: [
        { kind: 'K'.repeat(64), description: word, quantity: 2, unit_price: 10 },
        { description: 'After the long one', quantity: 1, unit_price: 5 },
      ],
    });
    // The work of the layout, counted rather than timed: the characters the document measures.
    // pdfkit alone breaks the word by re-measuring ever shorter prefixes (quadratic: 4.4 million
    // characters, seconds of CPU); breakLongWords measures each character once (23,000 in all).
    let measured = 0;
    const original = PDFDocument.prototype.widthOfString;
    const widthOfString = vi.spyOn(PDFDocument.prototype, 'widthOfString').mockImplementation(function (this: PDFKit.PDFDocument, ...args) {
      measured += String(args[0]).length;
      return original.apply(this, args);
    });
    let res;
    try {
      res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
    } finally {
      widthOfString.mockRestore();
    }
    expect(res.statusCode).toBe(200);
    expect(measured).toBeGreaterThan(10_000); // the word itself, at least once
    expect(measured).toBeLessThan(20 * 21_064); // linear: a few times the invoice's text (21,064 characters)
    const { text, totalPages } = await pdfText(res.rawPayload);
    expect(totalPages).toBeGreaterThan(1);
    expect(text).toContain(`Page ${totalPages} of ${totalPages}`);
    const compact = text.replace(/ /g, '');
    expect(compact.match(/x{100,}/g)!.join('').length).toBe(10_000);
    expect(compact.match(/n{100,}/g)!.join('').length).toBe(10_000);
    // the long line's figures, the next line and the totals all made it
    expect(text).toContain('2 €10.00 €20.00');
    expect(text).toContain('After the long one 1 €5.00 €5.00');
    expect(text).toContain('Amount due €25.00');
    expect(text.indexOf('After the long one')).toBeGreaterThan(text.lastIndexOf('xxxxx'));
  });

  it('prints text beyond Latin-1 without breaking the document', async () => {
    const c = await insertClient(ctx.db, w.companyId, { name: 'Zoë Ωmega Ltd', address: 'Кирова 5' });
    const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [{ description: 'Déjà vu — “quoted” 日本', unit_price: 1 }] });
    const { text } = await pdfText((await api(w.owner, 'GET', `/api/v2/invoices/${res.json().id}/pdf`)).rawPayload);
    expect(text).toContain('Déjà vu — “quoted”');
    if (existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')) {
      expect(text).toContain('Zoë Ωmega Ltd');
      expect(text).toContain('Кирова 5');
    } else {
      expect(text).toContain('Zoë ?mega Ltd');
    }
  });

  it('is rendered by the outbox renderer for e-mail attachments', async () => {
    const inv = await create({ number: 'R-1', line_items: [{ description: 'Attached', unit_price: 7 }] });
    expect(invoiceRenderers[INVOICE_PDF_RENDERER]).toBe(invoicePdfRenderer);
    const bytes = await invoicePdfRenderer(ctx.db, w.companyId, { invoice_id: inv.id });
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await pdfText(bytes)).text).toContain('Invoice number R-1');
  });

  it("is refused to members and personal keys, 404 for invoices out of a manager's reach and for other workspaces", async () => {
    const inv = await create({ line_items: [{ description: 'x' }] });
    for (const who of [w.member, w.contractor, w.adminPersonal]) {
      expect((await api(who, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).statusCode).toBe(403);
    }
    // a manager without View invoices downloads the invoices they created, and no other
    const managed = await billableProject(ctx.db, w.companyId, clientId);
    await assignUser(ctx.db, w.companyId, managed.projectId, w.mgrPlain.userId, { manager: true });
    expect((await api(w.mgrPlain, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).statusCode).toBe(404);
    const own = await api(w.mgrPlain, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [{ description: 'x' }] });
    expect(own.statusCode, own.body).toBe(201);
    const ownPdf = await api(w.mgrPlain, 'GET', `/api/v2/invoices/${own.json().id}/pdf`);
    expect(ownPdf.statusCode).toBe(200);
    expect(ownPdf.headers['content-type']).toBe('application/pdf');
    expect((await api(w.mgrInvoices, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).statusCode).toBe(200);
    const other = await makeInvoiceWorkspace(ctx.db);
    const res = await api(other.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });
});
