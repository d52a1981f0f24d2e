import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractText } from 'unpdf';
import { recordClientAnswer } from '../src/modules/billing/estimates/index.ts';
import { estimateRenderers } from '../src/modules/billing/estimates/index.ts';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignUser, countInvoices, insertClient, insertItemCategories, insertProject, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * Estimates (issue 25 item 7), through the web app's session routes: creation
 * with the invoices' arithmetic, their own number sequence, the states draft →
 * sent → accepted / declined and the refusals (nothing written), sending through
 * the outbox once, converting an accepted estimate to a draft invoice once,
 * tenancy, roles, bad input, the backup resource and the PDF's text.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
let clientId: string;
let germanClientId: string;
let projectId: string;
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller> = {} as never;
let otherOwner: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  other = await makeInvoiceWorkspace(ctx.db);
  await insertItemCategories(ctx.db, w.companyId, ['Travel']); // a kind of the workspace's own: estimate lines take the invoices' rule
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex', address: '2 Side Road\nSpringfield', tax: '19', tax2: '7' });
  germanClientId = await insertClient(ctx.db, w.companyId, { name: 'Müller GmbH', currency: 'EUR' });
  await ctx.db.updateTable('clients').set({ language: 'de' }).where('id', '=', germanClientId).execute();
  projectId = await insertProject(ctx.db, w.companyId, clientId, { name: 'Website' });
  // Managers see the clients of the projects they manage.
  for (const m of [w.mgrPlain, w.mgrInvoices]) await assignUser(ctx.db, w.companyId, projectId, m.userId, { manager: true });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
});
afterAll(() => ctx.close());

type Res = Awaited<ReturnType<typeof request>>;
const api = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });

function expectError(res: Res, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, ...(field ? { field } : {}) });
}

const line = { kind: 'Service', description: 'Design', quantity: 2, unit_price: 50 };

async function create(body: Record<string, unknown> = {}, caller = s.owner) {
  const res = await api(caller, 'POST', '/web/api/estimates', { client_id: clientId, line_items: [line], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const count = async (table: 'estimates' | 'estimate_line_items' | 'outbox', companyId = w.companyId) =>
  Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', companyId).executeTakeFirstOrThrow()).n);

const stateOf = async (id: string) => (await ctx.db.selectFrom('estimates').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

const send = (id: string, caller = s.owner, headers: Record<string, string> = {}) =>
  api(caller, 'POST', `/web/api/estimates/${id}/send`, { recipients: [{ email: 'buyer@globex.test', name: 'Buyer' }] }, headers);

/** An estimate moved to `state` through the routes. */
async function estimateIn(state: 'draft' | 'sent' | 'accepted' | 'declined', body: Record<string, unknown> = {}) {
  const e = await create(body);
  if (state === 'draft') return e;
  expect((await send(e.id)).statusCode).toBe(200);
  if (state === 'sent') return e;
  const res = await api(s.owner, 'POST', `/web/api/estimates/${e.id}/${state === 'accepted' ? 'accept' : 'decline'}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('creating estimates', () => {
  it('makes a draft with its lines, the client’s taxes and currency, and the next number', async () => {
    const e = await create({ subject: 'New website', notes: 'Valid for 30 days.' });
    expect(e).toMatchObject({
      client: { id: clientId, name: 'Globex' },
      state: 'draft',
      subject: 'New website',
      notes: 'Valid for 30 days.',
      currency: 'EUR',
      tax: 19,
      tax2: 7,
      discount: 0,
      subtotal: 100,
      tax_amount: 19,
      tax2_amount: 7,
      amount: 126,
      sent_at: null,
      invoice: null,
    });
    expect(e.number).toMatch(/^\d+$/);
    expect(e.line_items).toEqual([expect.objectContaining({ kind: 'Service', description: 'Design', quantity: 2, unit_price: 50, amount: 100, taxed: true, taxed2: true, sort_order: 0 })]);
    const got = await api(s.owner, 'GET', `/web/api/estimates/${e.id}`);
    expect(got.json()).toEqual(e);
    const listed = (await api(s.owner, 'GET', '/web/api/estimates')).json().estimates;
    expect(listed.map((x: any) => x.id)).toContain(e.id);
  });

  it('computes the totals with the invoices’ arithmetic: hand-computed, rounded half up to cents, in decimals', async () => {
    // Lines: 3 × 85.555 = 256.665 → 256.67 (tax only); 2.5 × 19.99 = 49.975 → 49.98 (both taxes);
    // 1 × 33.333 → 33.33 (tax2 only). Subtotal 339.98; discount 10 % = 33.998 → 34.00.
    // Tax 19 % of (256.67 + 49.98) × 0.9 = 275.985 × 0.19 = 52.43715 → 52.44.
    // Tax2 7 % of (49.98 + 33.33) × 0.9 = 74.979 × 0.07 = 5.24853 → 5.25. Total 339.98 − 34 + 52.44 + 5.25 = 363.67.
    const e = await create({
      tax: 19,
      tax2: 7,
      discount: 10,
      line_items: [
        { description: 'Design', quantity: 3, unit_price: 85.555, taxed: true, taxed2: false },
        { description: 'Hosting', quantity: 2.5, unit_price: 19.99 },
        { kind: 'Travel', description: 'Trip', quantity: 1, unit_price: 33.333, taxed: false, taxed2: true },
      ],
    });
    expect(e.line_items.map((l: any) => l.amount)).toEqual([256.67, 49.98, 33.33]);
    expect(e).toMatchObject({ subtotal: 339.98, discount_amount: 34, tax_amount: 52.44, tax2_amount: 5.25, amount: 363.67 });
    // Stored exactly (numeric), not as floats.
    const rows = await ctx.db.selectFrom('estimate_line_items').select(['unit_price']).where('estimate_id', '=', e.id).orderBy('sort_order').execute();
    expect(rows.map((r) => r.unit_price)).toEqual(['85.5550', '19.9900', '33.3330']);
  });

  it('numbers estimates in their own sequence: next all-digit number, explicit numbers kept, duplicates 409, invoices apart', async () => {
    const a = await create();
    const b = await create();
    expect(Number(b.number)).toBe(Number(a.number) + 1);
    const named = await create({ number: 'EST-7' });
    expect(named.number).toBe('EST-7');
    // A text number does not count; the sequence goes on.
    expect(Number((await create()).number)).toBe(Number(b.number) + 1);
    const before = await count('estimates');
    expectError(await api(s.owner, 'POST', '/web/api/estimates', { client_id: clientId, number: 'EST-7', line_items: [line] }), 409, 'conflict', 'number');
    expect(await count('estimates')).toBe(before);
    // A PATCH to a taken number: 409, nothing changed.
    expectError(await api(s.owner, 'PATCH', `/web/api/estimates/${a.id}`, { number: 'EST-7', subject: 'x' }), 409, 'conflict', 'number');
    expect((await api(s.owner, 'GET', `/web/api/estimates/${a.id}`)).json()).toMatchObject({ number: a.number, subject: null });
    // Invoices keep their own numbers: the first invoice of this workspace is 1 whatever the estimates are at.
    const inv = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/invoices', payload: { client_id: clientId, line_items: [line] } });
    expect(inv.json().number).toBe('1');
    await request(ctx.app, w.owner, { method: 'DELETE', url: `/api/v2/invoices/${inv.json().id}` });
  });

  it('gives parallel creates distinct numbers', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => api(s.owner, 'POST', '/web/api/estimates', { client_id: clientId, line_items: [line] })));
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const numbers = results.map((r) => r.json().number);
    expect(new Set(numbers).size).toBe(6);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const before = { estimates: await count('estimates'), lines: await count('estimate_line_items') };
    const post = (body: Record<string, unknown>) => api(s.owner, 'POST', '/web/api/estimates', { client_id: clientId, line_items: [line], ...body });
    expectError(await post({ surprise: 1 }), 400, 'unknown_field');
    expectError(await post({ tax: 'ten' }), 400, 'invalid_request');
    expectError(await post({ tax: 101 }), 400, 'invalid_request', 'tax');
    expectError(await post({ discount: 1.23456 }), 400, 'invalid_request', 'discount');
    expectError(await post({ currency: 'EURO' }), 400, 'invalid_request', 'currency');
    expectError(await post({ issue_date: '0000-01-01' }), 400, 'invalid_request');
    expectError(await post({ subject: 'a\u0000b' }), 400, 'invalid_request', 'subject');
    expectError(await post({ line_items: [] }), 400, 'invalid_request');
    expectError(await post({ line_items: [{ quantity: -1 }] }), 400, 'invalid_request', 'line_items.0.quantity');
    expectError(await post({ line_items: [line, { unit_price: 1.23456 }] }), 400, 'invalid_request', 'line_items.1.unit_price');
    expectError(await post({ line_items: [{ ...line, effect: 'credit' }] }), 400, 'unknown_field');
    expectError(await post({ line_items: [{ quantity: 9999999999, unit_price: 9999999999 }] }), 400, 'invalid_request', 'line_items');
    const foreignClient = await insertClient(ctx.db, other.companyId, { name: 'Elsewhere' });
    expectError(await post({ client_id: foreignClient }), 404, 'not_found', 'client_id');
    expectError(await post({ client_id: 'not-an-id' }), 404, 'not_found', 'client_id');
    const archived = await insertClient(ctx.db, w.companyId, { isActive: false });
    expectError(await post({ client_id: archived }), 400, 'invalid_request', 'client_id');
    const foreignProject = await insertProject(ctx.db, other.companyId, foreignClient);
    expectError(await post({ line_items: [{ ...line, project_id: foreignProject }] }), 404, 'not_found', 'line_items.0.project_id');
    expect({ estimates: await count('estimates'), lines: await count('estimate_line_items') }).toEqual(before);
    // A project of the client is kept on the line.
    expect((await post({ line_items: [{ ...line, project_id: projectId }] })).json().line_items[0].project_id).toBe(projectId);
  });

  it('refuses a negative quantity or unit price speaking of what an estimate takes, never of credit lines it has none of', async () => {
    const refusals = [
      await api(s.owner, 'POST', '/web/api/estimates', { client_id: clientId, line_items: [{ ...line, quantity: -1 }] }),
      await api(s.owner, 'POST', '/web/api/estimates', { client_id: clientId, line_items: [line, { ...line, unit_price: -5 }] }),
    ];
    const draft = (await api(s.owner, 'POST', '/web/api/estimates', { client_id: clientId, line_items: [line] })).json();
    refusals.push(await api(s.owner, 'PATCH', `/web/api/estimates/${draft.id}`, { line_items: [{ ...line, unit_price: -1 }] }));
    for (const [n, res] of refusals.entries()) {
      const field = ['line_items.0.quantity', 'line_items.1.unit_price', 'line_items.0.unit_price'][n];
      expectError(res, 400, 'invalid_request', field);
      expect(res.json().message).toBe(
        `${field} must not be negative. An estimate's lines are charges with a quantity and a unit price of zero or more; to lower its total, use its discount.`,
      );
      expect(res.json().message).not.toMatch(/credit/i);
    }
    // An invoice, which has credit lines, still points to them.
    const invoice = await api(s.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [{ quantity: -1, unit_price: 10 }] });
    expectError(invoice, 400, 'invalid_request', 'line_items.0.quantity');
    expect(invoice.json().message).toBe("line_items.0.quantity must not be negative. Credits are lines with effect 'credit' and positive numbers.");
  });
});

describe('changing estimates', () => {
  it('changes a draft or sent estimate; line_items replaces the lines; accepted and declined ones are final (409, unchanged)', async () => {
    const e = await create();
    const res = await api(s.owner, 'PATCH', `/web/api/estimates/${e.id}`, {
      subject: 'Revised',
      discount: 5,
      line_items: [{ description: 'A', quantity: 1, unit_price: 10 }, { description: 'B', quantity: 2, unit_price: 20 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ subject: 'Revised', discount: 5, subtotal: 50, discount_amount: 2.5 });
    expect(res.json().line_items.map((l: any) => l.description)).toEqual(['A', 'B']);
    expect(await ctx.db.selectFrom('estimate_line_items').select('id').where('estimate_id', '=', e.id).execute()).toHaveLength(2);

    const sent = await estimateIn('sent');
    expect((await api(s.owner, 'PATCH', `/web/api/estimates/${sent.id}`, { subject: 'Still open' })).statusCode).toBe(200);

    for (const state of ['accepted', 'declined'] as const) {
      const done = await estimateIn(state);
      const refused = await api(s.owner, 'PATCH', `/web/api/estimates/${done.id}`, { subject: 'Too late', line_items: [line, line] });
      expectError(refused, 409, 'conflict', 'state');
      expect(refused.json().state).toBe(state);
      const after = (await api(s.owner, 'GET', `/web/api/estimates/${done.id}`)).json();
      expect(after.subject).toBeNull();
      expect(after.line_items).toHaveLength(1);
    }
  });

  it('deletes for owners and administrators only', async () => {
    const e = await create({}, s.mgrInvoices);
    expectError(await api(s.mgrInvoices, 'DELETE', `/web/api/estimates/${e.id}`), 403, 'forbidden');
    expect((await api(s.admin, 'DELETE', `/web/api/estimates/${e.id}`)).statusCode).toBe(204);
    expect(await ctx.db.selectFrom('estimate_line_items').select('id').where('estimate_id', '=', e.id).execute()).toEqual([]);
    expectError(await api(s.admin, 'GET', `/web/api/estimates/${e.id}`), 404, 'not_found');
  });
});

describe('sending, accepting and declining', () => {
  it('sends through the outbox once, with the PDF attached; a draft becomes sent', async () => {
    const e = await create({ subject: 'Roof repair' });
    const before = await count('outbox');
    const res = await send(e.id, s.owner, { 'idempotency-key': `send-${e.id}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'sent' });
    expect(res.json().sent_at).not.toBeNull();
    // The same click again (same key): the stored answer, no second e-mail.
    const again = await send(e.id, s.owner, { 'idempotency-key': `send-${e.id}` });
    expect(again.statusCode).toBe(200);
    expect(await count('outbox')).toBe(before + 1);
    const mail = await ctx.db.selectFrom('outbox').select(['kind', 'payload']).where('company_id', '=', w.companyId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(mail.kind).toBe('estimate_message');
    const payload = mail.payload as any;
    expect(payload.to).toEqual([{ email: 'buyer@globex.test', name: 'Buyer' }]);
    expect(payload.subject).toBe(`Estimate ${e.number} from Acme Studio`);
    // The one recipient, by the name the sender gave (invoices' greeted).
    expect(payload.text).toMatch(/^Hello Buyer,\n/);
    expect(payload.text).toContain('€126.00');
    expect(payload.text).toContain('For: Roof repair');
    expect(payload.attachments).toEqual([{ filename: `estimate-${e.number}.pdf`, content_type: 'application/pdf', render: 'estimate_pdf', params: { estimate_id: e.id } }]);
    // The outbox renderer makes the attached PDF.
    const pdf = await estimateRenderers.estimate_pdf(ctx.db, w.companyId, { estimate_id: e.id });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('writes the default mail in the client’s language', async () => {
    const e = await create({ client_id: germanClientId });
    expect((await send(e.id)).statusCode).toBe(200);
    const mail = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', w.companyId).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect((mail.payload as any).subject).toBe(`Angebot ${e.number} von Acme Studio`);
    expect((mail.payload as any).text).toMatch(/^Guten Tag Buyer,\n/);
  });

  it('refuses a bad message (400 naming the field) and an answered estimate (409): no e-mail, no state change', async () => {
    const e = await create();
    const before = await count('outbox');
    expectError(await api(s.owner, 'POST', `/web/api/estimates/${e.id}/send`, { recipients: [] }), 400, 'invalid_request', 'recipients');
    expectError(await api(s.owner, 'POST', `/web/api/estimates/${e.id}/send`, { recipients: [{ email: 'nope' }] }), 400, 'invalid_request', 'recipients.0.email');
    expectError(await api(s.owner, 'POST', `/web/api/estimates/${e.id}/send`, { recipients: [{ email: 'a@b.test' }], subject: 'a\nb' }), 400, 'invalid_request', 'subject');
    expect(await stateOf(e.id)).toBe('draft');
    const accepted = await estimateIn('accepted');
    const afterAccept = await count('outbox');
    expectError(await send(accepted.id), 409, 'conflict', 'state');
    expect(await count('outbox')).toBe(afterAccept);
    expect(afterAccept).toBe(before + 1);
  });

  it('accepts and declines sent estimates only; the same answer again is unchanged; the other one 409', async () => {
    const draft = await create();
    const r = await api(s.owner, 'POST', `/web/api/estimates/${draft.id}/accept`);
    expectError(r, 409, 'conflict', 'state');
    expect(r.json()).toMatchObject({ state: 'draft', refusal: 'estimate_state' });
    expect(r.json().message).toMatch(/Only sent estimates can be accepted; this one is draft/);
    expect(await stateOf(draft.id)).toBe('draft');

    const sent = await estimateIn('sent');
    const accepted = await api(s.mgrInvoices, 'POST', `/web/api/estimates/${sent.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'accepted', answered_by_client: false });
    expect(accepted.json().accepted_at).not.toBeNull();
    const again = await api(s.owner, 'POST', `/web/api/estimates/${sent.id}/accept`);
    expect(again.json()).toEqual(accepted.json());
    expectError(await api(s.owner, 'POST', `/web/api/estimates/${sent.id}/decline`), 409, 'conflict', 'state');
    expectError(await api(s.owner, 'POST', `/web/api/estimates/${sent.id}/reopen`), 409, 'conflict', 'state');
    expect(await stateOf(sent.id)).toBe('accepted');
  });

  it('gives one result to two answers at once', async () => {
    const e = await estimateIn('sent');
    const [a, d] = await Promise.all([
      api(s.owner, 'POST', `/web/api/estimates/${e.id}/accept`),
      api(s.admin, 'POST', `/web/api/estimates/${e.id}/decline`),
    ]);
    expect([a.statusCode, d.statusCode].sort()).toEqual([200, 409]);
    const final = await stateOf(e.id);
    expect(final).toBe(a.statusCode === 200 ? 'accepted' : 'declined');
    const events = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', e.id).where('action', 'in', ['estimate.accepted', 'estimate.declined']).execute();
    expect(events).toHaveLength(1);
  });

  it('reopens a declined estimate as a draft, which can be sent again', async () => {
    const e = await estimateIn('declined');
    expect(e).toMatchObject({ state: 'declined', answered_by_client: false });
    const res = await api(s.owner, 'POST', `/web/api/estimates/${e.id}/reopen`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'draft', declined_at: null, answered_by_client: null });
    expect((await send(e.id)).json().state).toBe('sent');
  });

  it('records the client’s own answer with the by-client flag (for the client page)', async () => {
    const e = await estimateIn('sent');
    const answered = await recordClientAnswer(ctx.db, w.companyId, e.id, 'accept', { now: ctx.clock.now() });
    expect(answered).toMatchObject({ state: 'accepted', answered_by_client: true });
    const event = await ctx.db.selectFrom('audit_logs').select(['actor_user_id', 'details']).where('subject_id', '=', e.id).where('action', '=', 'estimate.accepted').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ actor_user_id: null, details: { by_client: true } });
    await expect(recordClientAnswer(ctx.db, other.companyId, e.id, 'decline', { now: ctx.clock.now() })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('converting to an invoice', () => {
  it('makes a draft invoice of an accepted estimate once: lines, rates and totals copied, the invoice recorded', async () => {
    const e = await estimateIn('accepted', {
      subject: 'Website',
      notes: 'Thanks',
      discount: 10,
      line_items: [
        { description: 'Design', quantity: 3, unit_price: 85.555, taxed: true, taxed2: false, project_id: projectId },
        { kind: 'Product', description: 'Hosting', quantity: 2.5, unit_price: 19.99 },
      ],
    });
    const invoicesBefore = await countInvoices(ctx.db, w.companyId);
    const res = await api(s.owner, 'POST', `/web/api/estimates/${e.id}/convert`);
    expect(res.statusCode, res.body).toBe(201);
    const { estimate, invoice } = res.json();
    expect(estimate.invoice).toEqual({ id: invoice.id, number: invoice.number });
    const inv = (await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${invoice.id}` })).json();
    expect(inv).toMatchObject({ state: 'draft', client: { id: clientId }, subject: 'Website', notes: 'Thanks', currency: 'EUR', tax: 19, tax2: 7, discount: 10 });
    expect(inv.line_items.map((l: any) => [l.kind, l.description, l.quantity, l.unit_price, l.amount, l.taxed, l.taxed2, l.project_id])).toEqual(
      e.line_items.map((l: any) => [l.kind, l.description, l.quantity, l.unit_price, l.amount, l.taxed, l.taxed2, l.project_id]),
    );
    expect([inv.subtotal, inv.discount_amount, inv.tax_amount, inv.tax2_amount, inv.amount]).toEqual([
      estimate.subtotal,
      estimate.discount_amount,
      estimate.tax_amount,
      estimate.tax2_amount,
      estimate.amount,
    ]);
    expect(await countInvoices(ctx.db, w.companyId)).toBe(invoicesBefore + 1);

    const twice = await api(s.owner, 'POST', `/web/api/estimates/${e.id}/convert`);
    expectError(twice, 409, 'conflict', 'state');
    expect(twice.json().invoice_id).toBe(invoice.id);
    expect(await countInvoices(ctx.db, w.companyId)).toBe(invoicesBefore + 1);
  });

  it('refuses draft, sent and declined estimates with a 409 naming the state, writing nothing', async () => {
    for (const state of ['draft', 'sent', 'declined'] as const) {
      const e = await estimateIn(state);
      const before = await countInvoices(ctx.db, w.companyId);
      const res = await api(s.owner, 'POST', `/web/api/estimates/${e.id}/convert`);
      expectError(res, 409, 'conflict', 'state');
      expect(res.json()).toMatchObject({ state });
      expect(res.json().message).toMatch(new RegExp(`this one is ${state}`));
      expect(await countInvoices(ctx.db, w.companyId)).toBe(before);
      expect((await api(s.owner, 'GET', `/web/api/estimates/${e.id}`)).json()).toMatchObject({ state, invoice: null });
    }
  });

  it('converts once when two converts run at once', async () => {
    const e = await estimateIn('accepted');
    const before = await countInvoices(ctx.db, w.companyId);
    const results = await Promise.all([1, 2].map(() => api(s.owner, 'POST', `/web/api/estimates/${e.id}/convert`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before + 1);
  });

  it('leaves nothing when the invoice cannot be made (an archived client): no invoice, no link', async () => {
    const client = await insertClient(ctx.db, w.companyId, { name: 'Soon archived' });
    const e = await estimateIn('accepted', { client_id: client });
    await ctx.db.updateTable('clients').set({ is_active: false }).where('id', '=', client).execute();
    const before = await countInvoices(ctx.db, w.companyId);
    expectError(await api(s.owner, 'POST', `/web/api/estimates/${e.id}/convert`), 400, 'invalid_request', 'client_id');
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before);
    expect((await ctx.db.selectFrom('estimates').select('converted_invoice_id').where('id', '=', e.id).executeTakeFirstOrThrow()).converted_invoice_id).toBeNull();
  });
});

describe('a category archived after its estimate was written', () => {
  it('stays valid on the estimate’s own lines, in an edit and a conversion; a line of another archived kind is refused', async () => {
    const made = async (name: string) => (await api(s.owner, 'POST', '/web/api/item-categories', { name })).json().id as string;
    const [rights, travel] = [await made(`Rights ${Date.now()}`), await made(`Travel ${Date.now()}`)];
    const categories = (await api(s.owner, 'GET', '/web/api/item-categories')).json();
    const nameOf = (id: string) => categories.item_categories.find((c: { id: string }) => c.id === id).name as string;
    const rightsLine = { ...line, kind: nameOf(rights) };
    const draft = await create({ line_items: [rightsLine] });
    const accepted = await estimateIn('accepted', { line_items: [rightsLine] });
    for (const id of [rights, travel]) expect((await api(s.owner, 'PATCH', `/web/api/item-categories/${id}`, { is_active: false })).statusCode).toBe(200);
    const edited = await api(s.owner, 'PATCH', `/web/api/estimates/${draft.id}`, { subject: 'Rights, again', line_items: [rightsLine] });
    expect(edited.statusCode, edited.body).toBe(200);
    const other = await api(s.owner, 'PATCH', `/web/api/estimates/${draft.id}`, { line_items: [rightsLine, { ...line, kind: nameOf(travel) }] });
    expect(other.statusCode).toBe(400);
    expect(other.json().field).toBe('line_items.1.kind');
    const converted = await api(s.owner, 'POST', `/web/api/estimates/${accepted.id}/convert`);
    expect(converted.statusCode, converted.body).toBe(201);
    const invoice = (await api(s.owner, 'GET', `/api/v2/invoices/${converted.json().invoice.id}`)).json();
    expect(invoice.line_items.map((l: { kind: string }) => l.kind)).toEqual([nameOf(rights)]);
  });
});

describe('tenancy and roles', () => {
  it('answers 404 for another workspace’s estimate on every route, changing nothing', async () => {
    const e = await estimateIn('accepted');
    for (const [method, url, body] of [
      ['GET', `/web/api/estimates/${e.id}`],
      ['GET', `/web/api/estimates/${e.id}/pdf`],
      ['PATCH', `/web/api/estimates/${e.id}`, { subject: 'mine' }],
      ['POST', `/web/api/estimates/${e.id}/send`, { recipients: [{ email: 'x@y.test' }] }],
      ['POST', `/web/api/estimates/${e.id}/decline`],
      ['POST', `/web/api/estimates/${e.id}/convert`],
      ['DELETE', `/web/api/estimates/${e.id}`],
    ] as const) {
      expectError(await api(otherOwner, method, url, body), 404, 'not_found');
    }
    expect((await api(otherOwner, 'GET', '/web/api/estimates')).json().estimates).toEqual([]);
    expect(await stateOf(e.id)).toBe('accepted');
    expect(await countInvoices(ctx.db, other.companyId)).toBe(0);
  });

  it('is for owners, administrators and managers; a manager without View invoices sees only their own', async () => {
    expectError(await api(s.member, 'GET', '/web/api/estimates'), 403, 'forbidden');
    expectError(await api(s.member, 'POST', '/web/api/estimates', { client_id: clientId, line_items: [line] }), 403, 'forbidden');
    const ownersEstimate = await create();
    const mine = await create({}, s.mgrPlain);
    expectError(await api(s.mgrPlain, 'GET', `/web/api/estimates/${ownersEstimate.id}`), 404, 'not_found');
    expectError(await api(s.mgrPlain, 'POST', `/web/api/estimates/${ownersEstimate.id}/send`, { recipients: [{ email: 'x@y.test' }] }), 404, 'not_found');
    const listed = (await api(s.mgrPlain, 'GET', '/web/api/estimates')).json().estimates.map((x: any) => x.id);
    expect(listed).toEqual([mine.id]);
    expect((await api(s.mgrInvoices, 'GET', `/web/api/estimates/${ownersEstimate.id}`)).statusCode).toBe(200);
    // API keys never reach the session routes.
    expectError(await request(ctx.app, w.owner, { method: 'GET', url: '/web/api/estimates' }), 403, 'session_required');
  });
});

describe('backup and PDF', () => {
  it('exports estimates with their lines, decimals as strings', async () => {
    const e = await create({ discount: 2.5, line_items: [{ description: 'Exact', quantity: 1.25, unit_price: 80.1 }] });
    const res = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/estimates?per_page=500' });
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json().records.find((r: any) => r.id === e.id);
    expect(record).toMatchObject({ number: e.number, state: 'draft', client_id: clientId, currency: 'EUR', discount: '2.5000', converted_invoice_id: null });
    expect(record.line_items).toEqual([expect.objectContaining({ description: 'Exact', quantity: '1.2500', unit_price: '80.1000', taxed: true })]);
    expect(record.company_id).toBeUndefined();
  });

  it('prints the estimate: title, number, lines and totals, in the client’s language', async () => {
    const e = await create({ subject: 'Kitchen', discount: 10, tax: 19, tax2: 0, line_items: [{ description: 'Cabinets', quantity: 3, unit_price: 85.555 }] });
    const res = await api(s.owner, 'GET', `/web/api/estimates/${e.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`inline; filename="estimate-${e.number}.pdf"`);
    expect((await api(s.owner, 'GET', `/web/api/estimates/${e.id}/pdf?download=true`)).headers['content-disposition']).toMatch(/^attachment/);
    const { text } = await extractText(new Uint8Array(res.rawPayload), { mergePages: true });
    const flat = text.replace(/[\s\u00a0\u202f]+/g, ' ');
    // 256.67 subtotal; discount 25.667 → 25.67; tax 19 % of 231.003 = 43.89057 → 43.89; total 274.89.
    for (const part of ['ESTIMATE', `Estimate number ${e.number}`, 'PREPARED FOR', 'Globex', 'Kitchen', 'Cabinets', '€256.67', '-€25.67', '€43.89', 'Total (EUR) €274.89']) {
      expect(flat).toContain(part);
    }
    const de = await create({ client_id: germanClientId, line_items: [{ description: 'Schränke', quantity: 1, unit_price: 1234.5 }] });
    const deText = (await extractText(new Uint8Array((await api(s.owner, 'GET', `/web/api/estimates/${de.id}/pdf`)).rawPayload), { mergePages: true })).text.replace(
      /[\s\u00a0\u202f]+/g,
      ' ',
    );
    for (const part of ['ANGEBOT', `Angebotsnummer ${de.number}`, 'ERSTELLT FÜR', 'Müller GmbH', 'Schränke', '1.234,50 €', 'Gesamt (EUR)']) expect(deText).toContain(part);
  });

  it('marks the taxes each line bears, as the invoice does, when one tax is on some lines only', async () => {
    const e = await create({
      tax: 19,
      tax2: 7,
      line_items: [
        { description: 'Design', quantity: 1, unit_price: 100, taxed: true, taxed2: false },
        { description: 'Printed guide', quantity: 2, unit_price: 10, taxed: false, taxed2: true },
      ],
    });
    const res = await api(s.owner, 'GET', `/web/api/estimates/${e.id}/pdf`);
    const flat = (await extractText(new Uint8Array(res.rawPayload), { mergePages: true })).text.replace(/[\s\u00a0\u202f]+/g, ' ');
    // The Tax column: Design bears tax 1, the guide tax 2, and the legend names each base.
    expect(flat).toMatch(/Design 1 €100\.00 €100\.00 1 /);
    expect(flat).toMatch(/Printed guide 2 €10\.00 €20\.00 2 /);
    expect(flat).toContain('The Tax column shows the taxes each line bears: 1 = Tax (19%) on €100.00 2 = Tax 2 (7%) on €20.00');
  });
});

describe('the seller the invoice settings name', () => {
  it('prints and signs the estimate as the invoice does: legal name, VAT ID, register number, the client’s VAT ID, the footer', async () => {
    const seller = await makeInvoiceWorkspace(ctx.db); // workspace name "Acme Studio"
    await ctx.db
      .insertInto('invoice_settings')
      .values({ company_id: seller.companyId, legal_name: 'Agentur Blau GmbH', vat_id: 'DE987654321', registration_number: 'HRB 12345 B', footer: 'Geschäftsführerin: Anna Blau · Amtsgericht Charlottenburg' })
      .execute();
    const client = await insertClient(ctx.db, seller.companyId, { name: 'Müller GmbH', address: 'Hauptstraße 12\n10115 Berlin' });
    await ctx.db.updateTable('clients').set({ language: 'de', vat_id: 'DE123456789' }).where('id', '=', client).execute();
    const owner = await sessionFor(ctx.db, seller.owner, ctx.clock.now());
    const res = await api(owner, 'POST', '/web/api/estimates', { client_id: client, line_items: [line] });
    expect(res.statusCode, res.body).toBe(201);
    const e = res.json();
    const pdf = await api(owner, 'GET', `/web/api/estimates/${e.id}/pdf`);
    // Named in the client's language, as it is written.
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="Angebot-${e.number}.pdf"`);
    const text = (await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true })).text.replace(/[\s\u00a0\u202f]+/g, ' ');
    for (const part of ['Agentur Blau GmbH', 'USt-IdNr. DE987654321', 'HRB 12345 B', 'USt-IdNr. DE123456789', 'Geschäftsführerin: Anna Blau · Amtsgericht Charlottenburg', `Agentur Blau GmbH · Angebot ${e.number} · Seite 1 von 1`]) {
      expect(text).toContain(part);
    }
    expect(text).not.toContain('Acme Studio');
    // The e-mail names and signs with the same name.
    const sent = await api(owner, 'POST', `/web/api/estimates/${e.id}/send`, { recipients: [{ email: 'einkauf@mueller.test' }] });
    expect(sent.statusCode, sent.body).toBe(200);
    const mail = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', seller.companyId).executeTakeFirstOrThrow();
    const payload = mail.payload as { subject: string; text: string; attachments: Array<{ filename: string }> };
    expect(payload.subject).toBe(`Angebot ${e.number} von Agentur Blau GmbH`);
    expect(payload.attachments.map((a) => a.filename)).toEqual([`Angebot-${e.number}.pdf`]);
    expect(payload.text).toContain('Mit freundlichen Grüßen\nAgentur Blau GmbH\n');
    expect(payload.text).not.toContain('Acme Studio');
  });
});
