import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { apiOf, insertClient, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * Where the invoice and estimate PDFs break their pages: the closing (totals, notes, payment
 * details with the GiroCode) stays on one page, with the last line, this page when it fits, and
 * is never split; the table's header is repeated on every page with lines. Read back page by page
 * with poppler's pdfinfo and pdftotext; each PDF's pages are kept as PNGs (pdftoppm) beside the
 * web app's screenshots, to be looked at.
 */

const run = promisify(execFile);
/** poppler's tools read the pages; without them (outside CI, which installs them) these tests are skipped, saying why. */
const popplerMissing = spawnSync('pdfinfo', ['-v']).error ? 'pdfinfo (poppler-utils) is not installed' : null;
if (popplerMissing && !process.env.CI) console.warn(`PDF page tests skipped: ${popplerMissing}`);
const describeWithPoppler = describe.skipIf(Boolean(popplerMissing) && !process.env.CI);
let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let owner: Caller;
const clients: Record<'en' | 'de', string> = { en: '', de: '' };
const work = mkdtempSync(join(tmpdir(), 'sheaf-pdf-pages-'));

/** A German freelancer's letterhead: the full sender block and a footer of nine lines, as many print their legal details. */
const FOOTER = Array.from({ length: 9 }, () => 'Anna Schmidt · Softwareentwicklung · Hauptstraße 1 · 10115 Berlin · Steuernummer 12/345/67890').join('\n');

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db, {
    address: 'Anna Schmidt\nHauptstraße 1\n10115 Berlin',
    sender_email: 'anna@example.de',
    sender_phone: '+49 30 1234567',
    tax_id: '12/345/67890',
  });
  owner = await sessionFor(ctx.db, w.owner, ctx.clock.now());
  const account = await request(ctx.app, owner, {
    method: 'POST',
    url: '/web/api/bank_accounts',
    payload: { currency: 'EUR', holder: 'Anna Schmidt', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bank_name: 'Commerzbank Berlin' },
  });
  expect(account.statusCode, account.body).toBe(201);
  for (const language of ['en', 'de'] as const) {
    clients[language] = await insertClient(ctx.db, w.companyId, { name: language === 'de' ? 'Müller GmbH' : 'Miller Ltd', address: 'Hauptstraße 5\n80331 München\nDeutschland' });
    await ctx.db.updateTable('clients').set({ language }).where('id', '=', clients[language]).execute();
  }
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await ctx.close();
});

async function setFooter(footer: string | null) {
  const res = await request(ctx.app, owner, { method: 'PATCH', url: '/web/api/invoice-settings', payload: { footer } });
  expect(res.statusCode, res.body).toBe(200);
}

const linesOf = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'Service', description: `Consulting, item ${i + 1}`, quantity: 8, unit_price: 95 }));

/** Each page's text (pdftotext, one page at a time), and the pages kept as PNGs named `name`. */
async function pagesOf(pdf: Buffer, name: string): Promise<string[]> {
  const file = join(work, `${name}.pdf`);
  writeFileSync(file, pdf);
  const count = Number(/^Pages:\s+(\d+)/m.exec((await run('pdfinfo', [file])).stdout)![1]);
  const pages: string[] = [];
  for (let p = 1; p <= count; p++) pages.push((await run('pdftotext', ['-f', String(p), '-l', String(p), '-layout', file, '-'])).stdout);
  mkdirSync('test-results/screens', { recursive: true });
  await run('pdftoppm', ['-png', '-r', '60', file, join(work, name)]);
  for (let p = 1; p <= count; p++) {
    const png = join(work, `${name}-${p}.png`);
    copyFileSync(png, `test-results/screens/pdf-pages-${name}-${p}.png`);
  }
  return pages;
}

async function invoicePages(language: 'en' | 'de', n: number, name: string, body: Record<string, unknown> = {}) {
  const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clients[language], issue_date: '2026-03-01', line_items: linesOf(n), ...body });
  expect(res.statusCode, res.body).toBe(201);
  const pdf = await api(w.owner, 'GET', `/api/v2/invoices/${res.json().id}/pdf`);
  expect(pdf.statusCode).toBe(200);
  return pagesOf(pdf.rawPayload, name);
}

const TEXT = {
  en: { header: /TYPE\s+DESCRIPTION/, subtotal: 'Subtotal', due: 'Amount due', payment: 'PAYMENT DETAILS', scan: 'Scan with your banking app', notes: 'NOTES' },
  de: { header: /ART\s+BESCHREIBUNG/, subtotal: 'Zwischensumme', due: 'Offener Betrag', payment: 'ZAHLUNGSINFORMATIONEN', scan: 'Mit der Banking-App', notes: 'ANMERKUNGEN' },
};
const IBAN = 'DE89 3704 0044 0532 0130 00';
const linesOn = (page: string) => (page.match(/item \d+/g) ?? []).length;

/**
 * The rules of the page breaks, for any invoice: the totals, the payment details (heading, IBAN
 * and code's caption) on one page; a page with lines starts with the table's header; the page of
 * the totals carries a line too; every line printed once.
 */
function expectCleanBreaks(pages: string[], language: 'en' | 'de', n: number, label: string) {
  const x = TEXT[language];
  const pageOf = (needle: string) => pages.findIndex((p) => p.includes(needle));
  const totals = pageOf(x.subtotal);
  expect(totals, `${label}: totals`).toBeGreaterThanOrEqual(0);
  expect(pageOf(x.due), `${label}: amount due with the totals`).toBe(totals);
  expect(pageOf(x.payment), `${label}: payment details with the totals`).toBe(totals);
  expect(pageOf(IBAN), `${label}: IBAN with the totals`).toBe(totals);
  expect(pageOf(x.scan), `${label}: the code with its details`).toBe(totals);
  expect(totals, `${label}: the closing is on the last page`).toBe(pages.length - 1);
  expect(linesOn(pages[totals]), `${label}: a line on the page of the totals`).toBeGreaterThan(0);
  pages.forEach((page, i) => {
    if (linesOn(page) > 0) expect(page, `${label}: header on page ${i + 1}`).toMatch(x.header);
  });
  expect(pages.reduce((sum, p) => sum + linesOn(p), 0), `${label}: every line once`).toBe(n);
}

describeWithPoppler('invoice PDF page breaks', () => {
  it('keeps a short invoice’s payment details and GiroCode on its one page (German letterhead, long footer)', async () => {
    await setFooter(FOOTER);
    try {
      for (const language of ['en', 'de'] as const) {
        // Eight lines with a tax under this letterhead: the totals end about 120 pt above the
        // footer. The payment block (104 pt) went alone to a second page: the space below the
        // totals was reserved twice (16 pt by the totals, 18 more by the block) and the block's
        // height was a fixed 106.
        for (const n of [1, 3, 8]) {
          const pages = await invoicePages(language, n, `short-${language}-${n}`, { tax: 19, subject: 'Relaunch der Website', purchase_order: 'PO-2026-17' });
          expect(pages.length, `${language} ${n} lines`).toBe(1);
          expect(pages[0]).toContain(IBAN);
          expect(pages[0]).toContain(TEXT[language].scan);
          expectCleanBreaks(pages, language, n, `${language} ${n}`);
        }
      }
    } finally {
      await setFooter(null);
    }
  });

  it('breaks cleanly around the first page’s end: the closing stays on page 1 while it fits, else goes to page 2 with the last line', async () => {
    for (const language of ['en', 'de'] as const) {
      const counts: number[] = [];
      for (let n = 14; n <= 19; n++) {
        const pages = await invoicePages(language, n, `boundary-${language}-${n}`);
        expectCleanBreaks(pages, language, n, `${language} ${n}`);
        if (pages.length === 2) expect(linesOn(pages[0]), `${language} ${n}: the last line carried, no more`).toBe(n - 1);
        counts.push(pages.length);
      }
      // 16 lines leave 118 pt under the totals: the block (104 pt) fits with one gap, not with two.
      expect(counts, language).toEqual([1, 1, 1, 2, 2, 2]);
    }
  });

  it('breaks long invoices (two and three pages) with the header on every page and the closing together', async () => {
    for (const language of ['en', 'de'] as const) {
      for (const n of [40, 49, 50, 80]) {
        const pages = await invoicePages(language, n, `long-${language}-${n}`, { tax: 19, notes: language === 'de' ? 'Vielen Dank für Ihren Auftrag.' : 'Thank you for your business.' });
        expectCleanBreaks(pages, language, n, `${language} ${n}`);
        const notes = pages.findIndex((p) => p.includes(TEXT[language].notes));
        expect(notes, `${language} ${n}: notes with the totals`).toBe(pages.length - 1);
      }
    }
  });
});

describeWithPoppler('estimate PDF page breaks', () => {
  it('keeps the totals and notes with the last line, under a repeated header', async () => {
    for (const language of ['en', 'de'] as const) {
      for (const n of [3, 17, 18, 19, 20, 21]) {
        const res = await api(owner, 'POST', '/web/api/estimates', {
          client_id: clients[language],
          line_items: linesOf(n),
          notes: language === 'de' ? 'Dieses Angebot gilt 30 Tage.' : 'This estimate is valid for 30 days.',
        });
        expect(res.statusCode, res.body).toBe(201);
        const pdf = await api(owner, 'GET', `/web/api/estimates/${res.json().id}/pdf`);
        expect(pdf.statusCode).toBe(200);
        const pages = await pagesOf(pdf.rawPayload, `estimate-${language}-${n}`);
        const x = TEXT[language];
        const totals = pages.findIndex((p) => p.includes(x.subtotal));
        expect(totals, `${language} ${n}`).toBe(pages.length - 1);
        expect(pages.findIndex((p) => p.includes(x.notes)), `${language} ${n}: notes with the totals`).toBe(totals);
        expect(linesOn(pages[totals]), `${language} ${n}: a line with the totals`).toBeGreaterThan(0);
        pages.forEach((page, i) => {
          if (linesOn(page) > 0) expect(page, `${language} ${n}: header on page ${i + 1}`).toMatch(x.header);
        });
        expect(pages.reduce((sum, p) => sum + linesOn(p), 0)).toBe(n);
      }
    }
  });
});
