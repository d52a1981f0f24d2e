import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { insertClient, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * Issue 25 item 5: the payments of an invoice in the web app. GET lists them (date,
 * amount, method, notes) to whoever may read the invoice; DELETE removes a wrongly
 * recorded one (owners and administrators; a paid invoice with money due again goes
 * back to open), serialised on the invoice's row lock; a payment may name its method.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let client: string;
let foreign: { owner: Caller; session: Caller; invoice: string };
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  client = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  const other = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
  const otherClient = await insertClient(ctx.db, other.owner.companyId, { name: 'Initech' });
  const res = await request(ctx.app, other.owner, { method: 'POST', url: '/api/v2/invoices', payload: { client_id: otherClient, line_items: [{ description: 'Work', unit_price: 10 }] } });
  expect(res.statusCode, res.body).toBe(201);
  foreign = { owner: other.owner, session: await sessionFor(ctx.db, other.owner, ctx.clock.now()), invoice: res.json().id };
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'DELETE';
const api = (caller: Caller, method: Method, url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });
const pay = (caller: Caller, id: string, body: unknown) => api(caller, 'POST', `/web/api/invoices/${id}/payments`, body);
const list = (caller: Caller, id: string) => api(caller, 'GET', `/web/api/invoices/${id}/payments`);
const remove = (caller: Caller, id: string, paymentId: string) => api(caller, 'DELETE', `/web/api/invoices/${id}/payments/${paymentId}`);
const get = async (id: string) => (await api(w.owner, 'GET', `/api/v2/invoices/${id}`)).json();
const paymentRows = (id: string) => ctx.db.selectFrom('invoice_payments').select(['id', 'amount']).where('invoice_id', '=', id).orderBy('id').execute();

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, ...(field ? { field } : {}) });
}

/** An open invoice of 242.00 EUR (2 × 121), created by `creator` (the owner's key unless given). */
async function openInvoice(creator: Caller = w.owner) {
  const res = await api(creator, 'POST', '/api/v2/invoices', { client_id: client, issue_date: '2026-03-01', line_items: [{ description: 'Work', quantity: 2, unit_price: 121 }] });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  expect((await api(creator, 'POST', `/api/v2/invoices/${id}/messages`, { recipients: [{ email: 'bill@globex.test' }] })).statusCode).toBe(201);
  return id;
}

/** Pays `amounts` in order and returns the payments' ids, oldest first. */
async function payAll(id: string, amounts: number[]) {
  for (const [i, amount] of amounts.entries()) {
    const res = await pay(s.admin, id, { amount, paid_date: `2026-03-1${i}` });
    expect(res.statusCode, res.body).toBe(201);
  }
  return (await list(s.admin, id)).json().payments.map((p: { id: string }) => p.id) as string[];
}

describe('GET /web/api/invoices/:id/payments', () => {
  it('lists date, amount, method and notes, by date paid', async () => {
    const id = await openInvoice();
    expect((await pay(s.admin, id, { amount: 42, paid_date: '2026-03-20', method: 'cash', notes: 'At the counter' })).statusCode).toBe(201);
    expect((await pay(s.owner, id, { amount: 100.5, paid_date: '2026-03-10', method: 'bank_transfer' })).statusCode).toBe(201);
    expect((await pay(s.owner, id, { amount: 0.5, paid_date: '2026-03-15', method: null })).statusCode).toBe(201);
    const res = await list(s.admin, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().payments).toEqual([
      { id: expect.any(String), invoice_id: id, amount: 100.5, paid_date: '2026-03-10', method: 'bank_transfer', notes: null, created_at: expect.any(String) },
      { id: expect.any(String), invoice_id: id, amount: 0.5, paid_date: '2026-03-15', method: null, notes: null, created_at: expect.any(String) },
      { id: expect.any(String), invoice_id: id, amount: 42, paid_date: '2026-03-20', method: 'cash', notes: 'At the counter', created_at: expect.any(String) },
    ]);
  });

  it('is for whoever may read the invoice: a manager who may see it yes; a manager who may not, and another workspace, 404; members 403', async () => {
    const id = await openInvoice();
    await payAll(id, [10]);
    expect((await list(s.mgrInvoices, id)).json().payments).toHaveLength(1);
    expectError(await list(s.mgrPlain, id), 404, 'not_found');
    expectError(await list(s.member, id), 403, 'forbidden');
    expectError(await list(foreign.session, id), 404, 'not_found');
    expectError(await list(s.admin, foreign.invoice), 404, 'not_found');
    expectError(await list(s.admin, 'not-an-id'), 404, 'not_found');
    // Web only: an API key is refused.
    expectError(await list(w.owner, id), 403, 'session_required');
  });

  it('refuses query parameters and an unknown payment method, recording nothing', async () => {
    const id = await openInvoice();
    expectError(await api(s.admin, 'GET', `/web/api/invoices/${id}/payments?page=2`), 400, 'unknown_field');
    const res = await pay(s.admin, id, { amount: 10, paid_date: '2026-03-10', method: 'barter' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toContain('method');
    expect(await paymentRows(id)).toHaveLength(0);
  });
});

describe('DELETE /web/api/invoices/:id/payments/:paymentId', () => {
  it('removes a partial payment from an open invoice: it stays open with the amount due again', async () => {
    const id = await openInvoice();
    const [first, second] = await payAll(id, [100, 42]);
    const res = await remove(s.admin, id, first!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, state: 'open', paid_amount: 42, due_amount: 200 });
    expect((await paymentRows(id)).map((r) => r.id)).toEqual([second]);
    const audit = await ctx.db.selectFrom('audit_logs').select(['action', 'details']).where('subject_id', '=', id).where('action', '=', 'invoice.payment_deleted').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ payment: '100', reopened: false });
  });

  it('returns a paid invoice to open when the amount due is more than 0 again', async () => {
    const id = await openInvoice();
    const [, last] = await payAll(id, [200, 42]);
    expect(await get(id)).toMatchObject({ state: 'paid', due_amount: 0 });
    const res = await remove(s.owner, id, last!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'open', paid_amount: 200, due_amount: 42, paid_at: null });
    expect(await get(id)).toMatchObject({ state: 'open', paid_at: null });
    // Open again: it takes a payment, which pays it again.
    expect((await pay(s.admin, id, { amount: 42, paid_date: '2026-03-30' })).json()).toMatchObject({ state: 'paid' });
  });

  it('is for owners and administrators: managers and members are refused and nothing is deleted', async () => {
    const id = await openInvoice();
    const [p] = await payAll(id, [10]);
    expectError(await remove(s.mgrInvoices, id, p!), 403, 'forbidden');
    expectError(await remove(s.member, id, p!), 403, 'forbidden');
    expectError(await remove(w.admin, id, p!), 403, 'session_required');
    expect(await paymentRows(id)).toHaveLength(1);
  });

  it('is 404 for another invoice\'s payment, another workspace\'s invoice, a malformed or deleted id; nothing changes', async () => {
    const id = await openInvoice();
    const other = await openInvoice();
    const [p] = await payAll(id, [10]);
    const [q] = await payAll(other, [20]);
    expectError(await remove(s.admin, id, q!), 404, 'not_found');
    expectError(await remove(s.admin, id, 'nope'), 404, 'not_found');
    expectError(await remove(s.admin, foreign.invoice, p!), 404, 'not_found');
    expectError(await remove(foreign.session, id, p!), 404, 'not_found');
    expect((await remove(s.admin, id, p!)).statusCode).toBe(200);
    expectError(await remove(s.admin, id, p!), 404, 'not_found');
    expect(await paymentRows(other)).toHaveLength(1);
    expect(await get(other)).toMatchObject({ paid_amount: 20 });
  });

  it('refuses a closed invoice (409), keeping the payment; an invoice with payments is never voided', async () => {
    const id = await openInvoice();
    const [p] = await payAll(id, [10]);
    expect((await api(s.admin, 'POST', `/web/api/invoices/${id}/close`)).statusCode).toBe(200);
    expectError(await remove(s.admin, id, p!), 409, 'conflict');
    expect(await paymentRows(id)).toHaveLength(1);
    const paid = await openInvoice();
    await payAll(paid, [10]);
    expectError(await api(s.admin, 'POST', `/web/api/invoices/${paid}/void`), 409, 'conflict');
    expect(await paymentRows(paid)).toHaveLength(1);
  });

  it('two deletes of one payment at once: one deletes, the other is 404; the invoice is open with the amount due', async () => {
    const id = await openInvoice();
    const [p] = await payAll(id, [242]);
    const answers = await Promise.all([remove(s.admin, id, p!), remove(s.owner, id, p!)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
    expect(await get(id)).toMatchObject({ state: 'open', paid_amount: 0, due_amount: 242 });
  });

  it('two deletes of both payments of a paid invoice at once: both go, and it ends open with everything due', async () => {
    const id = await openInvoice();
    const [a, b] = await payAll(id, [142, 100]);
    const answers = await Promise.all([remove(s.admin, id, a!), remove(s.owner, id, b!)]);
    expect(answers.map((x) => x.statusCode)).toEqual([200, 200]);
    expect(await get(id)).toMatchObject({ state: 'open', paid_amount: 0, due_amount: 242, paid_at: null });
  });

  it('a delete racing a payment that settles the rest: the state always follows the payments left', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await openInvoice();
      const [a] = await payAll(id, [142]);
      const [del, add] = await Promise.all([remove(s.admin, id, a!), pay(s.owner, id, { amount: 100, paid_date: '2026-03-20' })]);
      expect(del.statusCode, del.body).toBe(200);
      expect(add.statusCode, add.body).toBe(201);
      const after = await get(id);
      expect(after).toMatchObject({ paid_amount: 100, due_amount: 142, state: 'open' });
    }
  });
});

describe('the day an invoice was paid', () => {
  it('is the day of its latest payment in the workspace zone, whenever that payment is recorded; today: the moment it was', async () => {
    const zone = (await ctx.db.selectFrom('companies').select('timezone').where('id', '=', w.companyId).executeTakeFirstOrThrow()).timezone;
    const id = await openInvoice();
    expect((await pay(s.admin, id, { amount: 200, paid_date: '2026-03-12' })).statusCode).toBe(201);
    // The rest arrived earlier but is recorded last: the invoice was paid in full on the 12th.
    const last = await pay(s.admin, id, { amount: 42, paid_date: '2026-03-05' });
    expect(last.json()).toMatchObject({ state: 'paid', paid_at: DateTime.fromISO('2026-03-12', { zone }).toUTC().toISO() });

    const today = await openInvoice();
    const paid = await pay(s.admin, today, { amount: 242, paid_date: DateTime.fromJSDate(ctx.clock.now(), { zone }).toISODate() });
    expect(paid.json()).toMatchObject({ state: 'paid', paid_at: ctx.clock.now().toISOString() });
  });
});

describe('two payments at once', () => {
  it('each for the whole amount due: one pays the invoice, the other is refused; never paid twice', async () => {
    const id = await openInvoice();
    const answers = await Promise.all([pay(s.admin, id, { amount: 242, paid_date: '2026-03-10' }), pay(s.owner, id, { amount: 242, paid_date: '2026-03-10' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect(await get(id)).toMatchObject({ state: 'paid', paid_amount: 242, due_amount: 0 });
    expect(await paymentRows(id)).toHaveLength(1);
  });
});

describe('payments in the backup', () => {
  it('exports a payment with its method', async () => {
    const id = await openInvoice();
    expect((await pay(s.admin, id, { amount: 12.5, paid_date: '2026-03-10', method: 'card' })).statusCode).toBe(201);
    const res = await api(w.owner, 'GET', '/api/v2/backup/invoices?per_page=500');
    expect(res.statusCode, res.body).toBe(200);
    const invoice = res.json().records.find((r: { id: string }) => r.id === id);
    expect(invoice.payments).toEqual([expect.objectContaining({ amount: '12.50', paid_date: '2026-03-10', method: 'card', notes: null })]);
  });
});
