import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { insertClient, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * POST /web/api/invoices/:id/payments (issue 16 item 6): an administrator records
 * payments in the web app; partial payments add up, the one that brings the amount
 * due to zero marks the invoice paid; only open invoices, never more than is due,
 * amounts in the currency's minor units; web only and administrators only.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let eurClient: string;
let jpyClient: string;
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'member', Caller> = {} as never;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  eurClient = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
  jpyClient = await insertClient(ctx.db, w.companyId, { name: 'Nakatomi', currency: 'JPY' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
});
afterAll(() => ctx.close());

const api = (caller: Caller, method: 'GET' | 'POST', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });
const pay = (caller: Caller, id: string, body: unknown) => api(caller, 'POST', `/web/api/invoices/${id}/payments`, body);
const dayOf = (d: unknown) => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d));
const get = async (id: string) => (await api(w.owner, 'GET', `/api/v2/invoices/${id}`)).json();

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ error, ...(field ? { field } : {}) });
  expect(typeof body.error_description).toBe('string');
  expect(body.message).toBe(body.error_description);
}

/** An invoice of 242.00 EUR (2 × 121), sent (open) unless `draft`. */
async function invoice({ draft = false, client = eurClient, unit_price = 121 } = {}) {
  const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: client, issue_date: '2026-03-01', line_items: [{ description: 'Work', quantity: 2, unit_price }] });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  if (!draft) expect((await api(w.owner, 'POST', `/api/v2/invoices/${id}/messages`, { recipients: [{ email: 'bill@globex.test' }] })).statusCode).toBe(201);
  return id;
}

describe('POST /web/api/invoices/:id/payments', () => {
  it('partial payments add up; the one that brings the due amount to zero marks the invoice paid', async () => {
    const id = await invoice();
    const first = await pay(s.admin, id, { amount: 100.5, paid_date: '2026-03-10', notes: 'Bank transfer' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ id, state: 'open', amount: 242, paid_amount: 100.5, due_amount: 141.5, paid_at: null });
    expect(await get(id)).toMatchObject({ state: 'open', paid_amount: 100.5, due_amount: 141.5 });

    const last = await pay(s.owner, id, { amount: 141.5, paid_date: '2026-03-20' });
    expect(last.statusCode, last.body).toBe(201);
    expect(last.json()).toMatchObject({ state: 'paid', paid_amount: 242, due_amount: 0 });
    expect((await get(id)).paid_at).not.toBeNull();
    const rows = await ctx.db.selectFrom('invoice_payments').select(['amount', 'paid_date', 'notes']).where('invoice_id', '=', id).orderBy('paid_date').execute();
    expect(rows.map((r) => [Number(r.amount), dayOf(r.paid_date as unknown), r.notes])).toEqual([
      [100.5, '2026-03-10', 'Bank transfer'],
      [141.5, '2026-03-20', null],
    ]);

    // Paid: no more payments.
    expectError(await pay(s.admin, id, { amount: 1, paid_date: '2026-03-21' }), 409, 'conflict');
  });

  it('records a payment once when the same click arrives twice at once (Idempotency-Key): one row, the same answer', async () => {
    const id = await invoice();
    const send = () =>
      request(ctx.app, s.admin, {
        method: 'POST',
        url: `/web/api/invoices/${id}/payments`,
        payload: { amount: 42, paid_date: '2026-03-10' },
        headers: { 'idempotency-key': `pay-${id}` },
      });
    const answers = await Promise.all([send(), send()]);
    const created = answers.filter((a) => a.statusCode === 201);
    // The second is a replay of the first, or 409 while the first still holds the key; never a second payment.
    expect(created.length + answers.filter((a) => a.statusCode === 409 && a.json().error === 'idempotency_key_in_use').length).toBe(2);
    const replay = await send();
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toMatchObject({ paid_amount: 42, due_amount: 200 });
    const rows = await ctx.db.selectFrom('invoice_payments').select('amount').where('invoice_id', '=', id).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses more than is due, zero, negative and too many decimals for the currency, changing nothing', async () => {
    const id = await invoice();
    expectError(await pay(s.admin, id, { amount: 242.01, paid_date: '2026-03-10' }), 400, 'invalid_request', 'amount');
    expectError(await pay(s.admin, id, { amount: 0, paid_date: '2026-03-10' }), 400, 'invalid_request', 'amount');
    expectError(await pay(s.admin, id, { amount: -5, paid_date: '2026-03-10' }), 400, 'invalid_request', 'amount');
    expectError(await pay(s.admin, id, { amount: 1.005, paid_date: '2026-03-10' }), 400, 'invalid_request', 'amount');
    expectError(await pay(s.admin, id, { amount: 10, paid_date: '2026-02-30' }), 400, 'invalid_request');
    expectError(await pay(s.admin, id, { amount: 10, paid_date: '2026-03-10', extra: 1 }), 400, 'unknown_field');
    expect(await get(id)).toMatchObject({ state: 'open', paid_amount: 0, due_amount: 242 });

    const yen = await invoice({ client: jpyClient, unit_price: 1500 });
    expectError(await pay(s.admin, yen, { amount: 0.5, paid_date: '2026-03-10' }), 400, 'invalid_request', 'amount');
    expect((await pay(s.admin, yen, { amount: 3000, paid_date: '2026-03-10' })).json()).toMatchObject({ currency: 'JPY', state: 'paid', due_amount: 0 });
  });

  it('takes payments on open invoices only: a draft is 409 and stays a draft', async () => {
    const id = await invoice({ draft: true });
    const res = await pay(s.admin, id, { amount: 10, paid_date: '2026-03-10' });
    expectError(res, 409, 'conflict');
    expect(res.json().state).toBe('draft');
    expect(await get(id)).toMatchObject({ state: 'draft', paid_amount: 0 });
  });

  it('is for owners and administrators in the web app: managers and members 403, an API key 403 session_required, unknown ids 404', async () => {
    const id = await invoice();
    expectError(await pay(s.mgrInvoices, id, { amount: 10, paid_date: '2026-03-10' }), 403, 'forbidden');
    expectError(await pay(s.member, id, { amount: 10, paid_date: '2026-03-10' }), 403, 'forbidden');
    // The administrator's API key: web only.
    expectError(await api(w.admin, 'POST', `/web/api/invoices/${id}/payments`, { amount: 10, paid_date: '2026-03-10' }), 403, 'session_required');
    expectError(await pay(s.admin, '00000000-0000-4000-8000-000000000000', { amount: 10, paid_date: '2026-03-10' }), 404, 'not_found');
    expect(await get(id)).toMatchObject({ state: 'open', paid_amount: 0 });
  });
});
