import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { createTestContext, type TestContext } from './helpers.ts';
import { apiOf, billableProject, countBilled, countInvoices, insertClient, insertEntry, insertItemCategories, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * Bad input on every invoice route is a 4xx naming the field, never a 500:
 * wrong types, unknown fields, oversize bodies, foreign and malformed ids, and
 * the values PostgreSQL itself refuses (the NUL character in text, year 0,
 * computed dates past 9999-12-31). A refused create leaves nothing behind.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);
let w: InvoiceWorkspace;
let clientId: string;
let draftId: string;
let lineId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeInvoiceWorkspace(ctx.db);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
  await insertItemCategories(ctx.db, w.companyId, ['K'.repeat(64)]); // the longest kind a line takes names a category
  const { projectId, taskId } = await billableProject(ctx.db, w.companyId, clientId, { rate: '100' });
  await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date: '2026-02-02' });
  const inv = (await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: [{ description: 'x', unit_price: 1 }] })).json();
  draftId = inv.id;
  lineId = inv.line_items[0].id;
});
afterAll(() => ctx.close());

type Case = [body: Record<string, unknown>, status: number, field: string | undefined];

describe('POST /invoices', () => {
  const lines = [{ description: 'Work', unit_price: 1 }];
  const cases = (): Case[] => [
    // PostgreSQL has no year 0; computed due dates must stay within 9999
    [{ client_id: clientId, issue_date: '0000-01-01', line_items: lines }, 400, 'issue_date'],
    [{ client_id: clientId, due_date: '0000-12-31', line_items: lines }, 400, 'due_date'],
    [{ client_id: clientId, period_start: '0000-01-01', line_items: lines }, 400, 'period_start'],
    [{ client_id: clientId, service_period_end: '0000-01-01', line_items: lines }, 400, 'service_period_end'],
    [{ client_id: clientId, issue_date: '9999-12-31', line_items: lines }, 400, 'due_date'],
    [{ client_id: clientId, issue_date: '9999-12-01', payment_term: 'net_60', line_items: lines }, 400, 'due_date'],
    [{ client_id: clientId, line_items_import: { time: { summary_type: 'project', from: '0000-01-01' } } }, 400, 'line_items_import.time.from'],
    [{ client_id: clientId, line_items_import: { expenses: { summary_type: 'project', to: '0000-01-01' } } }, 400, 'line_items_import.expenses.to'],
    [{ client_id: clientId, issue_date: '2026-02-30', line_items: lines }, 400, 'issue_date'],
    // the NUL character cannot be stored in text
    [{ client_id: clientId, line_items: [{ description: 'a\u0000b' }] }, 400, 'line_items.0.description'],
    [{ client_id: clientId, line_items: [{ kind: 'a\u0000b' }] }, 400, 'line_items.0.kind'],
    [{ client_id: clientId, notes: 'a\u0000b', line_items: lines }, 400, 'notes'],
    [{ client_id: clientId, subject: 'a\u0000b', line_items: lines }, 400, 'subject'],
    [{ client_id: clientId, purchase_order: 'a\u0000b', line_items: lines }, 400, 'purchase_order'],
    [{ client_id: clientId, number: 'a\u0000b', line_items: lines }, 400, 'number'],
    // types, ranges, precision
    [{ client_id: 123, line_items: lines }, 400, 'client_id'],
    [{ client_id: clientId, line_items: 'x' }, 400, 'line_items'],
    [{ client_id: clientId, line_items: [null] }, 400, 'line_items.0'],
    [{ client_id: clientId, line_items: [{ quantity: '1' }] }, 400, 'line_items.0.quantity'],
    [{ client_id: clientId, line_items: [{ quantity: 1e300 }] }, 400, 'line_items.0.quantity'],
    [{ client_id: clientId, line_items: [{ unit_price: 5e-324 }] }, 400, 'line_items.0.unit_price'],
    [{ client_id: clientId, line_items: [{ sort_order: 1.5 }] }, 400, 'line_items.0.sort_order'],
    [{ client_id: clientId, line_items: [{ effect: 'refund' }] }, 400, 'line_items.0.effect'],
    [{ client_id: clientId, line_items: [{ amount: 5 }] }, 400, 'line_items.0.amount'],
    [{ client_id: clientId, tax: 1e308, line_items: lines }, 400, 'tax'],
    [{ client_id: clientId, discount: -1, line_items: lines }, 400, 'discount'],
    [{ client_id: clientId, tax2: 1e-10, line_items: lines }, 400, 'tax2'],
    [{ client_id: clientId, currency: 'usd', line_items: lines }, 400, 'currency'],
    [{ client_id: clientId, currency: 'ZZZ', line_items: lines }, 400, 'currency'],
    [{ client_id: clientId, payment_term: 'net_7', line_items: lines }, 400, 'payment_term'],
    [{ client_id: clientId, number: 'N'.repeat(65), line_items: lines }, 400, 'number'],
    [{ client_id: clientId, state: 'open', line_items: lines }, 400, 'state'],
    [{ client_id: clientId, is_billed: true, line_items: lines }, 400, 'is_billed'],
    // unknown and malformed client and project ids are a 404 naming the field (issue 13: as an inaccessible client id)
    [{ client_id: 'x'.repeat(5000), line_items: lines }, 404, 'client_id'],
    [{ client_id: newId(), line_items: lines }, 404, 'client_id'],
    [{ client_id: clientId, line_items: [{ project_id: 'nope' }] }, 404, 'line_items.0.project_id'],
    [{ client_id: clientId, line_items: [{ project_id: newId() }] }, 404, 'line_items.0.project_id'],
    [{ client_id: clientId, line_items_import: { project_ids: ['x'], time: { summary_type: 'project' } } }, 404, 'line_items_import.project_ids'],
    [{ client_id: clientId, line_items_import: { project_ids: [1], time: { summary_type: 'project' } } }, 400, 'line_items_import.project_ids.0'],
    [{ client_id: clientId, line_items_import: { time: null } }, 400, 'line_items_import.time'],
    [{ client_id: clientId, line_items_import: { time: {} } }, 400, 'line_items_import.time.summary_type'],
    [{ client_id: clientId, line_items_import: { time: { summary_type: 'project' }, extra: 1 } }, 400, 'line_items_import.extra'],
  ];

  it('answers 400 naming the field, and creates nothing', async () => {
    const before = { invoices: await countInvoices(ctx.db, w.companyId), billed: await countBilled(ctx.db, w.companyId) };
    for (const [body, status, field] of cases()) {
      const res = await api(w.owner, 'POST', '/api/v2/invoices', body);
      const label = JSON.stringify(body).slice(0, 160);
      expect(res.statusCode, `${label} → ${res.body}`).toBe(status);
      expect(res.json().field, label).toBe(field);
    }
    expect(await countInvoices(ctx.db, w.companyId)).toBe(before.invoices);
    expect(await countBilled(ctx.db, w.companyId)).toEqual(before.billed);
  });

  it('takes the extremes it allows: the last date, the largest figures, the longest texts', async () => {
    const extremes = {
      client_id: clientId,
      issue_date: '9999-12-31',
      due_date: '9999-12-31',
      number: 'N'.repeat(64),
      subject: 's'.repeat(1000),
      purchase_order: 'p'.repeat(255),
      notes: 'n'.repeat(10_000),
      tax: 100,
    };
    const res = await api(w.owner, 'POST', '/api/v2/invoices', {
      ...extremes,
      discount: 100,
      line_items: [
        { kind: 'K'.repeat(64), description: 'd'.repeat(10_000), quantity: 9999999999.9999, unit_price: 99.99 },
        { quantity: 9999999999.9999, unit_price: 9999999999.9999, effect: 'credit' },
        { quantity: 9999999999.9999, unit_price: 9999999999.9999 },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ field: 'line_items', message: expect.stringContaining('999999999999.99') });

    const ok = await api(w.owner, 'POST', '/api/v2/invoices', {
      ...extremes,
      line_items: [{ kind: 'K'.repeat(64), description: 'd'.repeat(10_000), quantity: 4999999999.9999, unit_price: 99.99 }],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    // 4999999999.9999 × 99.99 = 499949999999.990001 → 499949999999.99; the tax doubles it
    expect(ok.json()).toMatchObject({ issue_date: '9999-12-31', due_date: '9999-12-31', payment_term: 'custom', subtotal: 499949999999.99, amount: 999899999999.98 });
    // a PATCH cannot push it over either, and changes nothing when refused
    const over = await api(w.owner, 'PATCH', `/api/v2/invoices/${ok.json().id}`, { tax2: 1 });
    expect(over.statusCode).toBe(400);
    expect(over.json().field).toBe('line_items');
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${ok.json().id}`)).json().tax2).toBe(0);
  });

  it('refuses a body over the limit with 413', async () => {
    const big = Array.from({ length: 20 }, () => ({ description: 'd'.repeat(9000) }));
    const res = await api(w.owner, 'POST', '/api/v2/invoices', { client_id: clientId, line_items: big });
    expect(res.statusCode).toBe(413);
  });
});

describe('PATCH /invoices/:id', () => {
  const cases = (): Case[] => [
    [{ issue_date: '0000-01-01' }, 400, 'issue_date'],
    [{ due_date: '0000-01-01' }, 400, 'due_date'],
    [{ period_end: '0000-01-01' }, 400, 'period_end'],
    [{ issue_date: '9999-12-31' }, 400, 'due_date'], // net_30 would move the due date past 9999
    [{ notes: 'a\u0000' }, 400, 'notes'],
    [{ subject: 'a\u0000' }, 400, 'subject'],
    [{ purchase_order: 'a\u0000' }, 400, 'purchase_order'],
    [{ line_items: [{ id: lineId, description: 'a\u0000' }] }, 400, 'line_items.0.description'],
    [{ line_items: [{ id: lineId, kind: 'a\u0000' }] }, 400, 'line_items.0.kind'],
    [{ line_items: [{ id: 'zz' }] }, 400, 'line_items.0.id'],
    [{ line_items: [{ id: newId() }] }, 400, 'line_items.0.id'],
    [{ line_items: [{ id: 5 }] }, 400, 'line_items.0.id'],
    [{ line_items: [null] }, 400, 'line_items.0'],
    [{ line_items: null }, 400, 'line_items'],
    [{ line_items: {} }, 400, 'line_items'],
    [{ line_items: [{ id: lineId, unit_price: 1e300 }] }, 400, 'line_items.0.unit_price'],
    [{ line_items: [{ id: lineId, unit_price: null }] }, 400, 'line_items.0.unit_price'],
    [{ line_items: [{ id: lineId, quantity: 2 }] }, 400, 'line_items.0.quantity'],
    [{ tax: '5' }, 400, 'tax'],
    [{ number: 5 }, 400, 'number'],
    [{ number: null }, 400, 'number'],
    [{ number: ' ' }, 400, 'number'],
    [{ currency: 'USD' }, 400, 'currency'],
    [{ payment_term: 'net_15' }, 400, 'payment_term'],
    [{ client_id: clientId }, 400, 'client_id'],
    [{ state: 'open' }, 400, 'state'],
  ];

  it('answers 400 naming the field, and changes nothing', async () => {
    await api(w.owner, 'PATCH', `/api/v2/invoices/${draftId}`, { issue_date: '2026-03-01', due_date: '2026-03-31' });
    const before = (await api(w.owner, 'GET', `/api/v2/invoices/${draftId}`)).body;
    // a fixed term, so a new issue date moves the due date
    await ctx.db.updateTable('invoices').set({ payment_term: 'net_30' }).where('id', '=', draftId).execute();
    for (const [body, status, field] of cases()) {
      const res = await api(w.owner, 'PATCH', `/api/v2/invoices/${draftId}`, body);
      const label = JSON.stringify(body).slice(0, 160);
      expect(res.statusCode, `${label} → ${res.body}`).toBe(status);
      expect(res.json().field, label).toBe(field);
    }
    await ctx.db.updateTable('invoices').set({ payment_term: null }).where('id', '=', draftId).execute();
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${draftId}`)).body).toBe(before);
  });
});

describe('POST /invoices/:id/messages', () => {
  const to = [{ email: 'a@b.test' }];
  const cases = (): Case[] => [
    [{ recipients: [{ email: 'a\u0000@b.test' }] }, 400, 'recipients.0.email'],
    [{ recipients: [{ email: 'a\u0007@b.test' }] }, 400, 'recipients.0.email'],
    [{ recipients: [{ email: 'a@b.test', name: 'x\u0000' }] }, 400, 'recipients.0.name'],
    [{ recipients: [{ email: 'a@b.test', name: 'x\r\nBcc: evil@x.test' }] }, 400, 'recipients.0.name'],
    [{ recipients: to, cc_recipients: [{ email: 'c@d.test', name: 'c\nd' }] }, 400, 'cc_recipients.0.name'],
    [{ recipients: to, body: 'x\u0000' }, 400, 'body'],
    [{ recipients: to, subject: 'x\u0000' }, 400, 'subject'],
    [{ recipients: 'a@b.test' }, 400, 'recipients'],
    [{ recipients: [null] }, 400, 'recipients.0'],
    [{ recipients: [{ email: 5 }] }, 400, 'recipients.0.email'],
    [{ recipients: Array.from({ length: 51 }, (_, i) => ({ email: `r${i}@b.test` })) }, 400, 'recipients'],
    [{ recipients: to, event_type: null }, 400, 'event_type'],
    [{ recipients: to, send_me_a_copy: 'true' }, 400, 'send_me_a_copy'],
    [{ recipients: to, invoice_id: draftId }, 400, 'invoice_id'],
  ];

  it('answers 400 naming the field, and records nothing', async () => {
    for (const [body, status, field] of cases()) {
      const res = await api(w.owner, 'POST', `/api/v2/invoices/${draftId}/messages`, body);
      const label = JSON.stringify(body).slice(0, 160);
      expect(res.statusCode, `${label} → ${res.body}`).toBe(status);
      expect(res.json().field, label).toBe(field);
    }
    const huge = await api(w.owner, 'POST', `/api/v2/invoices/${draftId}/messages`, {
      recipients: Array.from({ length: 10_000 }, () => ({ email: 'a@b.test' })),
    });
    expect(huge.statusCode).toBe(413);
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${draftId}/messages`)).json().total_entries).toBe(0);
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${draftId}`)).json().state).toBe('draft');
  });
});

describe('queries and ids', () => {
  it('answers 4xx for bad list filters, and 404 for malformed, unknown and foreign ids on every route', async () => {
    const list: Array<[string, number, string | undefined]> = [
      ['updated_since=0000-01-01T00:00:00Z', 400, 'updated_since'],
      ['updated_since=2026-01-01T25:00', 400, 'updated_since'],
      ['from=0000-01-01', 400, 'from'],
      ['to=2026-02-30', 400, 'to'],
      ['client_id=x', 400, 'client_id'],
      ['client_id=a&client_id=b', 400, 'client_id'],
      ['state=nope', 400, 'state'],
      ['page=0', 400, 'page'],
      ['per_page=2001', 400, 'per_page'],
      ['sort=number', 400, 'sort'],
    ];
    for (const [query, status, field] of list) {
      const res = await api(w.owner, 'GET', `/api/v2/invoices?${query}`);
      expect(res.statusCode, `${query} → ${res.body}`).toBe(status);
      expect(res.json().field, query).toBe(field);
    }
    const foreign = await makeInvoiceWorkspace(ctx.db);
    const otherClient = await insertClient(ctx.db, foreign.companyId);
    const other = (await api(foreign.owner, 'POST', '/api/v2/invoices', { client_id: otherClient, line_items: [{ unit_price: 1 }] })).json().id;
    for (const id of ['nope', '%00', newId(), other]) {
      const calls: Array<[Parameters<typeof api>[1], string, unknown, Record<string, string>]> = [
        ['GET', `/api/v2/invoices/${id}`, undefined, {}],
        ['PATCH', `/api/v2/invoices/${id}`, { notes: 'x' }, {}],
        ['DELETE', `/api/v2/invoices/${id}`, undefined, { 'if-match': '*' }],
        ['GET', `/api/v2/invoices/${id}/pdf`, undefined, {}],
        ['POST', `/api/v2/invoices/${id}/messages`, { recipients: [{ email: 'a@b.test' }] }, {}],
        ['GET', `/api/v2/invoices/${id}/messages`, undefined, {}],
      ];
      for (const [method, url, body, headers] of calls) {
        const res = await api(w.owner, method, url, body, headers);
        expect(res.statusCode, `${method} ${url} → ${res.body}`).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
    }
    // a client of another workspace is a 400 on client_id, never its invoice
    expect((await api(w.owner, 'POST', '/api/v2/invoices', { client_id: otherClient, line_items: [{}] })).json().field).toBe('client_id');
    // an id longer than the router allows is refused before any lookup
    expect((await api(w.owner, 'GET', `/api/v2/invoices/${'x'.repeat(3000)}`)).statusCode).toBeLessThan(500);
    // the foreign invoice is untouched
    expect((await api(foreign.owner, 'GET', `/api/v2/invoices/${other}`)).json()).toMatchObject({ state: 'draft', notes: null });
  });
});
