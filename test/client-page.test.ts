import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/sessions.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { insertClient, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * The client's page of a sent invoice (issue 25 item 6): every e-mail about the
 * invoice carries a secret link (/c#<token>, stored hashed); the page shows the
 * invoice, its payments and the amount due, and gives its PDF, to whoever holds
 * the link, without signing in; revoking ends every link at once; unknown and
 * revoked links are a plain 404; nothing else of the workspace is shown; the
 * answers are never cached or referred, and are counted per address.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let clientId: string;
const s = {} as Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller>;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'sheaf-client-page-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Sheaf</title>');
  ctx = await createTestContext({ config: { webDist: dist } });
  w = await makeInvoiceWorkspace(ctx.db, { sender_email: 'billing@acme.test', tax_id: 'DE123456789' } as never);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex', address: '5 Client Road\nHamburg' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
}, 120_000);
afterAll(async () => {
  await ctx.close();
  rmSync(dist, { recursive: true, force: true });
});

const api = (caller: Caller | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: payload as object | undefined, headers });
const page = (token: unknown, headers: Record<string, string> = {}) => api(null, 'POST', '/web/api/client-page', { token }, headers);
const pdf = (token: unknown) => api(null, 'POST', '/web/api/client-page/pdf', { token });

async function draft(extra: Record<string, unknown> = {}) {
  const res = await api(w.owner, 'POST', '/api/v2/invoices', {
    client_id: clientId,
    issue_date: '2026-03-01',
    payment_term: 'net_30',
    subject: 'Website relaunch',
    notes: 'Thank you for your business.',
    line_items: [
      { description: 'Design', quantity: 2, unit_price: 100 },
      { kind: 'Product', description: 'Hosting', quantity: 1, unit_price: 42.5, taxed: false },
    ],
    tax: 19,
    ...extra,
  });
  if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
}

/** Sends the invoice and returns the token its e-mail carries. */
async function sendAndTakeToken(id: string, event = 'send') {
  const res = await api(w.owner, 'POST', `/api/v2/invoices/${id}/messages`, { event_type: event, recipients: [{ email: 'ap@globex.test' }] });
  expect(res.statusCode, res.body).toBe(201);
  const job = await ctx.db
    .selectFrom('invoice_messages as m')
    .innerJoin('outbox as o', (j) => j.onRef('o.company_id', '=', 'm.company_id').onRef('o.id', '=', 'm.outbox_id'))
    .select(['o.payload', 'm.body'])
    .where('m.id', '=', res.json().id)
    .executeTakeFirstOrThrow();
  const text = (job.payload as { text: string }).text;
  const token = /\/c#([A-Za-z0-9_-]{43})\n$/.exec(text)?.[1];
  expect(token, text).toBeDefined();
  // The recorded message (history, backup) never holds the link.
  expect(job.body).not.toContain(token);
  expect(res.json().body).not.toContain('/c#');
  return { token: token!, text, message: res.json() };
}

const expectGone = (res: Awaited<ReturnType<typeof page>>) => {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.json()).toEqual({ error: 'not_found', error_description: 'The page was not found.', message: 'The page was not found.' });
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
};

describe('the link in the e-mail', () => {
  it('is made when the invoice is sent, stored only as its hash, in the e-mail in the client’s language', async () => {
    const inv = await draft();
    const before = await ctx.db.selectFrom('client_links').select('token_hash').where('subject_id', '=', inv.id).execute();
    expect(before).toEqual([]);
    const { token, text } = await sendAndTakeToken(inv.id);
    expect(text).toMatch(new RegExp(`\\n\\nView the invoice, download it and see what is paid online: http://[^\\s]+/c#${token}\\n$`));
    const rows = await ctx.db.selectFrom('client_links').selectAll().where('subject_id', '=', inv.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ company_id: w.companyId, subject_type: 'invoice', created_by: w.owner.userId, revoked_at: null });
    expect(Buffer.compare(rows[0].token_hash, hashToken(token))).toBe(0);
    expect(rows[0].token_hash.toString('utf8')).not.toContain(token);

    const german = (await api(w.owner, 'POST', '/api/v2/clients', { name: 'Müller GmbH', language: 'de' })).json();
    const de = await draft({ client_id: german.id });
    expect((await sendAndTakeToken(de.id)).text).toMatch(/Rechnung online ansehen, herunterladen und Zahlungsstand prüfen: http:\/\/\S+\/c#[\w-]{43}\n$/);
  });

  it('each e-mail carries its own link; all of them work until revoked', async () => {
    const inv = await draft();
    const first = await sendAndTakeToken(inv.id);
    const second = await sendAndTakeToken(inv.id, 'reminder');
    expect(second.token).not.toBe(first.token);
    expect((await page(first.token)).statusCode).toBe(200);
    expect((await page(second.token)).statusCode).toBe(200);
    const summary = await api(s.owner, 'GET', `/web/api/invoices/${inv.id}/client-links`);
    expect(summary.json()).toMatchObject({ active_links: 2, last_viewed_at: expect.any(String) });
    // The invoice page asks once for its files and links.
    const sharing = await api(s.owner, 'GET', `/web/api/invoices/${inv.id}/sharing`);
    expect(sharing.json()).toEqual({ attachments: [], client_links: summary.json() });
    expect((await api(s.member, 'GET', `/web/api/invoices/${inv.id}/sharing`)).statusCode).toBe(403);
    expect((await api(s.mgrPlain, 'GET', `/web/api/invoices/${inv.id}/sharing`)).statusCode).toBe(404);
  });
});

describe('the page', () => {
  it('shows the seller, the client, the lines, the totals, the payments and the amount due, and nothing else', async () => {
    const inv = await draft();
    const { token } = await sendAndTakeToken(inv.id);
    expect((await api(s.admin, 'POST', `/web/api/invoices/${inv.id}/payments`, { amount: 100, paid_date: '2026-03-10', notes: 'internal: wire ref 42' })).statusCode).toBe(201);
    const res = await page(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers.vary ?? '').not.toContain('Cookie');
    const body = res.json();
    expect(body).toEqual({
      kind: 'invoice',
      language: 'en',
      seller: { name: 'Acme Studio', address: '1 Main Street\n10115 Berlin', email: 'billing@acme.test', phone: null, tax_id: 'DE123456789', vat_id: null },
      client: { name: 'Globex', address: '5 Client Road\nHamburg', vat_id: null },
      invoice: {
        number: inv.number,
        state: 'open',
        subject: 'Website relaunch',
        purchase_order: null,
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        currency: 'EUR',
        period_start: null,
        period_end: null,
        service_period_start: null,
        service_period_end: null,
        notes: 'Thank you for your business.',
        line_items: [
          { kind: 'Service', description: 'Design', quantity: 2, unit_price: 100, amount: 200, effect: 'charge' },
          { kind: 'Product', description: 'Hosting', quantity: 1, unit_price: 42.5, amount: 42.5, effect: 'charge' },
        ],
        subtotal: 242.5,
        discount: 0,
        discount_amount: 0,
        tax: 19,
        tax_amount: 38,
        tax2: 0,
        tax2_amount: 0,
        retainer_credit: 0,
        amount: 280.5,
        paid_amount: 100,
        due_amount: 180.5,
      },
      payments: [{ paid_date: '2026-03-10', amount: 100 }],
      // The workspace holds no country, VAT id or client address parts: no e-invoice yet.
      e_invoices: [],
    });
    // No ids of the workspace, its people or records; no internal notes.
    const text = res.body;
    for (const secret of [inv.id, clientId, w.companyId, w.owner.userId, w.owner.email, inv.line_items[0].id, 'wire ref', 'Olive']) {
      expect(text).not.toContain(secret);
    }
  });

  it('gives the PDF of that invoice', async () => {
    const inv = await draft();
    const { token } = await sendAndTakeToken(inv.id);
    const res = await pdf(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="invoice-${inv.number}.pdf"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('for a German client: the PDF and e-invoices named in German as the invoice routes name them, and both VAT IDs shown', async () => {
    const german = await insertClient(ctx.db, w.companyId, { name: 'Müller Bau GmbH', address: 'Hauptstraße 1\n80331 München' });
    await ctx.db.updateTable('clients').set({ language: 'de', vat_id: 'DE811111111', country_code: 'DE', invoice_email: 'ap@mueller.test' }).where('id', '=', german).execute();
    await ctx.db.insertInto('invoice_settings').values({ company_id: w.companyId, vat_id: 'DE999999999', country_code: 'DE', vat_exemption_reason: 'Exempt' }).execute();
    try {
      const inv = await draft({ client_id: german, number: 'RE-2026-007' });
      const { token } = await sendAndTakeToken(inv.id);
      const shown = (await page(token)).json();
      expect(shown.language).toBe('de');
      expect(shown.seller).toMatchObject({ tax_id: 'DE123456789', vat_id: 'DE999999999' });
      expect(shown.client).toEqual({ name: 'Müller Bau GmbH', address: 'Hauptstraße 1\n80331 München', vat_id: 'DE811111111' });
      const res = await pdf(token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="Rechnung-RE-2026-007.pdf"');
      // The same name as the invoice's own PDF route gives.
      const own = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
      expect(own.headers['content-disposition']).toContain('filename="Rechnung-RE-2026-007.pdf"');
      const xml = await api(null, 'POST', '/web/api/client-page/e-invoice', { token, format: 'cii' });
      expect(xml.statusCode, xml.body).toBe(200);
      expect(xml.headers['content-disposition']).toBe('attachment; filename="Rechnung-RE-2026-007-cii.xml"');
    } finally {
      await ctx.db.deleteFrom('invoice_settings').where('company_id', '=', w.companyId).execute();
    }
  }, 120_000);

  it('offers the e-invoices the invoice can be, and gives them; an estimate’s or a revoked link none', async () => {
    const inv = await draft();
    const { token } = await sendAndTakeToken(inv.id);
    const eInvoice = (format: string, t: unknown = token) => api(null, 'POST', '/web/api/client-page/e-invoice', { token: t, format });
    const missing = await eInvoice('cii');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().missing_fields).toContain('client.country_code');
    // Complete the seller and the client for EN 16931 (not for XRechnung: no buyer reference).
    await ctx.db.insertInto('invoice_settings').values({ company_id: w.companyId, vat_id: 'DE999999999', country_code: 'DE', vat_exemption_reason: 'Exempt' }).execute();
    await ctx.db.updateTable('clients').set({ country_code: 'DE', invoice_email: 'ap@globex.test' }).where('id', '=', clientId).execute();
    expect((await page(token)).json().e_invoices).toEqual(['facturx', 'cii', 'ubl']);
    const xml = await eInvoice('ubl');
    expect(xml.statusCode, xml.body).toBe(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.headers['content-disposition']).toBe(`attachment; filename="invoice-${inv.number}-ubl.xml"`);
    expect(xml.headers['cache-control']).toBe('no-store');
    expect(xml.body).toContain(`<cbc:ID>${inv.number}</cbc:ID>`);
    const fx = await eInvoice('facturx');
    expect(fx.statusCode).toBe(200);
    expect(fx.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await eInvoice('xrechnung-cii')).statusCode).toBe(422);
    expect((await eInvoice('edifact')).statusCode).toBe(400);
    expect((await eInvoice('cii', 'x'.repeat(43))).statusCode).toBe(404);
    await api(s.owner, 'DELETE', `/web/api/invoices/${inv.id}/client-links`);
    expect((await eInvoice('cii')).statusCode).toBe(404);
    await ctx.db.deleteFrom('invoice_settings').where('company_id', '=', w.companyId).execute();
    await ctx.db.updateTable('clients').set({ country_code: null, invoice_email: null }).where('id', '=', clientId).execute();
  }, 120_000);

  it('unknown, malformed and revoked links are the same 404; revoking is immediate and ends every link', async () => {
    const inv = await draft();
    const a = await sendAndTakeToken(inv.id);
    const b = await sendAndTakeToken(inv.id);
    for (const token of ['A'.repeat(43), 'short', '', a.token.slice(0, 42) + (a.token.endsWith('A') ? 'B' : 'A')]) {
      expectGone(await page(token));
    }
    for (const token of [42, null]) expect((await page(token)).statusCode).toBe(400);
    expect((await page(a.token)).statusCode).toBe(200);
    const revoked = await api(s.mgrInvoices, 'DELETE', `/web/api/invoices/${inv.id}/client-links`);
    expect(revoked.statusCode).toBe(204);
    expectGone(await page(a.token));
    expectGone(await page(b.token));
    expectGone(await pdf(a.token));
    expect((await api(s.owner, 'GET', `/web/api/invoices/${inv.id}/client-links`)).json()).toMatchObject({ active_links: 0 });
    // A new link works; the revoked ones stay dead.
    const made = await api(s.owner, 'POST', `/web/api/invoices/${inv.id}/client-links`);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.headers['cache-control']).toBe('private, no-store');
    expect(made.json()).toMatchObject({ active_links: 1, url: expect.stringMatching(/^http:\/\/\S+\/c#[\w-]{43}$/) });
    const fresh = made.json().url.split('#')[1];
    expect((await page(fresh)).json().invoice.number).toBe(inv.number);
    expectGone(await page(a.token));
    const audit = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', inv.id).where('action', 'like', 'invoice.client_link%').orderBy('occurred_at').execute();
    expect(audit.map((r) => r.action)).toEqual(['invoice.client_links_revoked', 'invoice.client_link_created']);
  });

  it('refuses other bodies (400) and requests from another site (403), and answers the page /c with the link headers', async () => {
    const extra = await api(null, 'POST', '/web/api/client-page', { token: 'A'.repeat(43), invoice_id: 'x' });
    expect(extra.statusCode).toBe(400);
    const crossSite = await page('A'.repeat(43), { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error).toBe('csrf_failed');
    const html = await api(null, 'GET', '/c');
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.headers['referrer-policy']).toBe('no-referrer');
    expect(html.headers['cache-control']).toBe('no-store');
    expect(html.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(html.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    // Other pages keep the app's policy.
    expect((await api(null, 'GET', '/invoices')).headers['referrer-policy']).toBe('same-origin');
  });
});

describe('links on the invoice page', () => {
  it('a draft has none (409); whoever may see the invoice manages them; members 403; out of reach 404; API keys 403', async () => {
    const inv = await draft();
    const refused = await api(s.owner, 'POST', `/web/api/invoices/${inv.id}/client-links`);
    expect(refused.statusCode).toBe(409);
    expect(await ctx.db.selectFrom('client_links').select('id').where('subject_id', '=', inv.id).execute()).toEqual([]);
    await sendAndTakeToken(inv.id);
    expect((await api(s.mgrInvoices, 'POST', `/web/api/invoices/${inv.id}/client-links`)).statusCode).toBe(201);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await api(s.member, method, `/web/api/invoices/${inv.id}/client-links`)).statusCode).toBe(403);
      expect((await api(s.mgrPlain, method, `/web/api/invoices/${inv.id}/client-links`)).statusCode).toBe(404);
      const keyed = await api(w.owner, method, `/web/api/invoices/${inv.id}/client-links`);
      expect(keyed.statusCode).toBe(403);
      expect(keyed.json().error).toBe('session_required');
    }
    expect((await api(s.owner, 'GET', `/web/api/invoices/${inv.id}/client-links`)).json()).toMatchObject({ active_links: 2 });
  });

  it("another workspace's invoice is 404 and its links are untouched", async () => {
    const other = await makeInvoiceWorkspace(ctx.db);
    const otherClient = await insertClient(ctx.db, other.companyId, { name: 'Elsewhere' });
    const theirs = (
      await api(other.owner, 'POST', '/api/v2/invoices', { client_id: otherClient, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] })
    ).json();
    const sent = await api(other.owner, 'POST', `/api/v2/invoices/${theirs.id}/messages`, { recipients: [{ email: 'x@elsewhere.test' }] });
    expect(sent.statusCode).toBe(201);
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await api(s.owner, method, `/web/api/invoices/${theirs.id}/client-links`)).statusCode).toBe(404);
    }
    const rows = await ctx.db.selectFrom('client_links').select('revoked_at').where('subject_id', '=', theirs.id).execute();
    expect(rows).toEqual([{ revoked_at: null }]);
  });
});

describe('rate limit', () => {
  it('counts the public routes per address: over the budget, 429 with Retry-After', async () => {
    const limited = await createTestContext({ env: { RATE_LIMIT_MAX: '3' } });
    try {
      const call = () => limited.app.inject({ method: 'POST', url: '/web/api/client-page', payload: { token: 'A'.repeat(43) }, remoteAddress: '203.0.113.9' });
      const answers = [await call(), await call(), await call(), await call()];
      expect(answers.map((r) => r.statusCode)).toEqual([404, 404, 404, 429]);
      expect(answers[0].headers['ratelimit-limit']).toBe('3');
      expect(Number(answers[3].headers['retry-after'])).toBeGreaterThan(0);
      // Another address has its own budget.
      const elsewhere = await limited.app.inject({ method: 'POST', url: '/web/api/client-page', payload: { token: 'A'.repeat(43) }, remoteAddress: '203.0.113.10' });
      expect(elsewhere.statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
