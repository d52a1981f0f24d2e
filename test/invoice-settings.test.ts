import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { extractText } from 'unpdf';
import { main } from '../src/cli/main.ts';
import { formatInvoiceNumber, numberFormatProblem, numberPattern, sequenceStart } from '../src/modules/billing/invoice-settings/number-format.ts';
import { LOGO_MAX_BYTES } from '../src/modules/billing/invoice-settings/logo-limits.ts';
import { multipartBody } from './fixtures/expenses-catalog.ts';
import { apiOf, insertClient, insertItemCategories, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';
import { createTestContext, onPostgres, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Invoice settings (issue 25 item 1): Settings -> Invoicing's routes, who may
 * read and change them, bad input (nothing written), the logo (PNG, JPEG, SVG
 * cleaned or refused, size and type limits), the defaults a new invoice takes,
 * the number format with its counter, yearly reset and concurrency, the PDF's
 * texts in English and German, the client's VAT id and invoice e-mail, the
 * backup record and the CLI.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let owner: Caller;
let admin: Caller;
let manager: Caller;
let member: Caller;

const SETTINGS = '/web/api/invoice-settings';
const LOGO = `${SETTINGS}/logo`;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  [owner, admin, manager, member] = await Promise.all([w.owner, w.admin, w.mgrInvoices, w.member].map((c) => sessionFor(ctx.db, c, ctx.clock.now())));
});
afterAll(() => ctx.close());

const web = (caller: Caller, method: 'GET' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: payload as never, headers });

async function settingsRow(companyId = w.companyId) {
  return ctx.db.selectFrom('invoice_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

const fileCount = async (companyId = w.companyId) =>
  Number((await ctx.db.selectFrom('files').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow()).n);

function pngOf(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(120);
  return PNG.sync.write(png);
}
/** The smallest baseline JPEG (1×1): what pdfkit reads of a JPEG is its header. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by hand -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 120 40">
  <defs><linearGradient id="g"><stop offset="0" stop-color="#0a7"/><stop offset="1" stop-color="#07a"/></linearGradient></defs>
  <rect width="120" height="40" rx="6" fill="url(#g)"/><use xlink:href="#g"/>
  <text x="10" y="26" font-size="18" fill="#fff">ACME</text>
</svg>`;

async function upload(caller: Caller, data: Buffer, filename: string, type?: string, field = 'logo') {
  const { payload, headers } = await multipartBody({}, { field, filename, type, data });
  return request(ctx.app, caller, { method: 'PUT', url: LOGO, payload, headers });
}

async function pdfText(bytes: Uint8Array) {
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return text.replace(/[\s\u00a0\u202f]+/g, ' ');
}

describe('number format (pure)', () => {
  it('fills the year and the zero-padded sequence; a larger number grows', () => {
    expect(formatInvoiceNumber('{YYYY}-{NNNN}', 2026, 42)).toBe('2026-0042');
    expect(formatInvoiceNumber('INV-{NNN}', 2026, 12345)).toBe('INV-12345');
    expect(formatInvoiceNumber('R{N}/{YYYY}', 2027, 7)).toBe('R7/2027');
  });

  it('refuses formats without one sequence, with unknown or repeated placeholders, or stray braces', () => {
    for (const bad of ['2026-', '{NNNN}{NN}', '{YYYY}-{YYYY}-{N}', '{YY}-{NNNN}', 'A{NNNN}}', ' {N}', '{NNNNNNNNNN}', `${'x'.repeat(40)}{N}`]) {
      expect(numberFormatProblem(bad), bad).not.toBeNull();
    }
    for (const good of ['{YYYY}-{NNNN}', 'INV-{N}', 'RE {YYYY}/{NNNNNN}']) expect(numberFormatProblem(good), good).toBeNull();
  });

  it('matches exactly the numbers of one year, regex characters in the prefix taken literally', () => {
    const pattern = new RegExp(numberPattern('R.{YYYY}+({NNNN})', 2026));
    expect(pattern.exec('R.2026+(0042)')?.[1]).toBe('0042');
    expect(pattern.test('Rx2026+(0042)')).toBe(false);
    expect(pattern.test('R.2025+(0042)')).toBe(false);
  });

  it('restarts at 1 in another year only with the yearly reset', () => {
    expect(sequenceStart({ next_number: 9, yearly_reset: true, number_year: 2026 }, 2027)).toBe(1);
    expect(sequenceStart({ next_number: 9, yearly_reset: false, number_year: 2026 }, 2027)).toBe(9);
    expect(sequenceStart({ next_number: 9, yearly_reset: true, number_year: 2026 }, 2026)).toBe(9);
    expect(sequenceStart({ next_number: 42, yearly_reset: true, number_year: null }, 2026)).toBe(42);
  });
});

describe('reading and changing the settings', () => {
  it('gives the defaults before anything is saved, with the workspace facts read-only', async () => {
    const res = await web(owner, 'GET', SETTINGS);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      legal_name: null,
      vat_id: null,
      registration_number: null,
      default_payment_term: null,
      default_payment_days: null,
      default_notes: null,
      footer: null,
      number_format: null,
      next_number: 1,
      yearly_reset: false,
      street: null,
      postal_code: null,
      city: null,
      country_code: null,
      contact_name: null,
      vat_exemption_reason: null,
      logo: null,
      workspace_name: 'Acme Studio',
      address: '1 Main Street\n10115 Berlin',
      tax_id: null,
      sender_email: null,
      sender_phone: null,
      updated_at: null,
    });
    expect(await settingsRow()).toBeUndefined();
  });

  it('owners, administrators and managers read them; members do not; API keys never reach the web routes', async () => {
    for (const caller of [owner, admin, manager]) expect((await web(caller, 'GET', SETTINGS)).statusCode).toBe(200);
    const refused = await web(member, 'GET', SETTINGS);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    expect((await api(w.owner, 'GET' as never, SETTINGS)).json().error).toBe('session_required');
  });

  it('owners and administrators change them; the row is created on the first save', async () => {
    const res = await web(admin, 'PATCH', SETTINGS, {
      legal_name: '  Acme Studio GmbH ',
      vat_id: 'DE999999999',
      registration_number: 'HRB 12345 B',
      default_notes: 'Thank you for your business.',
      footer: 'Acme Studio GmbH · Managing director: Olive Owner',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ legal_name: 'Acme Studio GmbH', vat_id: 'DE999999999', registration_number: 'HRB 12345 B', next_number: 1 });
    expect(res.json().updated_at).toEqual(expect.any(String));
    expect(await settingsRow()).toMatchObject({ legal_name: 'Acme Studio GmbH', footer: 'Acme Studio GmbH · Managing director: Olive Owner' });
    // "" and null clear a text
    const cleared = await web(owner, 'PATCH', SETTINGS, { registration_number: '' });
    expect(cleared.json().registration_number).toBeNull();
    await web(owner, 'PATCH', SETTINGS, { registration_number: 'HRB 12345 B' });
    const audit = await ctx.db.selectFrom('audit_logs').select('action').where('company_id', '=', w.companyId).where('action', '=', 'invoice_settings.updated').execute();
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it('managers and members may not change them (403), and nothing changes', async () => {
    const before = await settingsRow();
    for (const caller of [manager, member]) {
      const res = await web(caller, 'PATCH', SETTINGS, { vat_id: 'XX1' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    expect(await settingsRow()).toEqual(before);
  });

  it('keeps the e-invoice details, the country as an upper-case ISO code', async () => {
    const res = await web(owner, 'PATCH', SETTINGS, { street: ' Hauptstraße 1 ', postal_code: '10115', city: 'Berlin', country_code: 'de', contact_name: 'Olive Owner', vat_exemption_reason: '§ 19 UStG' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ street: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country_code: 'DE', contact_name: 'Olive Owner', vat_exemption_reason: '§ 19 UStG' });
    const cleared = await web(owner, 'PATCH', SETTINGS, { country_code: '' });
    expect(cleared.json().country_code).toBeNull();
  });

  it('refuses bad input with a 400 naming the field and writes nothing', async () => {
    const before = await settingsRow();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ colour: 'red' }, 'colour'],
      [{ legal_name: 5 }, 'legal_name'],
      [{ legal_name: 'x'.repeat(256) }, 'legal_name'],
      [{ vat_id: 'x'.repeat(51) }, 'vat_id'],
      [{ footer: 'x'.repeat(2001) }, 'footer'],
      [{ default_notes: 'a\u0000b' }, 'default_notes'],
      [{ number_format: '2026-' }, 'number_format'],
      [{ number_format: '{YY}-{NNNN}' }, 'number_format'],
      [{ number_format: '{YYYY}-{NNNN}', next_number: 0 }, 'next_number'],
      [{ number_format: '{YYYY}-{NNNN}', next_number: 1.5 }, 'next_number'],
      [{ number_format: 'INV-{NNNN}', yearly_reset: true }, 'yearly_reset'],
      [{ next_number: 7 }, 'next_number'],
      [{ default_payment_term: 'net_90' }, 'default_payment_term'],
      [{ default_payment_term: 'custom' }, 'default_payment_days'],
      [{ default_payment_term: 'net_30', default_payment_days: 10 }, 'default_payment_days'],
      [{ country_code: 'XX' }, 'country_code'],
      [{ country_code: 'DEU' }, 'country_code'],
      [{ country_code: 'DD' }, 'country_code'], // withdrawn: ICU still names it "Germany"
      [{ country_code: 'UK' }, 'country_code'], // exceptionally reserved: the United Kingdom is GB
      [{ country_code: 5 }, 'country_code'],
      [{ postal_code: 'x'.repeat(21) }, 'postal_code'],
      [{ vat_exemption_reason: 'x'.repeat(256) }, 'vat_exemption_reason'],
      [{}, ''],
    ];
    for (const [body, field] of cases) {
      const res = await web(owner, 'PATCH', SETTINGS, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      if (field) expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    expect(await settingsRow()).toEqual(before);
  });

  it('keeps each workspace’s settings to itself', async () => {
    const other = await makeInvoiceWorkspace(ctx.db, { name: 'Other Ltd' });
    const otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
    const res = await web(otherOwner, 'GET', SETTINGS);
    expect(res.json()).toMatchObject({ legal_name: null, vat_id: null, workspace_name: 'Other Ltd' });
    await web(otherOwner, 'PATCH', SETTINGS, { vat_id: 'GB123' });
    expect((await web(owner, 'GET', SETTINGS)).json().vat_id).toBe('DE999999999');
    expect((await settingsRow(other.companyId))?.vat_id).toBe('GB123');
  });
});

describe('the logo', () => {
  it('takes a PNG, shows its description (never a storage key) and serves its bytes for the preview', async () => {
    const png = pngOf(300, 100);
    const res = await upload(owner, png, 'logo.png', 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().logo).toEqual({ content_type: 'image/png', byte_size: png.length, filename: 'logo.png', uploaded_at: expect.any(String) });
    expect(JSON.stringify(res.json())).not.toMatch(/file_id/);
    const got = await web(manager, 'GET', LOGO);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(got.rawPayload, png)).toBe(0);
  });

  it('replaces the logo (the old file goes) and takes a JPEG by its bytes when the type is not declared', async () => {
    const files = await fileCount();
    const res = await upload(owner, JPEG, 'photo.jpg', 'application/octet-stream');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().logo).toMatchObject({ content_type: 'image/jpeg', byte_size: JPEG.length });
    expect(await fileCount()).toBe(files);
  });

  it('cleans an SVG and keeps what draws it (viewBox, gradients, internal references)', async () => {
    const res = await upload(admin, Buffer.from(SVG), 'logo.svg', 'image/svg+xml');
    expect(res.statusCode, res.body).toBe(200);
    const svg = (await web(owner, 'GET', LOGO));
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.headers['content-security-policy']).toContain("default-src 'none'");
    const text = svg.rawPayload.toString();
    expect(text).toMatch(/^<svg /);
    expect(text).toContain('viewBox="0 0 120 40"');
    expect(text).toContain('<linearGradient id="g">');
    expect(text).not.toContain('<?xml');
  });

  it('refuses an SVG with a script, an event handler, an external link or foreign content (400 naming logo), writing nothing', async () => {
    const before = (await web(owner, 'GET', LOGO)).rawPayload;
    const files = await fileCount();
    const hostile = [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="1" height="1"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" onclick="alert(1)"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect width="1" height="1"/></a></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/a.css);</style></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"></svg>',
    ];
    for (const svg of hostile) {
      const res = await upload(owner, Buffer.from(svg), 'evil.svg', 'image/svg+xml');
      expect(res.statusCode, svg).toBe(400);
      expect(res.json().field, svg).toBe('logo');
    }
    expect(await fileCount()).toBe(files);
    expect(Buffer.compare((await web(owner, 'GET', LOGO)).rawPayload, before)).toBe(0);
  });

  it('refuses what is not an image (415), a mismatch or broken image (400), too large (413), a wrong part (400): nothing written', async () => {
    const files = await fileCount();
    const before = (await settingsRow())?.logo_file_id;
    const notImage = await upload(owner, Buffer.from('%PDF-1.7 not a logo'), 'doc.pdf', 'application/pdf');
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json()).toMatchObject({ error: 'unsupported_media_type', field: 'logo' });
    const text = await upload(owner, Buffer.from('hello'), 'x.png', 'application/octet-stream');
    expect(text.statusCode).toBe(415);
    const mismatch = await upload(owner, pngOf(2, 2), 'x.jpg', 'image/jpeg');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().field).toBe('logo');
    const broken = await upload(owner, Buffer.concat([pngOf(2, 2).subarray(0, 8), Buffer.from('garbage')]), 'x.png', 'image/png');
    expect(broken.statusCode).toBe(400);
    const big = await upload(owner, Buffer.concat([pngOf(2, 2), Buffer.alloc(LOGO_MAX_BYTES)]), 'big.png', 'image/png');
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'payload_too_large', field: 'logo' });
    const wrongField = await upload(owner, pngOf(2, 2), 'x.png', 'image/png', 'picture');
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().field).toBe('picture');
    const json = await web(owner, 'PUT', LOGO, { logo: 'aGVsbG8=' });
    expect(json.statusCode).toBe(400);
    expect(json.json().field).toBe('logo');
    expect(await fileCount()).toBe(files);
    expect((await settingsRow())?.logo_file_id).toBe(before);
  });

  it('only owners and administrators upload or remove it', async () => {
    for (const caller of [manager, member]) {
      expect((await upload(caller, pngOf(2, 2), 'x.png', 'image/png')).statusCode).toBe(403);
      expect((await web(caller, 'DELETE', LOGO)).statusCode).toBe(403);
    }
    expect((await web(member, 'GET', LOGO)).statusCode).toBe(403);
  });
});

describe('defaults of a new invoice', () => {
  let plainClient: string;
  let termsClient: string;
  beforeAll(async () => {
    plainClient = await insertClient(ctx.db, w.companyId, { name: 'Plain Client' });
    termsClient = await insertClient(ctx.db, w.companyId, { name: 'Terms Client', paymentTerms: 'net_15' });
  });

  it('takes the default notes when the invoice has none; explicit notes (or null) win', async () => {
    const line = [{ description: 'x', unit_price: 1 }];
    const a = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: plainClient, number: 'D-1', line_items: line });
    expect(a.json().notes).toBe('Thank you for your business.');
    const b = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: plainClient, number: 'D-2', notes: 'Own notes', line_items: line });
    expect(b.json().notes).toBe('Own notes');
    const c = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: plainClient, number: 'D-3', notes: null, line_items: line });
    expect(c.json().notes).toBeNull();
  });

  it('takes the default payment term for a client without terms; the client’s and the request’s win', async () => {
    expect((await web(owner, 'PATCH', SETTINGS, { default_payment_term: 'custom', default_payment_days: 21 })).statusCode).toBe(200);
    const line = [{ description: 'x', unit_price: 1 }];
    const a = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: plainClient, number: 'T-1', issue_date: '2026-03-01', line_items: line });
    expect(a.json()).toMatchObject({ payment_term: 'custom', due_date: '2026-03-22' });
    const b = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: termsClient, number: 'T-2', issue_date: '2026-03-01', line_items: line });
    expect(b.json()).toMatchObject({ payment_term: 'net_15', due_date: '2026-03-16' });
    const c = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: plainClient, number: 'T-3', issue_date: '2026-03-01', payment_term: 'upon_receipt', line_items: line });
    expect(c.json()).toMatchObject({ payment_term: 'upon_receipt', due_date: '2026-03-01' });
    await web(owner, 'PATCH', SETTINGS, { default_payment_term: 'net_45' });
    const d = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: plainClient, number: 'T-4', issue_date: '2026-03-01', line_items: line });
    expect(d.json()).toMatchObject({ payment_term: 'net_45', due_date: '2026-04-15' });
  });
});

describe('numbering with a format', () => {
  let nw: InvoiceWorkspace;
  let nOwner: Caller;
  let client: string;
  const line = [{ description: 'x', unit_price: 1 }];
  const create = (body: Record<string, unknown> = {}) => api(nw.owner, 'POST', '/api/v2/invoices', { client_id: client, line_items: line, ...body });

  beforeAll(async () => {
    nw = await makeInvoiceWorkspace(ctx.db, { name: 'Numbers Inc' });
    nOwner = await sessionFor(ctx.db, nw.owner, ctx.clock.now());
    client = await insertClient(ctx.db, nw.companyId, { name: 'Numbered Client' });
  });

  it('keeps the all-digit numbering without a format', async () => {
    expect((await create()).json().number).toBe('1');
    expect((await create()).json().number).toBe('2');
  });

  it('numbers from the format and the next number, skipping taken ones; explicit numbers still work, duplicates 409', async () => {
    const set = await web(nOwner, 'PATCH', SETTINGS, { number_format: '{YYYY}-{NNNN}', next_number: 42 });
    expect(set.statusCode, set.body).toBe(200);
    expect((await create({ issue_date: '2026-05-01' })).json().number).toBe('2026-0042');
    expect((await create({ issue_date: '2026-05-02' })).json().number).toBe('2026-0043');
    expect((await settingsRow(nw.companyId))).toMatchObject({ next_number: 44, number_year: 2026 });
    // an explicit number ahead of the counter: the counter skips past it
    expect((await create({ number: '2026-0050' })).json().number).toBe('2026-0050');
    expect((await create({ issue_date: '2026-05-03' })).json().number).toBe('2026-0051');
    const dup = await create({ number: '2026-0051' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().field).toBe('number');
    // the preview shows the next number without using it
    const preview = await web(nOwner, 'POST' as never, '/web/api/invoices/preview', { client_id: client, issue_date: '2026-05-04', line_items: line });
    expect(preview.json().number).toBe('2026-0052');
    expect((await create({ issue_date: '2026-05-04' })).json().number).toBe('2026-0052');
  });

  it('gives parallel creates distinct, consecutive numbers', async () => {
    await web(nOwner, 'PATCH', SETTINGS, { number_format: 'P-{NNN}', next_number: 1 });
    const results = await Promise.all(Array.from({ length: 8 }, () => create({ issue_date: '2026-06-01' })));
    const numbers = results.map((r) => r.json().number).sort();
    expect(numbers).toEqual(['P-001', 'P-002', 'P-003', 'P-004', 'P-005', 'P-006', 'P-007', 'P-008']);
  });

  it('a back-dated invoice of an earlier year continues that year’s numbers and leaves the counter alone', async () => {
    await web(nOwner, 'PATCH', SETTINGS, { number_format: '{YYYY}-{NNNN}', yearly_reset: true });
    // the last format set next_number 9 (after P-008); number_year is 2026
    expect((await create({ issue_date: '2026-07-01' })).json().number).toBe('2026-0053');
    expect((await create({ issue_date: '2025-12-31' })).json().number).toBe('2025-0001');
    expect(await settingsRow(nw.companyId)).toMatchObject({ next_number: 54, number_year: 2026 });
  });

  it('restarts at 1 in a new year with the yearly reset (the clock crosses the year)', async () => {
    const now = ctx.clock.now();
    const todayYear = (await create()).json().number.slice(0, 4);
    expect(todayYear).toBe(String(now.getUTCFullYear()));
    ctx.clock.advance(Date.UTC(now.getUTCFullYear() + 1, 0, 2, 12) - now.getTime());
    const next = (await create()).json().number;
    expect(next).toBe(`${now.getUTCFullYear() + 1}-0001`);
    expect((await create()).json().number).toBe(`${now.getUTCFullYear() + 1}-0002`);
  });
});

describe('the PDF', () => {
  let pw: InvoiceWorkspace;
  let pOwner: Caller;

  beforeAll(async () => {
    pw = await makeInvoiceWorkspace(ctx.db, { name: 'Print Shop', sender_email: 'billing@print.example', tax_id: '12/345/67890' });
    pOwner = await sessionFor(ctx.db, pw.owner, ctx.clock.now());
    await insertItemCategories(ctx.db, pw.companyId, ['Books', 'Fee']);
    const res = await web(pOwner, 'PATCH', SETTINGS, {
      legal_name: 'Print Shop GmbH',
      vat_id: 'DE111222333',
      registration_number: 'HRB 777',
      footer: 'Print Shop GmbH · Amtsgericht Berlin · Managing director: P. Owner',
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  async function invoicePdf(language: 'en' | 'de') {
    const client = await insertClient(ctx.db, pw.companyId, { name: language === 'de' ? 'Kunde GmbH' : 'Client Ltd', address: '5 Client Way' });
    const patched = await api(pw.owner, 'PATCH', `/api/v2/clients/${client}`, { language, vat_id: 'FR12345678901', invoice_email: 'ap@client.example' });
    expect(patched.statusCode, patched.body).toBe(200);
    const inv = await api(pw.owner, 'POST', '/api/v2/invoices', {
      client_id: client,
      issue_date: '2026-03-01',
      tax: 19,
      tax2: 7,
      line_items: [
        { description: 'Development', quantity: 12.5, unit_price: 100, taxed: true, taxed2: false },
        { kind: 'Books', description: 'Reference book', quantity: 1, unit_price: 50, taxed: false, taxed2: true },
        { kind: 'Fee', description: 'Untaxed fee', quantity: 1, unit_price: 10, taxed: false, taxed2: false },
      ],
    });
    expect(inv.statusCode, inv.body).toBe(201);
    // The first line as imported time (the import is tested elsewhere): its unit is hours.
    await ctx.db.updateTable('invoice_line_items').set({ import_source: 'time' }).where('invoice_id', '=', inv.json().id).where('description', '=', 'Development').execute();
    const pdf = await api(pw.owner, 'GET', `/api/v2/invoices/${inv.json().id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    return { bytes: pdf.rawPayload, text: await pdfText(pdf.rawPayload) };
  }

  it('prints the seller and client details, the footer, hours and which taxes each line bears (English)', async () => {
    const { text } = await invoicePdf('en');
    for (const expected of [
      'Print Shop GmbH',
      '1 Main Street 10115 Berlin',
      'billing@print.example',
      'Tax ID 12/345/67890',
      'VAT ID DE111222333',
      'Registration no. HRB 777',
      'BILL TO Client Ltd 5 Client Way VAT ID FR12345678901',
      'Service Development 12.5 h €100.00 €1,250.00 1',
      'Books Reference book 1 €50.00 €50.00 2',
      'Fee Untaxed fee 1 €10.00 €10.00 –',
      '1 = Tax (19%) on €1,250.00',
      '2 = Tax 2 (7%) on €50.00',
      'Tax (19%) €237.50',
      'Tax 2 (7%) €3.50',
      'Print Shop GmbH · Amtsgericht Berlin · Managing director: P. Owner',
      'Print Shop GmbH · Invoice',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('speaks German to a German client: the same facts with German labels', async () => {
    const { text } = await invoicePdf('de');
    for (const expected of [
      'RECHNUNG',
      'Steuernummer 12/345/67890',
      'USt-IdNr. DE111222333',
      'Registernummer HRB 777',
      'RECHNUNG AN Kunde GmbH 5 Client Way USt-IdNr. FR12345678901',
      'Leistung Development 12,5 h 100,00 € 1.250,00 € 1',
      '1 = Steuer (19 %) auf 1.250,00 €',
      '2 = Steuer 2 (7 %) auf 50,00 €',
      'Print Shop GmbH · Amtsgericht Berlin',
      'Seite 1 von 1',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('draws the logo: a PNG as an image, an SVG as vector paths; no tax column without taxes', async () => {
    expect((await upload(pOwner, pngOf(400, 100), 'logo.png', 'image/png')).statusCode).toBe(200);
    const client = await insertClient(ctx.db, pw.companyId, { name: 'Logo Client' });
    const inv = (await api(pw.owner, 'POST', '/api/v2/invoices', { client_id: client, line_items: [{ description: 'x', unit_price: 1 }] })).json();
    const withPng = (await api(pw.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).rawPayload;
    expect(withPng.toString('latin1')).toMatch(/\/Subtype \/Image/);
    const text = await pdfText(withPng);
    expect(text).not.toContain('The Tax column');
    expect(text).toContain('Service x 1 €1.00 €1.00 Subtotal');

    expect((await upload(pOwner, Buffer.from(SVG), 'logo.svg', 'image/svg+xml')).statusCode).toBe(200);
    const withSvg = (await api(pw.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`)).rawPayload;
    expect(withSvg.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
    expect(await pdfText(withSvg)).toContain('ACME');
    expect((await web(pOwner, 'DELETE', LOGO)).json().logo).toBeNull();
  });
});

describe('the client’s VAT id and invoice e-mail', () => {
  it('are written and read through the clients API by those who see invoicing defaults; bad values are 400', async () => {
    const created = await api(w.owner, 'POST', '/api/v2/clients', { name: 'VAT Client', vat_id: ' ATU12345678 ', invoice_email: 'invoices@vat.example' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ vat_id: 'ATU12345678', invoice_email: 'invoices@vat.example' });
    const id = created.json().id;
    for (const [body, field] of [
      [{ invoice_email: 'not-an-address' }, 'invoice_email'],
      [{ vat_id: 'x'.repeat(51) }, 'vat_id'],
      [{ vat_id: 12 }, 'vat_id'],
    ] as const) {
      const res = await api(w.owner, 'PATCH', `/api/v2/clients/${id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toBe(field);
    }
    const cleared = await api(w.owner, 'PATCH', `/api/v2/clients/${id}`, { vat_id: null, invoice_email: '' });
    expect(cleared.json()).toMatchObject({ vat_id: null, invoice_email: null });
    // Like the other invoicing defaults, hidden from a member (who sees only the directory fields).
    const row = await ctx.db.selectFrom('clients').select(['vat_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.vat_id).toBeNull();
  });
});

describe('backup', () => {
  it('exports the settings record with the logo as metadata, never bytes or storage keys', async () => {
    // A fresh session: the numbering tests moved the clock past the first ones' lifetime.
    await upload(await sessionFor(ctx.db, w.owner, ctx.clock.now()), pngOf(10, 10), 'brand.png', 'image/png');
    const res = await api(w.owner, 'GET', '/api/v2/backup/invoice_settings');
    expect(res.statusCode, res.body).toBe(200);
    const records = res.json().records;
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      workspace_id: w.companyId,
      legal_name: 'Acme Studio GmbH',
      vat_id: 'DE999999999',
      registration_number: 'HRB 12345 B',
      default_notes: 'Thank you for your business.',
      default_payment_term: 'net_45',
      logo: { content_type: 'image/png', byte_size: pngOf(10, 10).length, file_name: 'brand.png' },
    });
    expect(Object.keys(records[0])).not.toContain('logo_file_id');
    expect(JSON.stringify(records[0])).not.toMatch(/iVBOR|"data"/);
    const clients = await api(w.owner, 'GET', '/api/v2/backup/clients');
    expect(clients.json().records.find((c: { name: string }) => c.name === 'VAT Client')).toMatchObject({ vat_id: null, invoice_email: null });
  });
});

describe('sheaf admin invoice-settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-invoice-settings-'));
  async function sheaf(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const database = { db: ctx.db, kind: onPostgres ? 'postgres' : 'pglite', close: async () => {} } as const;
    const code = await main([...args, '--json'], {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      env: { LOG_LEVEL: 'silent', DATA_DIR: dir },
      openDatabase: async () => database as never,
    });
    const parse = (s: string) => {
      try {
        return JSON.parse(s);
      } catch {
        return undefined;
      }
    };
    return { code, json: parse(out.join('\n')), error: parse(err.join('\n')) };
  }

  it('shows and sets the settings, the logo from a file; bad input changes nothing', async () => {
    const cw = await makeInvoiceWorkspace(ctx.db, { name: 'Cli Co' });
    const shown = await sheaf('admin', 'invoice-settings', 'show', '--workspace', cw.companyId);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({ legal_name: null, number_format: null, workspace_name: 'Cli Co' });
    const logo = join(dir, 'logo.svg');
    writeFileSync(logo, SVG);
    const set = await sheaf('admin', 'invoice-settings', 'set', '--workspace', cw.companyId, '--legal-name', 'Cli Co AG', '--number-format', 'RE-{YYYY}-{NNN}', '--next-number', '5', '--yearly-reset', 'true', '--logo', logo);
    expect(set.code, JSON.stringify(set.error)).toBe(0);
    expect(set.json).toMatchObject({ legal_name: 'Cli Co AG', number_format: 'RE-{YYYY}-{NNN}', next_number: 5, yearly_reset: true, logo: { content_type: 'image/svg+xml', filename: 'logo.svg' } });
    const evil = join(dir, 'evil.svg');
    writeFileSync(evil, '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const refused = await sheaf('admin', 'invoice-settings', 'set', '--workspace', cw.companyId, '--legal-name', 'Changed', '--logo', evil);
    expect(refused.code).not.toBe(0);
    expect(refused.error).toMatchObject({ field: 'logo' });
    const badFormat = await sheaf('admin', 'invoice-settings', 'set', '--workspace', cw.companyId, '--number-format', 'nothing');
    expect(badFormat.error).toMatchObject({ field: 'number_format' });
    expect((await sheaf('admin', 'invoice-settings', 'set', '--workspace', cw.companyId)).code).toBe(2);
    const after = await sheaf('admin', 'invoice-settings', 'show', '--workspace', cw.companyId);
    expect(after.json).toMatchObject({ legal_name: 'Cli Co AG', logo: { content_type: 'image/svg+xml' } });
    const removed = await sheaf('admin', 'invoice-settings', 'set', '--workspace', cw.companyId, '--logo', 'none');
    expect(removed.json.logo).toBeNull();
  });
});
