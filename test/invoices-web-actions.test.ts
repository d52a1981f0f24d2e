import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import {
  billableProject,
  billing,
  countBilled,
  countInvoices,
  insertCategory,
  insertClient,
  insertEntry,
  insertExpense,
  makeInvoiceWorkspace,
  type InvoiceWorkspace,
} from './fixtures/invoices.ts';

/**
 * The web app's invoice routes besides payments (issue 16 item 6):
 * - POST /web/api/invoices/preview runs the create of POST /api/v2/invoices in a
 *   transaction that is always rolled back: the same lines, totals and number,
 *   and nothing created, billed or numbered;
 * - POST /web/api/invoices/:id/close and /void, the transitions of sheaf admin, for
 *   owners and administrators, idempotent, 409 from any state but open.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
let clientId: string;
let projectId: string;
let entries: string[];
let expenseId: string;
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrNoInvoices' | 'member', Caller> = {} as never;
let otherOwner: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  other = await makeInvoiceWorkspace(ctx.db);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
  const p = await billableProject(ctx.db, w.companyId, clientId, { rate: '100', name: 'Website', code: 'WEB' });
  projectId = p.projectId;
  entries = [
    await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId: p.taskId, date: '2026-01-05', seconds: 5400 }),
    await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId: p.taskId, date: '2026-01-06', seconds: 3600 }),
  ];
  const category = await insertCategory(ctx.db, w.companyId, 'Travel');
  expenseId = await insertExpense(ctx.db, w.companyId, { userId: w.member.userId, projectId, categoryId: category, date: '2026-01-06', cost: '42.50' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrNoInvoices', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
});
afterAll(() => ctx.close());

const api = (caller: Caller, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, ...(field ? { field } : {}) });
}

const importBody = {
  client_id: '',
  subject: 'January',
  tax: 10,
  line_items_import: { time: { summary_type: 'task', from: '2026-01-01', to: '2026-01-31' }, expenses: { summary_type: 'category' } },
};

async function auditCount() {
  const r = await ctx.db.selectFrom('audit_logs').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', w.companyId).executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('POST /web/api/invoices/preview', () => {
  it('shows the lines, totals and number a create would make, and creates, bills and numbers nothing', async () => {
    const body = { ...importBody, client_id: clientId };
    const before = { invoices: await countInvoices(ctx.db, w.companyId), billed: await countBilled(ctx.db, w.companyId), audit: await auditCount() };
    const preview = await api(s.owner, 'POST', '/web/api/invoices/preview', body);
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    expect(p.line_items.map((l: any) => [l.kind, l.quantity, l.unit_price, l.amount])).toEqual([
      ['SERVICE', 2.5, 100, 250],
      ['Expense', 1, 42.5, 42.5],
    ]);
    expect(p).toMatchObject({ state: 'draft', subject: 'January', subtotal: 292.5, tax_amount: 29.25, amount: 321.75, period_start: '2026-01-05', period_end: '2026-01-06' });

    // Nothing happened: no invoice, no billed flag, no audit entry; a second preview gets the same number.
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before.invoices);
    expect(await countBilled(ctx.db, w.companyId)).toEqual(before.billed);
    expect(await auditCount()).toBe(before.audit);
    expect((await billing(ctx.db, 'time_entries', entries)).get(entries[0])!.is_billed).toBe(false);
    expect((await billing(ctx.db, 'expenses', [expenseId])).get(expenseId)!.is_billed).toBe(false);
    expect((await ctx.db.selectFrom('invoices').select('id').where('id', '=', p.id).execute())).toEqual([]);
    const again = (await api(s.owner, 'POST', '/web/api/invoices/preview', body)).json();
    expect(again.number).toBe(p.number);

    // The create then makes exactly what was previewed, with the previewed number (not consumed).
    const created = await api(s.owner, 'POST', '/api/v2/invoices', body, { 'idempotency-key': 'create-after-preview' });
    expect(created.statusCode, created.body).toBe(201);
    const c = created.json();
    expect(c.number).toBe(p.number);
    expect(c.line_items.map((l: any) => [l.description, l.quantity, l.unit_price, l.amount])).toEqual(
      p.line_items.map((l: any) => [l.description, l.quantity, l.unit_price, l.amount]),
    );
    expect(c.amount).toBe(p.amount);
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before.invoices + 1);

    // Now billed: the same preview says there is nothing to import (the create's 400), and still creates nothing.
    expectError(await api(s.owner, 'POST', '/web/api/invoices/preview', body), 400, 'invalid_request', 'line_items_import');
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before.invoices + 1);
    // Released again for the other tests.
    expect((await api(s.owner, 'DELETE', `/api/v2/invoices/${c.id}`)).statusCode).toBe(204);
  });

  it('previews explicit lines with their totals', async () => {
    const res = await api(s.admin, 'POST', '/web/api/invoices/preview', {
      client_id: clientId,
      number: 'INV-PREVIEW',
      discount: 10,
      line_items: [
        { kind: 'Service', description: 'Design', quantity: 2, unit_price: 50 },
        { kind: 'Product', description: 'Hosting', quantity: 1, unit_price: 20, taxed: false },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ number: 'INV-PREVIEW', subtotal: 120, discount_amount: 12, amount: 108 });
    expect(await ctx.db.selectFrom('invoices').select('id').where('number', '=', 'INV-PREVIEW').execute()).toEqual([]);
  });

  it("has the create's permissions and errors: members 403, importing time without rates 403, foreign client 404, bad input 400, API keys 403", async () => {
    const before = await countInvoices(ctx.db, w.companyId);
    const body = { ...importBody, client_id: clientId };
    expectError(await api(s.member, 'POST', '/web/api/invoices/preview', body), 403, 'forbidden');
    // A manager may invoice, but pricing time needs View billable rates.
    expectError(await api(s.mgrInvoices, 'POST', '/web/api/invoices/preview', body), 403, 'forbidden');
    const foreignClient = await insertClient(ctx.db, other.companyId, { name: 'Elsewhere' });
    expectError(await api(s.owner, 'POST', '/web/api/invoices/preview', { ...body, client_id: foreignClient }), 404, 'not_found', 'client_id');
    expectError(await api(s.owner, 'POST', '/web/api/invoices/preview', { ...body, surprise: 1 }), 400, 'unknown_field');
    expectError(await api(s.owner, 'POST', '/web/api/invoices/preview', { ...body, tax: 'ten' }), 400, 'invalid_request');
    expectError(
      await api(s.owner, 'POST', '/web/api/invoices/preview', { client_id: clientId, line_items: [{ quantity: -1 }] }),
      400,
      'invalid_request',
      'line_items.0.quantity',
    );
    expectError(await api(s.owner, 'POST', '/web/api/invoices/preview', { client_id: clientId }), 400, 'invalid_request', 'line_items_import');
    expectError(await api(w.admin, 'POST', '/web/api/invoices/preview', body), 403, 'session_required');
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before);
    expect(await countBilled(ctx.db, w.companyId)).toEqual({ time: 0, expenses: 0 });
  });
});

describe('POST /web/api/invoices/:id/close and /void', () => {
  /** An invoice of 100 EUR, sent (open) unless `draft`. */
  async function invoice({ draft = false, owner = s.owner, client = clientId } = {}) {
    const res = await api(owner, 'POST', '/api/v2/invoices', { client_id: client, line_items: [{ description: 'Work', quantity: 1, unit_price: 100 }] });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    if (!draft) expect((await api(owner, 'POST', `/api/v2/invoices/${id}/messages`, { recipients: [{ email: 'bill@globex.test' }] })).statusCode).toBe(201);
    return id;
  }
  const state = async (id: string) => (await api(s.owner, 'GET', `/api/v2/invoices/${id}`)).json().state;

  for (const [action, to] of [
    ['close', 'closed'],
    ['void', 'voided'],
  ] as const) {
    it(`${action}: an open invoice becomes ${to}; repeating it returns it unchanged; the audit names the person`, async () => {
      const id = await invoice();
      const res = await api(s.admin, 'POST', `/web/api/invoices/${id}/${action}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id, state: to });
      expect(await state(id)).toBe(to);
      const again = await api(s.owner, 'POST', `/web/api/invoices/${id}/${action}`);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().state).toBe(to);
      const events = await ctx.db.selectFrom('audit_logs').select(['actor_user_id', 'action']).where('subject_id', '=', id).where('action', '=', `invoice.${to}`).execute();
      expect(events).toEqual([{ actor_user_id: w.admin.userId, action: `invoice.${to}` }]);
    });
  }

  it('a voided invoice asks for nothing: due_amount 0 in the invoice and the list; a closed one still says what was not paid', async () => {
    const voided = await invoice();
    const closed = await invoice();
    expect((await api(s.admin, 'POST', `/web/api/invoices/${voided}/void`)).json()).toMatchObject({ amount: 100, paid_amount: 0, due_amount: 0 });
    expect((await api(s.admin, 'POST', `/web/api/invoices/${closed}/close`)).json()).toMatchObject({ amount: 100, due_amount: 100 });
    expect((await api(s.owner, 'GET', `/api/v2/invoices/${voided}`)).json()).toMatchObject({ state: 'voided', amount: 100, due_amount: 0 });
    const list = (await api(s.owner, 'GET', '/api/v2/invoices?state=voided&per_page=2000')).json().invoices as Array<{ id: string; due_amount: number }>;
    expect(list.find((i) => i.id === voided)?.due_amount).toBe(0);
  });

  it('mark-paid: an open invoice becomes paid with a payment of what is due, dated today; once only', async () => {
    const id = await invoice();
    const res = await api(s.owner, 'POST', `/web/api/invoices/${id}/mark-paid`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, state: 'paid', due_amount: 0 });
    const again = await api(s.admin, 'POST', `/web/api/invoices/${id}/mark-paid`);
    expect(again.json().state).toBe('paid');
    const payments = (await api(s.owner, 'GET', `/web/api/invoices/${id}/payments`)).json().payments;
    expect(payments).toMatchObject([{ amount: 100, paid_date: ctx.clock.now().toISOString().slice(0, 10), notes: 'Marked paid in the web app' }]);
    const draft = await invoice({ draft: true });
    expectError(await api(s.owner, 'POST', `/web/api/invoices/${draft}/mark-paid`), 409, 'conflict');
    expect(await state(draft)).toBe('draft');
  });

  it('refuses other states with 409 and the state: a draft, a closed invoice voided, a voided one closed, a paid one', async () => {
    const draft = await invoice({ draft: true });
    const res = await api(s.owner, 'POST', `/web/api/invoices/${draft}/void`);
    expectError(res, 409, 'conflict');
    expect(res.json()).toMatchObject({ state: 'draft', refusal: 'invoice_state' });
    expect(res.json().message).toMatch(/Only open invoices can be voided; this one is draft/);
    expect(await state(draft)).toBe('draft');

    const closed = await invoice();
    expect((await api(s.owner, 'POST', `/web/api/invoices/${closed}/close`)).statusCode).toBe(200);
    expectError(await api(s.owner, 'POST', `/web/api/invoices/${closed}/void`), 409, 'conflict');
    expect(await state(closed)).toBe('closed');

    const voided = await invoice();
    expect((await api(s.owner, 'POST', `/web/api/invoices/${voided}/void`)).statusCode).toBe(200);
    expectError(await api(s.owner, 'POST', `/web/api/invoices/${voided}/close`), 409, 'conflict');

    const paid = await invoice();
    expect((await api(s.owner, 'POST', `/web/api/invoices/${paid}/payments`, { amount: 100, paid_date: '2026-03-01' })).statusCode).toBe(201);
    expectError(await api(s.owner, 'POST', `/web/api/invoices/${paid}/close`), 409, 'conflict');
    expect(await state(paid)).toBe('paid');
  });

  it('refuses to void an invoice with payments, which would strand them; without them it voids', async () => {
    const id = await invoice();
    const paid = await api(s.owner, 'POST', `/web/api/invoices/${id}/payments`, { amount: 50, paid_date: '2026-03-01' });
    expect(paid.statusCode, paid.body).toBe(201);
    const res = await api(s.owner, 'POST', `/web/api/invoices/${id}/void`);
    expectError(res, 409, 'conflict');
    expect(res.json()).toMatchObject({ refusal: 'invoice_has_payments', paid_amount: 50 });
    expect(await state(id)).toBe('open');
    const [payment] = (await api(s.owner, 'GET', `/web/api/invoices/${id}/payments`)).json().payments;
    expect((await api(s.owner, 'DELETE', `/web/api/invoices/${id}/payments/${payment.id}`)).statusCode).toBe(200);
    expect((await api(s.owner, 'POST', `/web/api/invoices/${id}/void`)).statusCode).toBe(200);
    expect(await state(id)).toBe('voided');
  });

  it('is for owners and administrators in the web app: managers and members 403, API keys 403, foreign and unknown ids 404', async () => {
    const id = await invoice();
    for (const action of ['close', 'void']) {
      expectError(await api(s.mgrInvoices, 'POST', `/web/api/invoices/${id}/${action}`), 403, 'forbidden');
      expectError(await api(s.member, 'POST', `/web/api/invoices/${id}/${action}`), 403, 'forbidden');
      expectError(await api(w.admin, 'POST', `/web/api/invoices/${id}/${action}`), 403, 'session_required');
      expectError(await api(otherOwner, 'POST', `/web/api/invoices/${id}/${action}`), 404, 'not_found');
      expectError(await api(s.owner, 'POST', `/web/api/invoices/00000000-0000-4000-8000-000000000000/${action}`), 404, 'not_found');
      expectError(await api(s.owner, 'POST', `/web/api/invoices/not-an-id/${action}`), 404, 'not_found');
    }
    expect(await state(id)).toBe('open');
    // By id only: an invoice number is not an id here (sheaf admin takes numbers; the web app has ids).
    const number = (await api(s.owner, 'GET', `/api/v2/invoices/${id}`)).json().number;
    expectError(await api(s.owner, 'POST', `/web/api/invoices/${number}/close`), 404, 'not_found');
    // Another workspace's own invoice is not reachable either way.
    const theirs = await invoice({ owner: otherOwner, client: await insertClient(ctx.db, other.companyId, { name: 'Theirs' }) });
    expectError(await api(s.owner, 'POST', `/web/api/invoices/${theirs}/void`), 404, 'not_found');
    expect((await api(otherOwner, 'GET', `/api/v2/invoices/${theirs}`)).json().state).toBe('open');
  });

  it('a double click with one Idempotency-Key closes once', async () => {
    const id = await invoice();
    const send = () => api(s.admin, 'POST', `/web/api/invoices/${id}/close`, undefined, { 'idempotency-key': `close-${id}` });
    const answers = await Promise.all([send(), send()]);
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    expect(answers.some((a) => a.statusCode === 200)).toBe(true);
    const events = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', id).where('action', '=', 'invoice.closed').execute();
    expect(events).toHaveLength(1);
  });
});
