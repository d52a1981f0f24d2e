import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/access/operator.ts';
import { transitionInvoice } from '../src/modules/billing/invoices/service.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { apiOf, insertClient, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * The invoice PDF's payment details (issue 25 item 2): the default bank account of
 * the invoice's currency, read back by text extraction, and for EUR the GiroCode
 * (EPC069-12), read back from the rendered page (pdftoppm at 150 dpi, pngjs, jsQR)
 * and compared with the exact payment text a banking app gets.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let admin: Caller;
let eurClient: string;
let germanClient: string;
const work = mkdtempSync(join(tmpdir(), 'sheaf-bank-pdf-'));

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db); // "Acme Studio", EUR
  admin = await sessionFor(ctx.db, w.admin, ctx.clock.now());
  eurClient = await insertClient(ctx.db, w.companyId, { name: 'Globex Corporation' });
  germanClient = await insertClient(ctx.db, w.companyId, { name: 'Müller AG' });
  await ctx.db.updateTable('clients').set({ language: 'de' }).where('id', '=', germanClient).execute();
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await ctx.close();
});

async function account(body: Record<string, unknown>) {
  const res = await request(ctx.app, admin, { method: 'POST', url: '/web/api/bank_accounts', payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function invoicePdf(body: Record<string, unknown>) {
  const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: eurClient, issue_date: '2026-03-01', ...body });
  expect(res.statusCode, res.body).toBe(201);
  const pdf = await api(w.owner, 'GET', `/api/v2/invoices/${res.json().id}/pdf`);
  expect(pdf.statusCode).toBe(200);
  return pdf.rawPayload;
}

/** The document's text with its whitespace made single spaces. */
async function textOf(pdf: Buffer) {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
  return text.replace(/[\s\u00a0\u202f]+/g, ' ');
}

/** The QR code on the PDF's first page, decoded as UTF-8 text, or null when there is none. */
async function qrOf(pdf: Buffer, name: string): Promise<string | null> {
  const dir = mkdtempSync(join(work, `${name}-`));
  const file = join(dir, 'invoice.pdf');
  await import('node:fs/promises').then((fs) => fs.writeFile(file, pdf));
  await promisify(execFile)('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', file, join(dir, 'page')]);
  const page = join(dir, readdirSync(dir).find((f) => f.endsWith('.png'))!);
  // Kept beside the web app's screenshots, to be looked at.
  mkdirSync('test-results/screens', { recursive: true });
  copyFileSync(page, `test-results/screens/invoice-payment-details-${name}.png`);
  const png = PNG.sync.read(readFileSync(page));
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  return code ? Buffer.from(code.binaryData).toString('utf8') : null;
}

/**
 * jsqr is CommonJS with an ES-style `export default` in its types, so TypeScript types the
 * default import as the module object; at run time it is the function, or holds it as `default`.
 */
type Decode = (data: Uint8ClampedArray, width: number, height: number) => { binaryData: number[] } | null;
const jsQR = ((jsqr as unknown as { default?: Decode }).default ?? jsqr) as unknown as Decode;

const lines = [{ description: 'Design work', quantity: 2, unit_price: 121 }];

describe('invoice PDF payment details', () => {
  it('prints no payment details when the currency has no account', async () => {
    const pdf = await invoicePdf({ number: 'NO-ACCOUNT-1', line_items: lines });
    const text = await textOf(pdf);
    expect(text).not.toContain('PAYMENT DETAILS');
    expect(text).not.toContain('IBAN');
    expect(await qrOf(pdf, 'none')).toBeNull();
  });

  it('prints the EUR default account and a GiroCode with the amount due and the invoice number', async () => {
    await account({ currency: 'EUR', holder: 'Acme Studio GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bank_name: 'Commerzbank Berlin' });
    // Another EUR account that is not the default, and a GBP one: neither is printed.
    await account({ currency: 'EUR', holder: 'Other Holder', iban: 'NL91ABNA0417164300' });
    await account({ currency: 'GBP', holder: 'Acme Studio Ltd', local_account: 'Sort code 12-34-56' });
    const pdf = await invoicePdf({ number: '2026-101', line_items: lines, notes: 'Thank you.' });
    const text = await textOf(pdf);
    expect(text).toContain('PAYMENT DETAILS');
    expect(text).toMatch(/Account holder ?Acme Studio GmbH/);
    expect(text).toContain('DE89 3704 0044 0532 0130 00');
    expect(text).toContain('COBADEFFXXX');
    expect(text).toContain('Commerzbank Berlin');
    expect(text).toContain('Scan with your banking app to pay');
    expect(text).not.toContain('Other Holder');
    expect(text).not.toContain('Sort code');
    expect(await qrOf(pdf, 'eur')).toBe(['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Acme Studio GmbH', 'DE89370400440532013000', 'EUR242.00', '', '', 'Invoice 2026-101'].join('\n'));
  });

  it('speaks the client’s language, in the document and in the transfer’s reference', async () => {
    const pdf = await invoicePdf({ client_id: germanClient, number: '2026-102', line_items: [{ description: 'Beratung', quantity: 1, unit_price: 1234.5 }] });
    const text = await textOf(pdf);
    expect(text).toContain('ZAHLUNGSINFORMATIONEN');
    expect(text).toMatch(/Kontoinhaber ?Acme Studio GmbH/);
    expect(await qrOf(pdf, 'de')).toBe(['BCD', '002', '1', 'SCT', 'COBADEFFXXX', 'Acme Studio GmbH', 'DE89370400440532013000', 'EUR1234.50', '', '', 'Rechnung 2026-102'].join('\n'));
  });

  it('keeps the account but prints no code and no "scan to pay" when nothing is owed: paid, closed, or nothing due; a voided invoice says so and prints no payment details', async () => {
    const pdfOf = async (transition: 'mark-paid' | 'close' | 'void' | null, items: Array<Record<string, unknown>> = lines) => {
      const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: eurClient, issue_date: '2026-03-01', line_items: items });
      expect(res.statusCode, res.body).toBe(201);
      const inv = res.json();
      expect((await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'ap@globex.test' }] })).statusCode).toBe(201);
      if (transition) await transitionInvoice(ctx.db, operatorPrincipal(w.companyId), inv.id, transition, { now: ctx.clock.now() });
      return (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).rawPayload;
    };
    for (const [name, pdf] of [
      ['paid', await pdfOf('mark-paid')],
      ['closed', await pdfOf('close')],
      ['nothing-due', await pdfOf(null, [{ description: 'Goodwill', quantity: 1, unit_price: 0 }])],
    ] as const) {
      const text = await textOf(pdf);
      expect(text, name).toContain('DE89 3704 0044 0532 0130 00');
      expect(text, name).not.toContain('Scan with your banking app');
      // No payment code: jsQR finds nothing, or at most a spurious empty match in the page's text.
      expect((await qrOf(pdf, name)) ?? '', name).not.toMatch(/^BCD/);
      expect(text, name).not.toContain('VOIDED');
    }
    // Voided: cancelled, so nothing is asked for, though nothing was paid (due_amount stays the arithmetic).
    const voided = await textOf(await pdfOf('void'));
    expect(voided).toMatch(/INVOICE VOIDED/);
    expect(voided).toContain('Amount due €0.00');
    expect(voided).not.toContain('PAYMENT DETAILS');
    expect(voided).not.toContain('DE89 3704 0044 0532 0130 00');
  });

  it('prints a local account for another currency, without a GiroCode (SEPA transfers are in EUR)', async () => {
    await account({ currency: 'USD', holder: 'Acme Studio Inc', local_account: 'Routing 021000021\nAccount 123456789', bank_name: 'Chase' });
    const pdf = await invoicePdf({ currency: 'USD', number: 'US-1', line_items: lines });
    const text = await textOf(pdf);
    expect(text).toContain('PAYMENT DETAILS');
    expect(text).toContain('Acme Studio Inc');
    expect(text).toMatch(/Routing 021000021 ?Account 123456789/);
    expect(text).not.toContain('Scan with your banking app');
    expect(await qrOf(pdf, 'usd')).toBeNull();
    // A currency with accounts but none in the invoice's: nothing printed.
    const chf = await invoicePdf({ currency: 'CHF', number: 'CH-1', line_items: lines });
    expect(await textOf(chf)).not.toContain('PAYMENT DETAILS');
  });
});
