import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf } from '../src/http/etag.ts';
import { newId } from '../src/ids.ts';
import { todayIn } from '../src/time/workspace-time.ts';
import { addMember, createTestContext, request, type Caller, type TestContext } from './helpers.ts';
import {
  apiOf,
  assignUser,
  billableProject,
  billing,
  countBilled,
  countInvoices,
  insertCategory,
  insertClient,
  insertEntry,
  insertExpense,
  makeInvoiceWorkspace,
  setInvoiceState,
  type InvoiceWorkspace,
} from './fixtures/invoices.ts';

/**
 * Invoices with explicit lines, their fields and defaults, totals, list, get,
 * PATCH, DELETE, permissions by identity and workspace isolation. Imports are in
 * invoice-import.test.ts, the PDF in invoice-pdf.test.ts, messages in
 * invoice-messages.test.ts. Runs on PGlite and, with DATABASE_URL, PostgreSQL.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let clientId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex', address: '2 Side Road' });
});
afterAll(() => ctx.close());

const line = (extra: Record<string, unknown> = {}) => ({ description: 'Consulting', quantity: 1, unit_price: 100, ...extra });

async function create(body: Record<string, unknown>, caller: Caller = w.owner) {
  const res = await api(caller, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line()], ...body });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

const today = () => todayIn('UTC', ctx.clock.now());

describe('features', () => {
  it('announces invoice-line-item-edit and invoice-pdf', async () => {
    const res = await api(w.owner, 'GET', '/api/v2/invoices');
    const tokens = String(res.headers['x-service-features']).split(', ');
    expect(tokens).toContain('invoice-line-item-edit');
    expect(tokens).toContain('invoice-pdf');
  });
});

describe('create with explicit lines', () => {
  it('applies the line defaults and marks nothing billed', async () => {
    const { projectId, taskId } = await billableProject(ctx.db, w.companyId, clientId, { rate: '100' });
    const entry = await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date: '2026-01-05' });
    const cat = await insertCategory(ctx.db, w.companyId);
    const expense = await insertExpense(ctx.db, w.companyId, { userId: w.member.userId, projectId, categoryId: cat, date: '2026-01-05', cost: '10' });

    const res = await api(w.owner, 'POST', '/api/v2/invoices', {
      client_id: clientId,
      line_items: [{}, { description: 'Second', quantity: 2, unit_price: 12.5, project_id: projectId }],
    });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(res.headers.location).toBe(`/api/v2/invoices/${inv.id}`);
    expect(res.headers.etag).toBe(etagOf(inv));
    expect(inv.state).toBe('draft');
    expect(inv.line_items).toHaveLength(2);
    expect(inv.line_items[0]).toMatchObject({ kind: 'Service', description: null, quantity: 1, unit_price: 0, amount: 0, effect: 'charge', taxed: true, taxed2: true, project_id: null, sort_order: 0 });
    expect(inv.line_items[1]).toMatchObject({ kind: 'Service', description: 'Second', quantity: 2, unit_price: 12.5, amount: 25, sort_order: 1, project_id: projectId });
    expect(typeof inv.line_items[0].id).toBe('string');
    expect(inv.amount).toBe(25);

    const t = await billing(ctx.db, 'time_entries', [entry]);
    expect(t.get(entry)).toMatchObject({ is_billed: false, invoice_id: null, invoice_line_id: null });
    const e = await billing(ctx.db, 'expenses', [expense]);
    expect(e.get(expense)).toMatchObject({ is_billed: false, invoice_id: null });
  });

  it('refuses both line_items and line_items_import, neither, and an empty list', async () => {
    const both = await api(w.owner, 'POST', '/api/v2/invoices', {
      client_id: clientId,
      line_items: [line()],
      line_items_import: { time: { summary_type: 'project' } },
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().error_description).toMatch(/not both/);
    const neither = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId });
    expect(neither.statusCode).toBe(400);
    const empty = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [] });
    expect(empty.statusCode).toBe(400);
  });

  it('refuses negative or over-precise quantities and prices, naming the field; credits use effect', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ quantity: -1 }, 'line_items.0.quantity'],
      [{ unit_price: -5 }, 'line_items.0.unit_price'],
      [{ quantity: 1.12345 }, 'line_items.0.quantity'],
      [{ unit_price: 1.12345 }, 'line_items.0.unit_price'],
      [{ kind: '' }, 'line_items.0.kind'],
      [{ kind: '   ' }, 'line_items.0.kind'],
    ];
    for (const [extra, field] of cases) {
      const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line(extra)] });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().field, JSON.stringify(extra)).toBe(field);
    }
    const neg = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line({ quantity: -1 })] });
    expect(neg.json().message).toMatch(/credit/);
    const badEffect = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line({ effect: 'refund' })] });
    expect(badEffect.statusCode).toBe(400);
    const unknown = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line({ amount: 5 })] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'unknown_field', field: 'line_items.0.amount' });
    const attrs = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items_attributes: [line()] });
    expect(attrs.statusCode).toBe(400);
    expect(attrs.json().field).toBe('line_items_attributes');
  });

  it("attributes a line to a project of the client: another client's is 400; unknown, foreign or malformed ids are 404", async () => {
    const own = (await billableProject(ctx.db, w.companyId, clientId)).projectId;
    const otherClient = (await billableProject(ctx.db, w.companyId, await insertClient(ctx.db, w.companyId))).projectId;
    const other = await makeInvoiceWorkspace(ctx.db);
    const foreign = (await billableProject(ctx.db, other.companyId, await insertClient(ctx.db, other.companyId))).projectId;
    const before = await countInvoices(ctx.db, w.companyId);
    const post = (project_id: string) =>
      api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line(), line({ project_id })] });
    const wrongClient = await post(otherClient);
    expect(wrongClient.statusCode).toBe(400);
    expect(wrongClient.json()).toMatchObject({ error: 'invalid_request', field: 'line_items.1.project_id' });
    for (const id of [foreign, newId(), 'nope']) {
      const res = await post(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found', field: 'line_items.1.project_id' });
    }
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before);
    expect((await post(own)).json().line_items[1].project_id).toBe(own);
  });

  it('computes totals by hand: discount, two taxes on flagged lines, a credit line (EUR)', async () => {
    const inv = await create({
      discount: 10,
      tax: 20,
      tax2: 5,
      line_items: [
        { description: 'Design', quantity: 10, unit_price: 100, taxed: true, taxed2: false },
        { description: 'Hosting', quantity: 2, unit_price: 50, taxed: false, taxed2: true },
        { description: 'Goodwill', quantity: 1, unit_price: 100, effect: 'credit', taxed: true, taxed2: false },
        { description: 'Odd', quantity: 0.333, unit_price: 10.005, taxed: false, taxed2: false },
      ],
    });
    // lines: 1000, 100, −100, 0.333 × 10.005 = 3.331665 → 3.33
    expect(inv.line_items.map((l: { amount: number }) => l.amount)).toEqual([1000, 100, 100, 3.33]);
    expect(inv.line_items[2].effect).toBe('credit');
    expect(inv.subtotal).toBe(1003.33);
    // discount 10% of 1003.33 = 100.333 → 100.33
    expect(inv.discount_amount).toBe(100.33);
    // tax: (1000 − 100) × 0.9 × 20% = 162; tax2: 100 × 0.9 × 5% = 4.5
    expect(inv.tax_amount).toBe(162);
    expect(inv.tax2_amount).toBe(4.5);
    // 1003.33 − 100.33 + 162 + 4.5
    expect(inv.amount).toBe(1069.5);
    expect(inv.due_amount).toBe(1069.5);
    expect(inv.paid_amount).toBe(0);
    expect([inv.tax, inv.tax2, inv.discount]).toEqual([20, 5, 10]);
  });

  it('taxes the net it prints; an invoice made before that rule keeps the tax it was made with', async () => {
    const inv = await create({ discount: 10, tax: 19, line_items: [{ description: 'Beratung', quantity: 1, unit_price: 101.26, taxed: true }] });
    // 101.26 − 10.13 = 91.13 net; 19 % of it is 17.31 (of the unrounded 91.134 it would be 17.32).
    expect([inv.subtotal, inv.discount_amount, inv.tax_amount, inv.amount]).toEqual([101.26, 10.13, 17.31, 108.44]);
    // Made before 2026-12-06 (migration 0104 marks those): its totals stay as they were sent.
    await ctx.db.updateTable('invoices').set({ tax_base_rounded: false }).where('id', '=', inv.id).execute();
    const before = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect([before.tax_amount, before.amount, before.due_amount]).toEqual([17.32, 108.45, 108.45]);
  });

  it('rounds to the currency minor unit (JPY has none)', async () => {
    const inv = await create({ currency: 'JPY', tax: 10, line_items: [{ quantity: 1.5, unit_price: 333 }, { quantity: 3, unit_price: 0.5 }] });
    // 499.5 → 500; 1.5 → 2; tax 10% of 502 = 50.2 → 50
    expect(inv.line_items.map((l: { amount: number }) => l.amount)).toEqual([500, 2]);
    expect(inv.subtotal).toBe(502);
    expect(inv.tax_amount).toBe(50);
    expect(inv.amount).toBe(552);
    expect(inv.currency).toBe('JPY');
  });

  it('keeps decimals exact (no float drift)', async () => {
    const inv = await create({ line_items: [{ quantity: 0.1, unit_price: 0.2 }, { quantity: 0.1, unit_price: 0.2 }, { quantity: 3, unit_price: 0.1 }] });
    expect(inv.subtotal).toBe(0.34);
    expect(inv.amount).toBe(0.34);
  });

  it('orders lines by sort_order and defaults it to the array position', async () => {
    const inv = await create({
      line_items: [
        { description: 'third', sort_order: 30 },
        { description: 'first', sort_order: -1 },
        { description: 'second' }, // position 2
      ],
    });
    expect(inv.line_items.map((l: { description: string }) => l.description)).toEqual(['first', 'second', 'third']);
    expect(inv.line_items.map((l: { sort_order: number }) => l.sort_order)).toEqual([-1, 2, 30]);
  });
});

describe('invoice fields', () => {
  it('auto-assigns the next free integer number, ignoring other formats, and refuses duplicates (409)', async () => {
    const ws = await makeInvoiceWorkspace(ctx.db);
    const c = await insertClient(ctx.db, ws.companyId);
    const post = (body: Record<string, unknown>) => api(ws.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()], ...body });
    expect((await post({})).json().number).toBe('1');
    expect((await post({})).json().number).toBe('2');
    expect((await post({ number: 'INV-700' })).json().number).toBe('INV-700');
    expect((await post({ number: '41' })).json().number).toBe('41');
    expect((await post({})).json().number).toBe('42');
    expect((await post({ number: '  ' })).statusCode).toBe(400);
    const dup = await post({ number: 'INV-700' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: 'conflict', field: 'number' });
    // Numbers are per workspace: another workspace may use "1" again.
    const other = await makeInvoiceWorkspace(ctx.db);
    const oc = await insertClient(ctx.db, other.companyId);
    const res = await api(other.owner, 'POST', '/api/v2/invoices', { client_id: oc, line_items: [line()], number: 'INV-700' });
    expect(res.statusCode).toBe(201);
  });

  it('never gives two concurrent creates the same number', async () => {
    const ws = await makeInvoiceWorkspace(ctx.db);
    const c = await insertClient(ctx.db, ws.companyId);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api(ws.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(results.map((r) => Number(r.json().number)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('defaults issue_date to today in the workspace time zone', async () => {
    // 2026-03-10 20:00 UTC is already 2026-03-11 in Kiritimati (UTC+14).
    const ws = await makeInvoiceWorkspace(ctx.db, { timezone: 'Pacific/Kiritimati' });
    const c = await insertClient(ctx.db, ws.companyId);
    const target = new Date('2026-03-10T20:00:00Z').getTime();
    const before = ctx.clock.now().getTime();
    ctx.clock.advance(target - before);
    try {
      const res = await api(ws.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] });
      expect(res.json()).toMatchObject({ issue_date: '2026-03-11', due_date: '2026-04-10', payment_term: null });
    } finally {
      ctx.clock.advance(before - target);
    }
  });

  it('derives the due date from the payment term, the client terms, or 30 days', async () => {
    const post = (body: Record<string, unknown>, client = clientId) =>
      api(w.owner, 'POST', '/api/v2/invoices', { client_id: client, line_items: [line()], issue_date: '2026-01-31', ...body });
    expect((await post({})).json()).toMatchObject({ due_date: '2026-03-02', payment_term: null });
    expect((await post({ payment_term: 'net_15' })).json()).toMatchObject({ due_date: '2026-02-15', payment_term: 'net_15' });
    expect((await post({ payment_term: 'upon_receipt' })).json()).toMatchObject({ due_date: '2026-01-31' });
    expect((await post({ payment_term: 'net_60' })).json()).toMatchObject({ due_date: '2026-04-01' });
    expect((await post({ payment_term: 'custom', due_date: '2026-02-10' })).json()).toMatchObject({ due_date: '2026-02-10', payment_term: 'custom' });
    expect((await post({ due_date: '2026-02-20' })).json()).toMatchObject({ due_date: '2026-02-20', payment_term: 'custom' });
    // the term gives the default due date only: an explicit due date is stored as given with any term
    expect((await post({ payment_term: 'net_30', due_date: '2026-03-02' })).json()).toMatchObject({ due_date: '2026-03-02', payment_term: 'net_30' });
    const given = await post({ issue_date: '2024-04-01', due_date: '2024-04-15', payment_term: 'net_15' });
    expect(given.statusCode).toBe(201);
    expect(given.json()).toMatchObject({ issue_date: '2024-04-01', due_date: '2024-04-15', payment_term: 'net_15' });
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${given.json().id}`)).json()).toMatchObject({ due_date: '2024-04-15', payment_term: 'net_15' });
    expect((await post({ payment_term: 'upon_receipt', due_date: '2026-02-10' })).json()).toMatchObject({ due_date: '2026-02-10', payment_term: 'upon_receipt' });
    // custom without a due date: the spec's default of 30 days (it was a 400), or the client's own custom days below
    expect((await post({ payment_term: 'custom' })).json()).toMatchObject({ due_date: '2026-03-02', payment_term: 'custom' });
    const early = await post({ due_date: '2026-01-30' });
    expect(early.statusCode).toBe(400);
    expect((await post({ payment_term: 'net_90' })).statusCode).toBe(400);
    expect((await post({ issue_date: '2026-02-30' })).statusCode).toBe(400);

    const net45 = await insertClient(ctx.db, w.companyId, { paymentTerms: 'net_45' });
    expect((await post({}, net45)).json()).toMatchObject({ due_date: '2026-03-17', payment_term: 'net_45' });
    expect((await post({ payment_term: 'net_15' }, net45)).json()).toMatchObject({ due_date: '2026-02-15', payment_term: 'net_15' });
    const custom10 = await insertClient(ctx.db, w.companyId, { paymentTerms: 'custom', paymentDays: 10 });
    expect((await post({}, custom10)).json()).toMatchObject({ due_date: '2026-02-10', payment_term: 'custom' });
    expect((await post({ payment_term: 'custom' }, custom10)).json()).toMatchObject({ due_date: '2026-02-10', payment_term: 'custom' });
    expect((await post({ payment_term: 'custom' }, net45)).json()).toMatchObject({ due_date: '2026-03-02', payment_term: 'custom' });
  });

  it("defaults currency, tax, tax2 and discount from the client, else the workspace's currency and 0", async () => {
    const chf = await insertClient(ctx.db, w.companyId, { currency: 'CHF', tax: '7.7', tax2: '1.5', discount: '2.5' });
    const a = (await api(w.owner, 'POST', '/api/v2/invoices', { client_id: chf, line_items: [line()] })).json();
    expect(a).toMatchObject({ currency: 'CHF', tax: 7.7, tax2: 1.5, discount: 2.5 });
    const b = (await api(w.owner, 'POST', '/api/v2/invoices', { client_id: chf, line_items: [line()], currency: 'USD', tax: 0, discount: 0 })).json();
    expect(b).toMatchObject({ currency: 'USD', tax: 0, tax2: 1.5, discount: 0 });
    const plain = (await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line()] })).json();
    expect(plain).toMatchObject({ currency: 'EUR', tax: 0, tax2: 0, discount: 0 });
    for (const [body, field] of [
      [{ currency: 'eur' }, 'currency'],
      [{ currency: 'ABC' }, 'currency'],
      [{ tax: 101 }, 'tax'],
      [{ tax2: -1 }, 'tax2'],
      [{ discount: 1.23456 }, 'discount'],
    ] as const) {
      const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line()], ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it('stores text fields and periods, and checks the ranges', async () => {
    const inv = await create({
      subject: '  Website  ',
      purchase_order: 'PO-7',
      notes: 'Thanks!',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      service_period_start: '2026-01-01',
      service_period_end: '2026-01-15',
    });
    expect(inv).toMatchObject({
      subject: 'Website',
      purchase_order: 'PO-7',
      notes: 'Thanks!',
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      service_period_start: '2026-01-01',
      service_period_end: '2026-01-15',
    });
    for (const [body, field] of [
      [{ period_start: '2026-02-01', period_end: '2026-01-31' }, 'period_end'],
      [{ service_period_start: '2026-02-01', service_period_end: '2026-01-31' }, 'service_period_end'],
      [{ subject: 'x'.repeat(1001) }, 'subject'],
      [{ number: 'x'.repeat(65) }, 'number'],
      [{ state: 'open' }, 'state'],
      [{ amount: 5 }, 'amount'],
    ] as const) {
      const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [line()], ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it("answers 404 for another workspace's, an unknown or a malformed client_id, 400 for an archived client", async () => {
    const other = await makeInvoiceWorkspace(ctx.db);
    const foreign = await insertClient(ctx.db, other.companyId);
    const archived = await insertClient(ctx.db, w.companyId, { isActive: false });
    const before = await countInvoices(ctx.db, w.companyId);
    for (const id of [foreign, newId(), 'nope']) {
      for (const body of [{ line_items: [line()] }, { line_items_import: { time: { summary_type: 'project' } } }]) {
        const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: id, ...body });
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toMatchObject({ error: 'not_found', field: 'client_id' });
      }
    }
    const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: archived, line_items: [line()] });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('client_id');
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before);
    const missing = await api(w.owner, 'POST', '/api/v2/invoices', { line_items: [line()] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('client_id');
  });

  it('replays a create with the same Idempotency-Key instead of creating twice', async () => {
    const ws = await makeInvoiceWorkspace(ctx.db);
    const c = await insertClient(ctx.db, ws.companyId);
    const headers = { 'idempotency-key': 'invoice-create-0001' };
    const first = await api(ws.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] }, headers);
    const again = await api(ws.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] }, headers);
    expect(first.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countInvoices(ctx.db, ws.companyId)).toBe(1);
  });
});

describe('get and list', () => {
  let ws: InvoiceWorkspace;
  let c1: string;
  let c2: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ws = await makeInvoiceWorkspace(ctx.db);
    c1 = await insertClient(ctx.db, ws.companyId, { name: 'Alpha' });
    c2 = await insertClient(ctx.db, ws.companyId, { name: 'Beta' });
    const post = async (key: string, body: Record<string, unknown>) => {
      ctx.clock.advance(1000); // creation order breaks issue-date ties
      const res = await api(ws.admin, 'POST', '/api/v2/invoices', { line_items: [line()], ...body });
      ids[key] = res.json().id;
    };
    await post('a1', { client_id: c1, issue_date: '2026-01-10' });
    await post('a2', { client_id: c1, issue_date: '2026-02-10' });
    await post('b1', { client_id: c2, issue_date: '2026-01-20' });
    await post('b2', { client_id: c2, issue_date: '2026-02-10' });
    await setInvoiceState(ctx.db, ws.companyId, ids.b2, 'open');
  });

  it('gets one invoice with client, creator, lines and an ETag', async () => {
    const res = await api(ws.mgrInvoices, 'GET', `/api/v2/invoices/${ids.a1}`);
    expect(res.statusCode).toBe(200);
    const inv = res.json();
    expect(inv.client).toEqual({ id: c1, name: 'Alpha' });
    expect(inv.creator).toEqual({ id: ws.admin.userId, name: 'Ada Admin' });
    expect(inv.line_items).toHaveLength(1);
    expect(res.headers.etag).toBe(etagOf(inv));
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(Object.keys(inv)).toEqual([
      'id', 'client', 'number', 'state', 'subject', 'purchase_order', 'issue_date', 'due_date', 'payment_term', 'currency',
      'subtotal', 'discount', 'discount_amount', 'tax', 'tax_amount', 'tax2', 'tax2_amount', 'amount', 'paid_amount', 'due_amount',
      'notes', 'period_start', 'period_end', 'service_period_start', 'service_period_end', 'sent_at', 'paid_at', 'creator',
      'created_at', 'updated_at', 'line_items',
    ]);
  });

  it('lists newest issue date first with the envelope, and filters', async () => {
    const all = await api(ws.owner, 'GET', '/api/v2/invoices');
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.invoices.map((i: { id: string }) => i.id)).toEqual([ids.b2, ids.a2, ids.b1, ids.a1]);
    expect(body).toMatchObject({ page: 1, per_page: 100, total_pages: 1, total_entries: 4 });
    expect(body.invoices[0].line_items).toHaveLength(1);

    const q = async (query: string) => (await api(ws.owner, 'GET', `/api/v2/invoices?${query}`)).json().invoices.map((i: { id: string }) => i.id);
    expect(await q(`client_id=${c1}`)).toEqual([ids.a2, ids.a1]);
    expect(await q('state=open')).toEqual([ids.b2]);
    expect(await q('state=draft')).toEqual([ids.a2, ids.b1, ids.a1]);
    expect(await q('from=2026-01-15&to=2026-01-31')).toEqual([ids.b1]);
    expect(await q('from=2026-02-10')).toEqual([ids.b2, ids.a2]);
    expect(await q(`client_id=${newId()}`)).toEqual([]);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await q(`updated_since=${encodeURIComponent(future)}`)).toEqual([]);
    expect((await q(`updated_since=2020-01-01T00:00:00Z`)).length).toBe(4);

    const paged = (await api(ws.owner, 'GET', '/api/v2/invoices?per_page=3&page=2')).json();
    expect(paged.invoices.map((i: { id: string }) => i.id)).toEqual([ids.a1]);
    expect(paged).toMatchObject({ page: 2, per_page: 3, total_pages: 2, total_entries: 4 });
    expect(paged.links.previous).toContain('page=1');
    expect(paged.links.next).toBeNull();

    for (const bad of ['client_id=nope', 'state=sent', 'from=2026-13-01', 'updated_since=yesterday', 'per_page=5000', 'colour=red']) {
      expect((await api(ws.owner, 'GET', `/api/v2/invoices?${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it("reflects a client's rename in updated_at (updated_since syncs see it)", async () => {
    const before = (await api(ws.owner, 'GET', `/api/v2/invoices/${ids.a1}`)).json();
    const later = new Date(new Date(before.updated_at).getTime() + 60_000);
    await ctx.db.updateTable('clients').set({ name: 'Alpha Renamed', updated_at: later }).where('id', '=', c1).execute();
    const after = (await api(ws.owner, 'GET', `/api/v2/invoices/${ids.a1}`)).json();
    expect(after.client.name).toBe('Alpha Renamed');
    expect(after.updated_at).toBe(later.toISOString());
    const since = await api(ws.owner, 'GET', `/api/v2/invoices?updated_since=${encodeURIComponent(later.toISOString())}`);
    expect(since.json().invoices.map((i: { id: string }) => i.id).sort()).toEqual([ids.a1, ids.a2].sort());
  });
});

describe('update (PATCH)', () => {
  it('changes invoice-level fields and edits lines by id; totals follow', async () => {
    const inv = await create({
      issue_date: '2026-01-01',
      payment_term: 'net_30',
      tax: 10,
      line_items: [line({ description: 'A', quantity: 2, unit_price: 50 }), line({ description: 'B', quantity: 1, unit_price: 10 })],
    });
    const [a, b] = inv.line_items;
    const res = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, {
      subject: 'New subject',
      purchase_order: 'PO-9',
      notes: null,
      tax: 20,
      tax2: 5,
      discount: 10,
      period_start: '2026-01-01',
      period_end: '2026-01-31',
      service_period_start: '2026-01-02',
      service_period_end: '2026-01-03',
      line_items: [
        { id: a.id, unit_price: 60, description: 'A2' },
        { id: b.id, kind: 'Product' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const got = res.json();
    expect(res.headers.etag).toBe(etagOf(got));
    expect(got).toMatchObject({ subject: 'New subject', purchase_order: 'PO-9', notes: null, tax: 20, tax2: 5, discount: 10, period_end: '2026-01-31', service_period_end: '2026-01-03' });
    expect(got.line_items[0]).toMatchObject({ id: a.id, description: 'A2', quantity: 2, unit_price: 60, amount: 120, kind: 'Service' });
    expect(got.line_items[1]).toMatchObject({ id: b.id, description: 'B', kind: 'Product', amount: 10 });
    // subtotal 130, discount 13, tax 117 × 20% = 23.4, tax2 117 × 5% = 5.85
    expect(got).toMatchObject({ subtotal: 130, discount_amount: 13, tax_amount: 23.4, tax2_amount: 5.85, amount: 146.25 });

    // a new issue date moves the term's due date; an explicit due date is stored as given and the term kept
    const moved = (await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { issue_date: '2026-02-01' })).json();
    expect(moved).toMatchObject({ issue_date: '2026-02-01', due_date: '2026-03-03', payment_term: 'net_30' });
    const explicit = (await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { due_date: '2026-02-20' })).json();
    expect(explicit).toMatchObject({ due_date: '2026-02-20', payment_term: 'net_30' });
    // ... and stays put when the issue date moves afterwards
    const kept = (await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { issue_date: '2026-02-02' })).json();
    expect(kept).toMatchObject({ issue_date: '2026-02-02', due_date: '2026-02-20', payment_term: 'net_30' });
    const early = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { due_date: '2026-01-20' });
    expect(early.statusCode).toBe(400);
    expect(early.json().field).toBe('due_date');
    const badRange = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { period_start: '2026-02-15' });
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().field).toBe('period_start');
  });

  it('writes nothing when nothing changes (same updated_at and ETag)', async () => {
    const inv = await create({ subject: 'Same' });
    ctx.clock.advance(1000);
    const res = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'Same', line_items: [{ id: inv.line_items[0].id, unit_price: 100 }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().updated_at).toBe(inv.updated_at);
    expect(res.headers.etag).toBe(etagOf(inv));
  });

  it('refuses lines without id, of another invoice, replacement arrays, line_items_attributes and unknown fields', async () => {
    const inv = await create({});
    const other = await create({});
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ line_items: [{ description: 'new line' }] }, 'line_items.0.id'],
      [{ line_items: [{ id: other.line_items[0].id, description: 'x' }] }, 'line_items.0.id'],
      [{ line_items: [{ id: newId(), description: 'x' }] }, 'line_items.0.id'],
      [{ line_items: [{ id: inv.line_items[0].id, quantity: 3 }] }, 'line_items.0.quantity'],
      [{ line_items: [{ id: inv.line_items[0].id, effect: 'credit' }] }, 'line_items.0.effect'],
      [{ line_items: [{ id: inv.line_items[0].id, unit_price: -1 }] }, 'line_items.0.unit_price'],
      [{ line_items: [{ id: inv.line_items[0].id, kind: '' }] }, 'line_items.0.kind'],
      [{ line_items: [{ id: inv.line_items[0].id }, { id: inv.line_items[0].id }] }, 'line_items.1.id'],
      [{ line_items_attributes: [{ id: inv.line_items[0].id, description: 'x' }] }, 'line_items_attributes'],
      [{ currency: 'USD' }, 'currency'],
      [{ client_id: clientId }, 'client_id'],
      [{ payment_term: 'net_15' }, 'payment_term'],
      [{ state: 'open' }, 'state'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
      expect(res.json().message, JSON.stringify(body)).toContain(field.split('.').pop());
    }
    expect((await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, {})).statusCode).toBe(400);
    // nothing of the refused bodies was applied
    const after = (await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json();
    expect(after.line_items).toEqual(inv.line_items);
  });

  it('changes the number (409 on a duplicate)', async () => {
    const a = await create({ number: 'P-1' });
    await create({ number: 'P-2' });
    const dup = await api(w.owner, 'PATCH', `/api/v2/invoices/${a.id}`, { number: 'P-2' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().field).toBe('number');
    const ok = await api(w.owner, 'PATCH', `/api/v2/invoices/${a.id}`, { number: 'P-3' });
    expect(ok.json().number).toBe('P-3');
  });

  it('honours If-Match (412 when stale) and refuses non-drafts (409)', async () => {
    const inv = await create({});
    const stale = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'x' }, { 'if-match': '"nope"' });
    expect(stale.statusCode).toBe(412);
    const fresh = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'x' }, { 'if-match': etagOf(inv) });
    expect(fresh.statusCode).toBe(200);
    for (const state of ['open', 'paid', 'closed', 'voided'] as const) {
      await setInvoiceState(ctx.db, w.companyId, inv.id, state);
      const res = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'y' });
      expect(res.statusCode, state).toBe(409);
      expect(res.json().state).toBe(state);
    }
  });
});

describe('delete', () => {
  it('is for owners and administrators, drafts only, If-Match honoured; releases captured work', async () => {
    const { projectId, taskId } = await billableProject(ctx.db, w.companyId, clientId, { rate: '80' });
    const entry = await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date: '2026-03-02' });
    const cat = await insertCategory(ctx.db, w.companyId);
    const expense = await insertExpense(ctx.db, w.companyId, { userId: w.member.userId, projectId, categoryId: cat, date: '2026-03-02', cost: '15' });
    const res = await api(w.admin, 'POST', '/api/v2/invoices', {
      client_id: clientId,
      line_items_import: { project_ids: [projectId], time: { summary_type: 'detailed' }, expenses: { summary_type: 'detailed' } },
    });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect((await billing(ctx.db, 'time_entries', [entry])).get(entry)!.is_billed).toBe(true);

    expect((await api(w.mgrInvoices, 'DELETE', `/api/v2/invoices/${inv.id}`, undefined, { 'if-match': '*' })).statusCode).toBe(403);
    const stale = await api(w.admin, 'DELETE', `/api/v2/invoices/${inv.id}`, undefined, { 'if-match': '"stale"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error).toBe('precondition_failed');
    expect((await api(w.admin, 'GET', `/api/v2/invoices/${inv.id}`)).statusCode).toBe(200);
    await setInvoiceState(ctx.db, w.companyId, inv.id, 'open');
    const open = await api(w.admin, 'DELETE', `/api/v2/invoices/${inv.id}`, undefined, { 'if-match': '*' });
    expect(open.statusCode).toBe(409);
    await setInvoiceState(ctx.db, w.companyId, inv.id, 'draft' as never);
    const current = await api(w.admin, 'GET', `/api/v2/invoices/${inv.id}`);

    const del = await api(w.admin, 'DELETE', `/api/v2/invoices/${inv.id}`, undefined, { 'if-match': current.headers.etag as string });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await api(w.admin, 'GET', `/api/v2/invoices/${inv.id}`)).statusCode).toBe(404);
    expect((await billing(ctx.db, 'time_entries', [entry])).get(entry)).toMatchObject({ is_billed: false, invoice_id: null, invoice_line_id: null });
    expect((await billing(ctx.db, 'expenses', [expense])).get(expense)).toMatchObject({ is_billed: false, invoice_id: null, invoice_line_id: null });

    // released work is invoiceable again
    const again = await api(w.owner, 'POST', '/api/v2/invoices', {
      client_id: clientId,
      line_items_import: { project_ids: [projectId], time: { summary_type: 'project' } },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().amount).toBe(80);
    expect((await api(w.owner, 'DELETE', `/api/v2/invoices/${again.json().id}`, undefined, { 'if-match': '*' })).statusCode).toBe(204);
  });

  it('does not require If-Match (the spec requires it on project and client deletes only)', async () => {
    const inv = await create({});
    const del = await api(w.admin, 'DELETE', `/api/v2/invoices/${inv.id}`);
    expect(del.statusCode, del.body).toBe(204);
    expect((await api(w.admin, 'GET', `/api/v2/invoices/${inv.id}`)).statusCode).toBe(404);
    // a non-draft is still 409 without If-Match, and an unknown id 404
    const open = await create({});
    await setInvoiceState(ctx.db, w.companyId, open.id, 'open');
    expect((await api(w.owner, 'DELETE', `/api/v2/invoices/${open.id}`)).statusCode).toBe(409);
    expect((await api(w.owner, 'DELETE', `/api/v2/invoices/${newId()}`)).statusCode).toBe(404);
  });
});

describe('permissions by identity', () => {
  let ws: InvoiceWorkspace;
  let c: string;
  let project: string;
  /** a second manager without flags, also managing `project` */
  let mgrOther: Caller;
  let draftId: string;

  beforeAll(async () => {
    ws = await makeInvoiceWorkspace(ctx.db);
    c = await insertClient(ctx.db, ws.companyId);
    project = (await billableProject(ctx.db, ws.companyId, c)).projectId;
    mgrOther = await addMember(ctx.db, ws.companyId, { role: 'manager' });
    for (const m of [ws.mgrPlain, mgrOther, ws.mgrInvoices]) await assignUser(ctx.db, ws.companyId, project, m.userId, { manager: true });
    draftId = (await api(ws.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] })).json().id;
  });

  type Route = { name: string; method: 'GET' | 'POST' | 'PATCH'; url: string; body?: unknown; ok: number };
  const reads = (id: string): Route[] => [
    { name: 'get', method: 'GET' as const, url: `/api/v2/invoices/${id}`, ok: 200 },
    { name: 'pdf', method: 'GET' as const, url: `/api/v2/invoices/${id}/pdf`, ok: 200 },
    { name: 'messages', method: 'GET' as const, url: `/api/v2/invoices/${id}/messages`, ok: 200 },
  ];
  const routes = (): Route[] => [
    { name: 'list', method: 'GET' as const, url: '/api/v2/invoices', ok: 200 },
    ...reads(draftId),
    { name: 'create', method: 'POST' as const, url: '/api/v2/invoices', body: { client_id: c, line_items: [line()] }, ok: 201 },
    { name: 'update', method: 'PATCH' as const, url: `/api/v2/invoices/${draftId}`, body: { subject: `s ${Math.random()}` }, ok: 200 },
  ];
  const send = (who: Caller, id: string) => api(who, 'POST', `/api/v2/invoices/${id}/messages`, { recipients: [{ email: 'a@b.test' }] });

  it('lets owners, administrators and managers with view_invoices read, create, update and send every invoice', async () => {
    for (const who of [ws.owner, ws.admin, ws.mgrInvoices]) {
      for (const r of routes()) {
        const res = await api(who, r.method, r.url, r.body);
        expect(res.statusCode, `${r.name} ${who.email}`).toBe(r.ok);
      }
      // another manager's draft: read, update, send
      const theirs = (await api(mgrOther, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] })).json();
      for (const r of reads(theirs.id)) expect((await api(who, r.method, r.url)).statusCode, `${r.name} ${who.email}`).toBe(200);
      expect((await api(who, 'PATCH', `/api/v2/invoices/${theirs.id}`, { subject: 'Checked' })).json().subject).toBe('Checked');
      expect((await send(who, theirs.id)).statusCode).toBe(201);
      const list = (await api(who, 'GET', `/api/v2/invoices?client_id=${c}&per_page=2000`)).json();
      expect(list.invoices.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([draftId, theirs.id]));
    }
  });

  it('lets a manager without any flag create, read, update, send and download their own invoices', async () => {
    const mgr = ws.mgrPlain;
    const created = await api(mgr, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line({ project_id: project })] });
    expect(created.statusCode, created.body).toBe(201);
    const inv = created.json();
    expect(inv.creator).toMatchObject({ id: mgr.userId });
    for (const r of reads(inv.id)) expect((await api(mgr, r.method, r.url)).statusCode, r.name).toBe(200);
    const patched = await api(mgr, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'Mine', line_items: [{ id: inv.line_items[0].id, unit_price: 120 }] });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ subject: 'Mine', amount: 120 });
    const sent = await send(mgr, inv.id);
    expect(sent.statusCode, sent.body).toBe(201);
    expect((await api(mgr, 'GET', `/api/v2/invoices/${inv.id}`)).json().state).toBe('open');
    expect((await api(mgr, 'GET', `/api/v2/invoices/${inv.id}/messages`)).json().invoice_messages).toHaveLength(1);
    // the list holds their own invoices only
    const list = (await api(mgr, 'GET', '/api/v2/invoices?per_page=2000')).json();
    expect(list.invoices.length).toBeGreaterThan(0);
    expect(list.invoices.every((i: { creator: { id: string } }) => i.creator.id === mgr.userId)).toBe(true);
    expect(list.total_entries).toBe(list.invoices.length);
    // deleting stays with owners and administrators, even for their own draft
    const draft = (await api(mgr, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] })).json();
    expect((await api(mgr, 'DELETE', `/api/v2/invoices/${draft.id}`)).statusCode).toBe(403);
  });

  it("answers 404 to a manager without view_invoices for other people's invoices, and never lists them", async () => {
    const theirs = (await api(mgrOther, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] })).json();
    for (const id of [theirs.id, draftId]) {
      const before = (await api(ws.owner, 'GET', `/api/v2/invoices/${id}`)).body;
      const calls = [
        ...reads(id).map((r) => api(ws.mgrPlain, r.method, r.url)),
        api(ws.mgrPlain, 'PATCH', `/api/v2/invoices/${id}`, { subject: 'Taken' }),
        send(ws.mgrPlain, id),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
      expect((await api(ws.owner, 'GET', `/api/v2/invoices/${id}`)).body).toBe(before);
      expect((await api(ws.owner, 'GET', `/api/v2/invoices/${id}/messages`)).json().invoice_messages).toHaveLength(0);
    }
    const listed = (await api(ws.mgrPlain, 'GET', `/api/v2/invoices?client_id=${c}&per_page=2000`)).json().invoices.map((i: { id: string }) => i.id);
    expect(listed).not.toContain(theirs.id);
    expect(listed).not.toContain(draftId);
  });

  it('lets a manager invoice only clients they can see (404) and lines of projects they manage (403)', async () => {
    const unseen = await insertClient(ctx.db, ws.companyId);
    const res = await api(ws.mgrPlain, 'POST', '/api/v2/invoices', { client_id: unseen, line_items: [line()] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found', field: 'client_id' });
    // a manager who sees every client (edit_clients_and_tasks) may invoice it
    expect((await api(ws.mgrNoInvoices, 'POST', '/api/v2/invoices', { client_id: unseen, line_items: [line()] })).statusCode).toBe(201);

    const assignedOnly = (await billableProject(ctx.db, ws.companyId, c)).projectId;
    await assignUser(ctx.db, ws.companyId, assignedOnly, ws.mgrPlain.userId);
    const unassigned = (await billableProject(ctx.db, ws.companyId, c)).projectId;
    const before = await countInvoices(ctx.db, ws.companyId);
    for (const [pid, status, error] of [
      [assignedOnly, 403, 'forbidden'],
      [unassigned, 404, 'not_found'],
    ] as const) {
      const r = await api(ws.mgrPlain, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line(), line({ project_id: pid })] });
      expect(r.statusCode, r.body).toBe(status);
      expect(r.json()).toMatchObject({ error, field: 'line_items.1.project_id' });
    }
    expect(await countInvoices(ctx.db, ws.companyId)).toBe(before);
    // administrators attribute lines to any project of the client
    expect((await api(ws.admin, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line({ project_id: unassigned })] })).statusCode).toBe(201);
  });

  it('refuses members, contractors and personal keys (403), and no key (401)', async () => {
    for (const who of [ws.member, ws.contractor, ws.adminPersonal, ws.memberPersonal]) {
      for (const r of [...routes(), { name: 'send', method: 'POST' as const, url: `/api/v2/invoices/${draftId}/messages`, body: { recipients: [{ email: 'a@b.test' }] }, ok: 0 }]) {
        const res = await api(who, r.method, r.url, r.body);
        expect(res.statusCode, `${r.name} ${who.email}`).toBe(403);
        expect(res.json().error).toBe('forbidden');
      }
      const del = await api(who, 'DELETE', `/api/v2/invoices/${draftId}`, undefined, { 'if-match': '*' });
      expect(del.statusCode).toBe(403);
    }
    for (const who of [ws.mgrPlain, ws.mgrInvoices, ws.mgrNoInvoices]) {
      expect((await api(who, 'DELETE', `/api/v2/invoices/${draftId}`, undefined, { 'if-match': '*' })).statusCode).toBe(403);
    }
    for (const r of routes()) expect((await request(ctx.app, null, { method: r.method, url: r.url })).statusCode).toBe(401);
    // still a draft, never sent
    expect((await api(ws.owner, 'GET', `/api/v2/invoices/${draftId}`)).json().state).toBe('draft');
  });

  it('applies a permission change on the next request', async () => {
    const mgr = mgrOther;
    const setPermissions = (permissions: Array<'view_invoices'>) =>
      ctx.db.updateTable('memberships').set({ permissions }).where('company_id', '=', ws.companyId).where('user_id', '=', mgr.userId).execute();
    expect((await api(mgr, 'GET', `/api/v2/invoices/${draftId}`)).statusCode).toBe(404);
    await setPermissions(['view_invoices']);
    expect((await api(mgr, 'GET', `/api/v2/invoices/${draftId}`)).statusCode).toBe(200);
    await setPermissions([]);
    expect((await api(mgr, 'GET', `/api/v2/invoices/${draftId}`)).statusCode).toBe(404);
    await ctx.db.updateTable('memberships').set({ role: 'member' }).where('company_id', '=', ws.companyId).where('user_id', '=', mgr.userId).execute();
    expect((await api(mgr, 'GET', '/api/v2/invoices')).statusCode).toBe(403);
    await ctx.db.updateTable('memberships').set({ role: 'manager' }).where('company_id', '=', ws.companyId).where('user_id', '=', mgr.userId).execute();
    expect((await api(mgr, 'GET', '/api/v2/invoices')).statusCode).toBe(200);
  });
});

describe('workspace isolation', () => {
  it("answers 404 for another workspace's invoices on every route and never lists them", async () => {
    const mine = await makeInvoiceWorkspace(ctx.db);
    const theirs = await makeInvoiceWorkspace(ctx.db);
    const tc = await insertClient(ctx.db, theirs.companyId);
    const foreign = (await api(theirs.owner, 'POST', '/api/v2/invoices', { client_id: tc, line_items: [line()] })).json();
    const lineId = foreign.line_items[0].id;
    for (const id of [foreign.id, newId(), 'not-an-id']) {
      const calls = [
        api(mine.owner, 'GET', `/api/v2/invoices/${id}`),
        api(mine.owner, 'PATCH', `/api/v2/invoices/${id}`, { subject: 'x', line_items: [{ id: lineId, description: 'x' }] }),
        api(mine.owner, 'DELETE', `/api/v2/invoices/${id}`, undefined, { 'if-match': '*' }),
        api(mine.owner, 'GET', `/api/v2/invoices/${id}/pdf`),
        api(mine.owner, 'GET', `/api/v2/invoices/${id}/messages`),
        api(mine.owner, 'POST', `/api/v2/invoices/${id}/messages`, { recipients: [{ email: 'a@b.test' }] }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, `${id} ${res.body}`).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
    }
    const list = await api(mine.owner, 'GET', `/api/v2/invoices?client_id=${tc}`);
    expect(list.json().total_entries).toBe(0);
    // their invoice is untouched
    const still = (await api(theirs.owner, 'GET', `/api/v2/invoices/${foreign.id}`)).json();
    expect(still).toMatchObject({ state: 'draft', subject: null });
    expect(await countBilled(ctx.db, theirs.companyId)).toEqual({ time: 0, expenses: 0 });
  });
});

describe('clients with invoices', () => {
  it('cannot be deleted (409 with invoice_count)', async () => {
    const c = await insertClient(ctx.db, w.companyId);
    await api(w.owner, 'POST', '/api/v2/invoices', { client_id: c, line_items: [line()] });
    await ctx.db.updateTable('clients').set({ is_active: false }).where('id', '=', c).execute();
    const res = await api(w.owner, 'DELETE', `/api/v2/clients/${c}`, undefined, { 'if-match': '*' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'conflict', invoice_count: 1 });
  });
});

it('creates an invoice for today by default', async () => {
  const inv = await create({});
  expect(inv.issue_date).toBe(today());
});
