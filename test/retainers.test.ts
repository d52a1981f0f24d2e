import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText } from 'unpdf';
import { sql } from 'kysely';
import { createTestContext, onPostgres, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignUser, insertClient, insertProject, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';
import { amountValue, assertDrawFits, entryCounts } from '../src/modules/billing/retainers/rules.ts';
import { computeTotals, printedSubtotal } from '../src/modules/billing/invoices/totals.ts';

/**
 * Retainers (issue 25 item 8), through the web app's session routes: creation,
 * funding by a retainer invoice that counts once paid, drawing with credit lines on
 * drafts (untaxed, outside the discount, never more than the balance or the amount
 * due), releases (removed line, voided invoice, deleted draft), a deleted payment
 * that would overdraw, parallel draws, tenancy, roles, the backup and the PDF.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
let client: string;
let usdClient: string;
let secondClient: string;
let otherClient: string;
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller> = {} as never;
let otherOwner: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  other = await makeInvoiceWorkspace(ctx.db);
  client = await insertClient(ctx.db, w.companyId, { name: 'Globex', tax: '19', discount: '10' });
  usdClient = await insertClient(ctx.db, w.companyId, { name: 'Initrode', currency: 'USD' });
  secondClient = await insertClient(ctx.db, w.companyId, { name: 'Hooli' });
  otherClient = await insertClient(ctx.db, other.companyId, { name: 'Elsewhere' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
});
afterAll(() => ctx.close());

type Res = Awaited<ReturnType<typeof request>>;
const api = (caller: Caller | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });

function expectError(res: Res, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, ...(field ? { field } : {}) });
}

async function createRetainer(body: Record<string, unknown> = {}, caller = s.owner) {
  const res = await api(caller, 'POST', '/web/api/retainers', { client_id: client, name: 'Support 2026', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const getRetainer = async (id: string) => {
  const res = await api(s.owner, 'GET', `/web/api/retainers/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function fund(id: string, amount: number, caller = s.owner) {
  const res = await api(caller, 'POST', `/web/api/retainers/${id}/fund`, { amount, issue_date: '2026-03-01' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const send = async (invoiceId: string) =>
  expect((await api(w.owner, 'POST', `/api/v2/invoices/${invoiceId}/messages`, { recipients: [{ email: 'bill@globex.test' }] })).statusCode).toBe(201);
const pay = (invoiceId: string, amount: number) => api(s.admin, 'POST', `/web/api/invoices/${invoiceId}/payments`, { amount, paid_date: '2026-03-10' });

/** A retainer holding `amount` (its retainer invoice sent and paid in full). */
async function fundedRetainer(amount: number, body: Record<string, unknown> = {}) {
  const r = await createRetainer(body);
  const { invoice } = await fund(r.id, amount);
  await send(invoice.id);
  expect((await pay(invoice.id, amount)).statusCode).toBe(201);
  return { retainer: await getRetainer(r.id), fundingInvoice: invoice.id as string };
}

/** A draft invoice of `clientId` of 2 × `price` (the client's tax 19 % and discount 10 % apply to Globex). */
async function draft(price = 300, clientId = client, extra: Record<string, unknown> = {}) {
  const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, issue_date: '2026-04-01', line_items: [{ description: 'Work', quantity: 2, unit_price: price }], ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const draw = (retainerId: string, invoiceId: string, amount: number, caller = s.owner) => api(caller, 'POST', `/web/api/retainers/${retainerId}/credits`, { invoice_id: invoiceId, amount });
const getInvoice = async (id: string) => (await api(w.owner, 'GET', `/api/v2/invoices/${id}`)).json();
const lineCount = async () => Number((await ctx.db.selectFrom('invoice_line_items').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', w.companyId).executeTakeFirstOrThrow()).n);
const dbBalance = async (id: string) => (await sql<{ b: string }>`select retainer_balance(${w.companyId}::uuid, ${id}::uuid)::text as b`.execute(ctx.db)).rows[0].b;

describe('creating retainers', () => {
  it('makes a retainer of the client in its currency with a balance of 0', async () => {
    const r = await createRetainer({ description: 'Prepaid support hours' });
    expect(r).toMatchObject({ client: { id: client, name: 'Globex' }, name: 'Support 2026', description: 'Prepaid support hours', currency: 'EUR', balance: 0, pending: 0, archived_at: null, entries: [] });
    expect((await createRetainer({ client_id: usdClient })).currency).toBe('USD');
    const listed = (await api(s.owner, 'GET', `/web/api/retainers?client_id=${client}`)).json().retainers;
    expect(listed.map((x: any) => x.id)).toContain(r.id);
    expect(listed.every((x: any) => x.client.id === client)).toBe(true);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const before = Number((await ctx.db.selectFrom('retainers').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    expectError(await api(s.owner, 'POST', '/web/api/retainers', { client_id: client, name: '   ' }), 400, 'invalid_request', 'name');
    expectError(await api(s.owner, 'POST', '/web/api/retainers', { client_id: client, name: 'X', currency: 'EURO' }), 400, 'invalid_request', 'currency');
    expectError(await api(s.owner, 'POST', '/web/api/retainers', { client_id: client, name: 'X', balance: 5 }), 400, 'unknown_field');
    expectError(await api(s.owner, 'POST', '/web/api/retainers', { client_id: client, name: 7 }), 400, 'invalid_request');
    expectError(await api(s.owner, 'POST', '/web/api/retainers', { client_id: otherClient, name: 'X' }), 404, 'not_found', 'client_id');
    expectError(await api(s.owner, 'POST', '/web/api/retainers', { client_id: 'nope', name: 'X' }), 404, 'not_found', 'client_id');
    const after = Number((await ctx.db.selectFrom('retainers').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before);
  });
});

describe('funding', () => {
  it('creates a retainer invoice with one untaxed funding line; the funds count once it is paid in full', async () => {
    const r = await createRetainer();
    const { invoice, retainer } = await fund(r.id, 1000);
    expect(retainer).toMatchObject({ balance: 0, pending: 1000 });
    const inv = await getInvoice(invoice.id);
    // Globex's 19 % tax and 10 % discount do not apply: a prepayment, taxed when drawn.
    expect(inv).toMatchObject({ state: 'draft', client: { id: client }, currency: 'EUR', tax: 0, discount: 0, subtotal: 1000, amount: 1000, due_amount: 1000 });
    expect(inv.line_items).toEqual([expect.objectContaining({ kind: 'Retainer', description: 'Support 2026', quantity: 1, unit_price: 1000, amount: 1000, effect: 'charge', taxed: false, taxed2: false })]);
    await send(invoice.id);
    expect((await pay(invoice.id, 400)).statusCode).toBe(201);
    expect(await getRetainer(r.id)).toMatchObject({ balance: 0, pending: 1000 }); // partly paid: not yet funds
    expect((await pay(invoice.id, 600)).statusCode).toBe(201);
    const after = await getRetainer(r.id);
    expect(after).toMatchObject({ balance: 1000, pending: 0 });
    expect(after.entries).toEqual([
      { id: inv.line_items[0].id, kind: 'funding', description: 'Support 2026', amount: 1000, counts: true, pending: false, invoice: { id: invoice.id, number: inv.number, state: 'paid', issue_date: '2026-03-01' } },
    ]);
  });

  it('refuses a bad amount naming it, with nothing written', async () => {
    const r = await createRetainer();
    const invoices = Number((await ctx.db.selectFrom('invoices').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    for (const amount of [0, -5, 10.001]) expectError(await api(s.owner, 'POST', `/web/api/retainers/${r.id}/fund`, { amount }), 400, 'invalid_request', 'amount');
    expectError(await api(s.owner, 'POST', `/web/api/retainers/${r.id}/fund`, { amount: '10' }), 400, 'invalid_request');
    expect(Number((await ctx.db.selectFrom('invoices').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)).toBe(invoices);
  });
});

describe('drawing', () => {
  it('adds an untaxed credit line outside the discount; the arithmetic matches the hand-computed values', async () => {
    const { retainer } = await fundedRetainer(1000);
    const inv = await draft(300);
    // Charges 2 × 300 = 600; discount 10 % of 600 = 60; tax 19 % of 540 = 102.60; amount 642.60.
    expect(inv).toMatchObject({ subtotal: 600, discount_amount: 60, tax_amount: 102.6, amount: 642.6, due_amount: 642.6 });
    const res = await draw(retainer.id, inv.id, 250.5);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.retainer).toMatchObject({ balance: 749.5 });
    const after = await getInvoice(inv.id);
    // Credit 250.50, untaxed, not discounted: subtotal 349.50; discount 60; tax 102.60; amount 349.50 − 60 + 102.60 = 392.10.
    expect(after).toMatchObject({ subtotal: 349.5, discount_amount: 60, tax_amount: 102.6, amount: 392.1, due_amount: 392.1 });
    expect(after.line_items[1]).toMatchObject({ id: body.line_id, kind: 'Retainer', effect: 'credit', quantity: 1, unit_price: 250.5, amount: 250.5, taxed: false, taxed2: false });
    expect(await dbBalance(retainer.id)).toMatch(/^749\.50*$/);
    const shown = await api(s.owner, 'GET', `/web/api/invoices/${inv.id}/retainers`);
    expect(shown.json().credits).toEqual([{ line_id: body.line_id, retainer_id: retainer.id, name: 'Support 2026', amount: 250.5 }]);
    // The totals as the PDF prints them, for the invoice page: the other lines' subtotal, then the credit.
    expect(shown.json().printed).toEqual({ subtotal: 600, retainer_credit: 250.5 });
    expect(shown.json().available.map((x: any) => x.id)).toContain(retainer.id);
  });

  it('sends an invoice the credit covers in full as covered by the prepayment, not as 0.00 due on a date', async () => {
    const german = await insertClient(ctx.db, w.companyId, { name: 'Müller GmbH', tax: '19' });
    await ctx.db.updateTable('clients').set({ language: 'de' }).where('id', '=', german).execute();
    for (const [clientId, covered, not] of [
      [client, 'Please find invoice {{number}}. It is covered by your prepayment: there is nothing to pay. The invoice is attached as a PDF.', '€0.00'],
      [german, 'anbei erhalten Sie die Rechnung {{number}}. Sie ist durch Ihre Vorauszahlung gedeckt; es ist nichts zu zahlen. Die Rechnung liegt als PDF bei.', '0,00'],
    ]) {
      const { retainer } = await fundedRetainer(1000, { client_id: clientId });
      const inv = await draft(50, clientId);
      expect((await draw(retainer.id, inv.id, inv.amount)).statusCode).toBe(201);
      expect(await getInvoice(inv.id)).toMatchObject({ amount: 0, due_amount: 0 });
      const res = await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'bill@globex.test' }] });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().body).toContain(covered.replace('{{number}}', inv.number));
      expect(res.json().body).not.toContain(not);
    }
  });

  it('refuses more than the retainer holds, naming amount, and writes nothing', async () => {
    const { retainer } = await fundedRetainer(100);
    const inv = await draft(300);
    const lines = await lineCount();
    const res = await draw(retainer.id, inv.id, 100.01);
    expectError(res, 400, 'invalid_request', 'amount');
    expect(res.json().message).toContain('100.00 EUR the retainer holds');
    expect(await lineCount()).toBe(lines);
    expect((await getRetainer(retainer.id)).balance).toBe(100);
    expect((await getInvoice(inv.id)).amount).toBe(642.6);
  });

  it('refuses more than the invoice asks for, so the amount due never goes below 0', async () => {
    const { retainer } = await fundedRetainer(1000);
    const inv = await draft(50); // 100 − 10 + 17.10 = 107.10
    expectError(await draw(retainer.id, inv.id, 107.11), 400, 'invalid_request', 'amount');
    expect((await draw(retainer.id, inv.id, 107.1)).statusCode).toBe(201);
    expect(await getInvoice(inv.id)).toMatchObject({ amount: 0, due_amount: 0 });
    expectError(await draw(retainer.id, inv.id, 0.01), 400, 'invalid_request', 'amount');
    // Lowering the charge under the credit is refused too: the credit must go first.
    const charge = (await getInvoice(inv.id)).line_items[0];
    expectError(await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: charge.id, unit_price: 40 }] }), 400, 'invalid_request', 'line_items');
    expect((await getInvoice(inv.id)).line_items[0].unit_price).toBe(50);
  });

  it('an invoice its credit covers is sent with nothing due and is marked paid without a payment, by administrators only', async () => {
    const { retainer } = await fundedRetainer(1000);
    const inv = await draft(50); // 107.10 with the client's discount and tax
    expect((await draw(retainer.id, inv.id, 107.1)).statusCode).toBe(201);
    await send(inv.id);
    expect(await getInvoice(inv.id)).toMatchObject({ state: 'open', due_amount: 0 });
    // No payment can settle it (amount must be more than 0): marking it paid does.
    expectError(await pay(inv.id, 0), 400, 'invalid_request', 'amount');
    expectError(await api(s.member, 'POST', `/web/api/invoices/${inv.id}/mark-paid`), 403, 'forbidden');
    expectError(await api(s.mgrInvoices, 'POST', `/web/api/invoices/${inv.id}/mark-paid`), 403, 'forbidden');
    expectError(await api(otherOwner, 'POST', `/web/api/invoices/${inv.id}/mark-paid`), 404, 'not_found');
    expect((await getInvoice(inv.id)).state).toBe('open');
    const res = await api(s.admin, 'POST', `/web/api/invoices/${inv.id}/mark-paid`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: inv.id, state: 'paid', due_amount: 0, amount: 0 });
    expect(res.json().paid_at).not.toBeNull();
    expect((await api(s.admin, 'GET', `/web/api/invoices/${inv.id}/payments`)).json().payments).toEqual([]);
    // Repeating it is not an error; the retainer keeps what is left.
    expect((await api(s.owner, 'POST', `/web/api/invoices/${inv.id}/mark-paid`)).json().state).toBe('paid');
    expect((await getRetainer(retainer.id)).balance).toBe(892.9);
    const audit = await ctx.db.selectFrom('audit_logs').select(['actor_user_id', 'action']).where('subject_id', '=', inv.id).where('action', '=', 'invoice.paid').execute();
    expect(audit).toEqual([{ actor_user_id: w.admin.userId, action: 'invoice.paid' }]);
  });

  it("refuses edits of a retainer line's amount or kind", async () => {
    const { retainer } = await fundedRetainer(500);
    const inv = await draft(300);
    const { line_id } = (await draw(retainer.id, inv.id, 100)).json();
    expectError(await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line_id, unit_price: 50 }] }), 400, 'invalid_request', 'line_items.0.unit_price');
    expectError(await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line_id, kind: 'Product' }] }), 400, 'invalid_request', 'line_items.0.kind');
    // Its description may change, as any line's.
    expect((await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: line_id, description: 'Prepaid support' }] })).statusCode).toBe(200);
  });

  it('draws only onto drafts of the same client and currency that are not retainer invoices', async () => {
    const { retainer, fundingInvoice } = await fundedRetainer(500);
    const usd = await draft(100, usdClient);
    const otherClientInvoice = await draft(100, secondClient);
    const open = await draft(100);
    await send(open.id);
    expectError(await draw(retainer.id, usd.id, 10), 400, 'invalid_request', 'invoice_id');
    expectError(await draw(retainer.id, otherClientInvoice.id, 10), 400, 'invalid_request', 'invoice_id');
    expectError(await draw(retainer.id, open.id, 10), 409, 'conflict', 'invoice_id');
    expectError(await draw(retainer.id, fundingInvoice, 10), 409, 'conflict', 'invoice_id'); // paid
    const second = await fund(retainer.id, 50);
    expectError(await draw(retainer.id, second.invoice.id, 10), 400, 'invalid_request', 'invoice_id'); // a retainer invoice
    expectError(await draw(retainer.id, 'not-an-id', 10), 404, 'not_found', 'invoice_id');
    expectError(await api(s.owner, 'POST', `/web/api/retainers/${retainer.id}/credits`, { invoice_id: usd.id, amount: 1, note: 'x' }), 400, 'unknown_field');
  });
});

describe('releasing and the balance over time', () => {
  it('a removed credit line, a voided invoice and a deleted draft give the funds back', async () => {
    const { retainer } = await fundedRetainer(600);
    const a = await draft(300);
    const b = await draft(300);
    const c = await draft(300);
    const ca = (await draw(retainer.id, a.id, 100)).json();
    await draw(retainer.id, b.id, 200);
    await draw(retainer.id, c.id, 300);
    expect((await getRetainer(retainer.id)).balance).toBe(0);
    expectError(await draw(retainer.id, a.id, 0.01), 400, 'invalid_request', 'amount');

    const removed = await api(s.owner, 'DELETE', `/web/api/retainers/${retainer.id}/credits/${ca.line_id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().balance).toBe(100);
    expect((await getInvoice(a.id)).line_items).toHaveLength(1);
    expectError(await api(s.owner, 'DELETE', `/web/api/retainers/${retainer.id}/credits/${ca.line_id}`), 404, 'not_found');

    await send(b.id);
    expectError(await api(s.owner, 'DELETE', `/web/api/retainers/${retainer.id}/credits/${(await getInvoice(b.id)).line_items[1].id}`), 409, 'conflict');
    expect((await api(s.owner, 'POST', `/web/api/invoices/${b.id}/void`)).statusCode).toBe(200);
    expect((await getRetainer(retainer.id)).balance).toBe(300);

    expect((await api(w.owner, 'DELETE', `/api/v2/invoices/${c.id}`)).statusCode).toBe(204);
    const r = await getRetainer(retainer.id);
    expect(r.balance).toBe(600);
    // The history explains the balance: what counts adds up to it (the rule of retainer_balance()).
    const sum = r.entries.filter((e: any) => e.counts).reduce((t: number, e: any) => t + (e.kind === 'funding' ? e.amount : -e.amount), 0);
    expect(sum).toBe(600);
    expect(r.entries.map((e: any) => [e.kind, e.amount, e.invoice.state, e.counts])).toEqual([
      ['funding', 600, 'paid', true],
      ['credit', 200, 'voided', false],
    ]);
  });

  it('a deleted payment takes the funds away, unless they are drawn already (409, nothing changes)', async () => {
    const { retainer, fundingInvoice } = await fundedRetainer(300);
    const payments = (await api(s.admin, 'GET', `/web/api/invoices/${fundingInvoice}/payments`)).json().payments;
    const inv = await draft(300);
    const { line_id } = (await draw(retainer.id, inv.id, 50)).json();
    const refused = await api(s.admin, 'DELETE', `/web/api/invoices/${fundingInvoice}/payments/${payments[0].id}`);
    expectError(refused, 409, 'conflict');
    expect(refused.json().message).toContain('Support 2026');
    expect((await getInvoice(fundingInvoice)).state).toBe('paid');
    expect((await getRetainer(retainer.id)).balance).toBe(250);
    await api(s.owner, 'DELETE', `/web/api/retainers/${retainer.id}/credits/${line_id}`);
    const ok = await api(s.admin, 'DELETE', `/web/api/invoices/${fundingInvoice}/payments/${payments[0].id}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().state).toBe('open');
    expect(await getRetainer(retainer.id)).toMatchObject({ balance: 0, pending: 300 });
  });

  it('two parallel draws never overdraw the retainer', async () => {
    const { retainer } = await fundedRetainer(100);
    const a = await draft(300);
    const b = await draft(300);
    const answers = await Promise.all([draw(retainer.id, a.id, 60), draw(retainer.id, b.id, 60)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    expect(answers.find((r) => r.statusCode === 400)!.json()).toMatchObject({ field: 'amount' });
    expect((await getRetainer(retainer.id)).balance).toBe(40);
    // Many at once, on the same and on different drafts: the total drawn never passes the funds.
    const { retainer: r2 } = await fundedRetainer(100);
    const drafts = await Promise.all([1, 2, 3].map(() => draft(300)));
    const many = await Promise.all([...drafts, ...drafts].map((d) => draw(r2.id, d.id, 30)));
    expect(many.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(many.filter((r) => r.statusCode === 400)).toHaveLength(3);
    expect((await getRetainer(r2.id)).balance).toBe(10);
    expect(Number(await dbBalance(r2.id))).toBe(10);
  }, onPostgres ? 60_000 : 30_000);

  it('archives only at a balance of 0, and an archived retainer takes no funding and no draws', async () => {
    const { retainer } = await fundedRetainer(100);
    expectError(await api(s.owner, 'PATCH', `/web/api/retainers/${retainer.id}`, { archived: true }), 409, 'conflict', 'archived');
    const inv = await draft(300);
    await draw(retainer.id, inv.id, 100);
    const archived = await api(s.owner, 'PATCH', `/web/api/retainers/${retainer.id}`, { archived: true, name: 'Support (closed)' });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json()).toMatchObject({ name: 'Support (closed)', balance: 0 });
    expect(archived.json().archived_at).not.toBeNull();
    expectError(await api(s.owner, 'POST', `/web/api/retainers/${retainer.id}/fund`, { amount: 5 }), 409, 'conflict');
    const active = (await api(s.owner, 'GET', '/web/api/retainers?archived=false')).json().retainers.map((x: any) => x.id);
    expect(active).not.toContain(retainer.id);
    const restored = await api(s.owner, 'PATCH', `/web/api/retainers/${retainer.id}`, { archived: false });
    expect(restored.json().archived_at).toBeNull();
  });
});

describe('tenancy and roles', () => {
  it("another workspace's retainer and invoice ids are 404", async () => {
    const { retainer } = await fundedRetainer(100);
    const inv = await draft(300);
    expectError(await api(otherOwner, 'GET', `/web/api/retainers/${retainer.id}`), 404, 'not_found');
    expectError(await api(otherOwner, 'PATCH', `/web/api/retainers/${retainer.id}`, { name: 'Mine' }), 404, 'not_found');
    expectError(await api(otherOwner, 'POST', `/web/api/retainers/${retainer.id}/fund`, { amount: 5 }), 404, 'not_found');
    expectError(await api(otherOwner, 'POST', `/web/api/retainers/${retainer.id}/credits`, { invoice_id: inv.id, amount: 5 }), 404, 'not_found');
    expectError(await api(otherOwner, 'GET', `/web/api/invoices/${inv.id}/retainers`), 404, 'not_found');
    expect((await api(otherOwner, 'GET', '/web/api/retainers')).json().retainers.map((x: any) => x.id)).not.toContain(retainer.id);
    // Their own retainer onto our invoice: the invoice is not found.
    const res = await api(otherOwner, 'POST', '/web/api/retainers', { client_id: otherClient, name: 'Theirs' });
    expectError(await api(otherOwner, 'POST', `/web/api/retainers/${res.json().id}/credits`, { invoice_id: inv.id, amount: 5 }), 404, 'not_found', 'invoice_id');
    expect((await getRetainer(retainer.id)).balance).toBe(100);
  });

  it('owners, administrators and managers with View invoices act; others are 403; API keys never reach the routes', async () => {
    const r = await createRetainer({}, s.admin);
    expect((await api(s.mgrInvoices, 'GET', `/web/api/retainers/${r.id}`)).statusCode).toBe(200);
    // A manager invoices the clients they see (those of the projects they manage), as for any invoice.
    expectError(await api(s.mgrInvoices, 'POST', `/web/api/retainers/${r.id}/fund`, { amount: 10 }), 404, 'not_found', 'client_id');
    const project = await insertProject(ctx.db, w.companyId, client, { name: 'Support' });
    await assignUser(ctx.db, w.companyId, project, w.mgrInvoices.userId, { manager: true });
    expect((await api(s.mgrInvoices, 'POST', `/web/api/retainers/${r.id}/fund`, { amount: 10 })).statusCode).toBe(201);
    for (const caller of [s.mgrPlain, s.member]) {
      expectError(await api(caller, 'GET', '/web/api/retainers'), 403, 'forbidden');
      expectError(await api(caller, 'GET', `/web/api/retainers/${r.id}`), 403, 'forbidden');
      expectError(await api(caller, 'POST', '/web/api/retainers', { client_id: client, name: 'X' }), 403, 'forbidden');
      expectError(await api(caller, 'POST', `/web/api/retainers/${r.id}/fund`, { amount: 10 }), 403, 'forbidden');
    }
    expectError(await request(ctx.app, w.owner, { method: 'GET', url: '/web/api/retainers' }), 403, 'session_required');
  });
});

describe('backup, PDF and rules', () => {
  it('exports real retainers with balance and entries as decimal strings, and nothing secret', async () => {
    const { retainer, fundingInvoice } = await fundedRetainer(1234.5, { name: 'Backup retainer', description: 'For the export' });
    const inv = await draft(300);
    const { line_id } = (await draw(retainer.id, inv.id, 200.25)).json();
    const res = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/retainers?per_page=500' });
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json().records.find((r: any) => r.id === retainer.id);
    expect(Object.keys(record).sort()).toEqual(['archived_at', 'balance', 'client_id', 'created_at', 'created_by', 'currency', 'description', 'entries', 'id', 'name', 'updated_at']);
    expect(record).toMatchObject({ client_id: client, name: 'Backup retainer', description: 'For the export', currency: 'EUR', balance: '1034.25', archived_at: null });
    expect(record.entries).toEqual([
      expect.objectContaining({ retainer_id: retainer.id, invoice_id: fundingInvoice, effect: 'charge', amount: '1234.50' }),
      expect.objectContaining({ id: line_id, retainer_id: retainer.id, invoice_id: inv.id, effect: 'credit', amount: '200.25' }),
    ]);
    const invoices = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/invoices?per_page=500' });
    const line = invoices.json().records.find((r: any) => r.id === inv.id).line_items.find((l: any) => l.id === line_id);
    expect(line).toMatchObject({ retainer_id: retainer.id, effect: 'credit', unit_price: '200.2500', taxed: false });
    const manifest = (await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup' })).json();
    const entry = manifest.resources.find((r: any) => r.name === 'retainers');
    expect(entry.total_entries).toBe(Number((await ctx.db.selectFrom('retainers').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', w.companyId).executeTakeFirstOrThrow()).n));
    expect(manifest.notes.some((n: string) => n.startsWith('retainers:'))).toBe(false);
    expect(JSON.stringify(record)).not.toMatch(/company_id|token|secret|password/);
  });

  it('prints the credit line on the invoice PDF (text extraction)', async () => {
    const { retainer } = await fundedRetainer(1000);
    const inv = await draft(300);
    await draw(retainer.id, inv.id, 250.5);
    const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
    expect(res.statusCode).toBe(200);
    const { text } = await extractText(new Uint8Array(res.rawPayload), { mergePages: true });
    const flat = text.replace(/[\s\u00a0\u202f]+/g, ' ');
    for (const part of ['Retainer', 'Support 2026', '-€250.50', '€102.60', '€392.10']) expect(flat).toContain(part);
    // The totals: the work's subtotal, its discount and tax, then the credit, then the total
    // (the API's subtotal, 349.50, includes the credit as the spec sums every line).
    expect(flat).toMatch(/Subtotal €600\.00 Discount \(10%\) -€60\.00 Tax \(19%\) €102\.60 Retainer credit -€250\.50 Total \(EUR\) €392\.10/);
  });

  it('never prints a negative subtotal when the credit covers the taxes too, in the client language', async () => {
    const { retainer } = await fundedRetainer(1000);
    const inv = await draft(50); // 100 − 10 + 17.10 = 107.10
    expect((await draw(retainer.id, inv.id, 107.1)).statusCode).toBe(201);
    expect(await getInvoice(inv.id)).toMatchObject({ subtotal: -7.1, amount: 0 });
    const text = async () => {
      const res = await api(w.owner, 'GET', `/api/v2/invoices/${inv.id}/pdf`);
      expect(res.statusCode).toBe(200);
      return (await extractText(new Uint8Array(res.rawPayload), { mergePages: true })).text.replace(/[\s\u00a0\u202f]+/g, ' ');
    };
    expect(await text()).toMatch(/Subtotal €100\.00 Discount \(10%\) -€10\.00 Tax \(19%\) €17\.10 Retainer credit -€107\.10 Total \(EUR\) €0\.00/);
    await ctx.db.updateTable('clients').set({ language: 'de' }).where('id', '=', inv.client.id).execute();
    const german = await text();
    // The Type column fits its longest word: "Vorauszahlung" is not broken mid-word.
    expect(german).toContain('Vorauszahlung Support 2026');
    expect(german).toMatch(/Zwischensumme 100,00 € Rabatt \(10 %\) -10,00 € Steuer \(19 %\) 17,10 € Verrechnete Vorauszahlung -107,10 € Gesamt \(EUR\) 0,00 €/);
    // The client's page (from the link in the e-mail) reads as the PDF does.
    const sent = await api(w.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'bill@globex.test' }] });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await ctx.db
      .selectFrom('invoice_messages as m')
      .innerJoin('outbox as o', (j) => j.onRef('o.company_id', '=', 'm.company_id').onRef('o.id', '=', 'm.outbox_id'))
      .select('o.payload')
      .where('m.id', '=', sent.json().id)
      .executeTakeFirstOrThrow();
    const token = /\/c#([A-Za-z0-9_-]{43})\n$/.exec((mail.payload as { text: string }).text)![1];
    const shown = await api(null, 'POST', '/web/api/client-page', { token });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().invoice).toMatchObject({ subtotal: 100, discount_amount: 10, tax_amount: 17.1, retainer_credit: 107.1, amount: 0, due_amount: 0 });
  });

  it('rules: amounts, draw limits and what counts, in decimals', () => {
    expect(amountValue(0.1 + 0.2 - 0.3 + 10.1, 'EUR')).toBe('10.1');
    expect(amountValue(1200, 'JPY')).toBe('1200');
    expect(() => amountValue(12.5, 'JPY')).toThrow(/at most 0 decimal places/);
    expect(() => assertDrawFits('100.01', '100', '500', 'EUR')).toThrow(/100.00 EUR the retainer holds/);
    expect(() => assertDrawFits('50', '100', '49.99', 'EUR')).toThrow(/49.99 EUR the invoice asks for/);
    expect(() => assertDrawFits('100', '100', '100', 'EUR')).not.toThrow();
    expect([entryCounts('funding', 'paid'), entryCounts('funding', 'open'), entryCounts('funding', 'closed')]).toEqual([true, false, false]);
    expect([entryCounts('credit', 'draft'), entryCounts('credit', 'paid'), entryCounts('credit', 'voided')]).toEqual([true, true, false]);
    // A retainer line is outside the discount: 600 − 10 % of 600 + 19 % of 540 − 250.50 = 392.10.
    const totals = computeTotals(
      [
        { quantity: 2, unit_price: 300, effect: 'charge', taxed: true, taxed2: false },
        { quantity: 1, unit_price: '250.5', effect: 'credit', taxed: false, taxed2: false, retainer: true },
      ],
      { tax: 19, discount: 10 },
      'EUR',
    );
    expect([totals.subtotal.toFixed(2), totals.discountAmount.toFixed(2), totals.taxAmount.toFixed(2), totals.amount.toFixed(2)]).toEqual(['349.50', '60.00', '102.60', '392.10']);
    // Documents print the credit after the taxes: 600 − 60 + 102.60 − 250.50 = 392.10.
    expect([printedSubtotal(totals).toFixed(2), totals.retainerCredit.toFixed(2)]).toEqual(['600.00', '250.50']);
    // A credit line not linked to a retainer stays in the printed subtotal.
    const plain = computeTotals([{ quantity: 1, unit_price: 100, effect: 'charge', taxed: false, taxed2: false }, { quantity: 1, unit_price: 30, effect: 'credit', taxed: false, taxed2: false }], {}, 'EUR');
    expect([printedSubtotal(plain).toFixed(2), plain.retainerCredit.toFixed(2)]).toEqual(['70.00', '0.00']);
  });
});
