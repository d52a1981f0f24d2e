import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignUser, billableProject, insertClient, insertEntry, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';

/**
 * The web app's change of a draft's line taxes, PATCH /web/api/invoices/:id/line_taxes
 * (review of 2026-12-06, third): `taxed`/`taxed2` of a draft's lines by id, the edit the API's
 * PATCH does not take (its line edits stay description, unit_price and kind, as the spec says).
 * The same edit of a draft as PATCH: reach, 404, 412, 409, totals, audit entry and the
 * invoice.updated change; strict body. And the preview the new-invoice page reads to warn about
 * time billed at 0.00: imported time without a rate is a SERVICE line at unit price 0.
 */

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
let clientId: string;
let projectId: string;
let taskId: string;
let day = 1;
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'mgrPlain' | 'member', Caller> = {} as never;
let otherOwner: Caller;

beforeAll(async () => {
  // A webhook endpoint for invoice.updated, so the change feed records the event (nothing is delivered here).
  ctx = await createTestContext({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  w = await makeInvoiceWorkspace(ctx.db);
  other = await makeInvoiceWorkspace(ctx.db);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex' });
  ({ projectId, taskId } = await billableProject(ctx.db, w.companyId, clientId, { rate: '100', name: 'Website' }));
  for (const who of ['owner', 'admin', 'mgrInvoices', 'mgrPlain', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
  const hook = await api(s.owner, 'POST', '/web/api/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', events: ['invoice.updated'] });
  expect(hook.statusCode, hook.body).toBe(201);
});
afterAll(() => ctx.close());

type Res = Awaited<ReturnType<typeof request>>;
const api = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object), headers });
const taxes = (caller: Caller, id: string, body: unknown, headers: Record<string, string> = {}) => api(caller, 'PATCH', `/web/api/invoices/${id}/line_taxes`, body, headers);

function expectError(res: Res, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String), message: expect.any(String), ...(field ? { field } : {}) });
}

/** A draft importing 2.5 h of Website at 100 (one line, flagged for both taxes, as imports are) with tax 19 % and tax 2 7 %. */
async function importedDraft(caller: Caller = s.owner) {
  const date = `2026-02-${String(day++).padStart(2, '0')}`;
  await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date, seconds: 9000 });
  const res = await api(caller, 'POST', '/api/v2/invoices', {
    client_id: clientId,
    tax: 19,
    tax2: 7,
    line_items_import: { project_ids: [projectId], time: { summary_type: 'project', from: date, to: date } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const auditOf = (id: string) =>
  ctx.db.selectFrom('audit_logs').select(['actor_user_id', 'action', 'details']).where('subject_id', '=', id).where('action', '=', 'invoice.updated').execute();
const eventsOf = async (id: string) =>
  (await ctx.db.selectFrom('changes').select(['action', 'events']).where('record_id', '=', id).orderBy('seq').execute()).map((c) => [c.action, c.events]);

describe('PATCH /web/api/invoices/:id/line_taxes', () => {
  it('takes the second tax off an imported line: totals recalculated, recorded as an edit, and the e-invoice no longer refuses the line', async () => {
    const inv = await importedDraft();
    const line = inv.line_items[0];
    expect(line).toMatchObject({ kind: 'SERVICE', quantity: 2.5, unit_price: 100, taxed: true, taxed2: true });
    expect(inv).toMatchObject({ subtotal: 250, tax_amount: 47.5, tax2_amount: 17.5, amount: 315 });
    // Both taxes on one line: the e-invoice has no form for it.
    const refused = await api(s.owner, 'GET', `/api/v2/invoices/${inv.id}/xml`);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().missing_fields).toContain('line_items.0.taxed2');
    const eventsBefore = await eventsOf(inv.id);

    const res = await taxes(s.owner, inv.id, { line_items: [{ id: line.id, taxed2: false }] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.line_items[0]).toMatchObject({ id: line.id, taxed: true, taxed2: false, quantity: 2.5, unit_price: 100, amount: 250 });
    expect(body).toMatchObject({ state: 'draft', subtotal: 250, tax_amount: 47.5, tax2_amount: 0, amount: 297.5, due_amount: 297.5 });
    expect(res.headers.etag).toMatch(/^"/);

    // The state after: the API reads the same invoice, ETag and all.
    const read = await api(s.owner, 'GET', `/api/v2/invoices/${inv.id}`);
    expect(read.json()).toEqual(body);
    expect(read.headers.etag).toBe(res.headers.etag);
    // Recorded as PATCH records a line edit: an audit entry naming the person and the line, and one change of the
    // invoice in the change feed, with an invoice.updated webhook event (its amounts moved, though its own fields did not).
    expect(await auditOf(inv.id)).toEqual([{ actor_user_id: w.owner.userId, action: 'invoice.updated', details: { changes: {}, lines: [line.id] } }]);
    const recorded = (await eventsOf(inv.id)).slice(eventsBefore.length);
    const patched = await importedDraft();
    const patchedBefore = await eventsOf(patched.id);
    expect((await api(s.owner, 'PATCH', `/api/v2/invoices/${patched.id}`, { line_items: [{ id: patched.line_items[0].id, description: 'Website, February' }] })).statusCode).toBe(200);
    expect(await auditOf(patched.id)).toEqual([{ actor_user_id: w.owner.userId, action: 'invoice.updated', details: { changes: {}, lines: [patched.line_items[0].id] } }]);
    expect(recorded).toEqual((await eventsOf(patched.id)).slice(patchedBefore.length));
    expect(recorded).toEqual([['updated', ['invoice.updated']]]);
    // The e-invoice now finds one tax on the line.
    const xml = await api(s.owner, 'GET', `/api/v2/invoices/${inv.id}/xml`);
    if (xml.statusCode === 422) expect(xml.json().missing_fields).not.toContain('line_items.0.taxed2');

    // And back: both flags in one edit; the same totals as at the import.
    const back = await taxes(s.owner, inv.id, { line_items: [{ id: line.id, taxed: true, taxed2: true }] });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ tax_amount: 47.5, tax2_amount: 17.5, amount: 315 });
  });

  it('computes the totals as PATCH does: the taxes of the discounted sum of the lines flagged for each', async () => {
    const res = await api(s.owner, 'POST', '/api/v2/invoices', {
      client_id: clientId,
      tax: 19,
      tax2: 7,
      discount: 10,
      line_items: [
        { description: 'Design', quantity: 1, unit_price: 101.26 },
        { description: 'Hosting', quantity: 1, unit_price: 50 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json();
    const [design, hosting] = inv.line_items;
    const changed = await taxes(s.admin, inv.id, { line_items: [{ id: design.id, taxed2: false }, { id: hosting.id, taxed: false }] });
    expect(changed.statusCode, changed.body).toBe(200);
    // Tax: 19 % of 101.26 less its 10 % (10.13) = 91.13 → 17.31; tax 2: 7 % of 50 less 5.00 = 45.00 → 3.15.
    expect(changed.json()).toMatchObject({ subtotal: 151.26, discount_amount: 15.13, tax_amount: 17.31, tax2_amount: 3.15, amount: 156.59 });
    expect(changed.json().line_items.map((l: any) => [l.taxed, l.taxed2])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('changes nothing when the flags are already so: the invoice as it is, no audit entry, no change recorded', async () => {
    const inv = await importedDraft();
    const events = await eventsOf(inv.id);
    const res = await taxes(s.owner, inv.id, { line_items: [{ id: inv.line_items[0].id, taxed: true, taxed2: true }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().updated_at).toBe(inv.updated_at);
    expect(await auditOf(inv.id)).toEqual([]);
    expect(await eventsOf(inv.id)).toEqual(events);
  });

  it('is for drafts only: an open invoice is 409 naming its state, and keeps its flags', async () => {
    const inv = await importedDraft();
    expect((await api(s.owner, 'POST', `/api/v2/invoices/${inv.id}/messages`, { recipients: [{ email: 'ap@globex.test' }] })).statusCode).toBe(201);
    const res = await taxes(s.owner, inv.id, { line_items: [{ id: inv.line_items[0].id, taxed2: false }] });
    expectError(res, 409, 'conflict');
    expect(res.json()).toMatchObject({ state: 'open' });
    expect((await api(s.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json().line_items[0]).toMatchObject({ taxed: true, taxed2: true });
    expect(await auditOf(inv.id)).toEqual([]);
  });

  it('refuses bad input with 400 in the error shape, naming the field: unknown fields, other lines, no flag, not a boolean, a retainer line', async () => {
    const inv = await importedDraft();
    const lineId = inv.line_items[0].id;
    expectError(await taxes(s.owner, inv.id, { line_items: [{ id: lineId, taxed2: false }], subject: 'x' }), 400, 'unknown_field', 'subject');
    expectError(await taxes(s.owner, inv.id, { line_items: [{ id: lineId, unit_price: 1 }] }), 400, 'unknown_field', 'line_items.0.unit_price');
    expectError(await taxes(s.owner, inv.id, { line_items: [{ id: lineId }] }), 400, 'invalid_request', 'line_items.0');
    expectError(await taxes(s.owner, inv.id, { line_items: [{ id: lineId, taxed: 'no' }] }), 400, 'invalid_request', 'line_items.0.taxed');
    expectError(await taxes(s.owner, inv.id, { line_items: [] }), 400, 'invalid_request', 'line_items');
    expectError(await taxes(s.owner, inv.id, {}), 400, 'invalid_request', 'line_items');
    const elsewhere = (await importedDraft()).line_items[0].id;
    expectError(await taxes(s.owner, inv.id, { line_items: [{ id: elsewhere, taxed: false }] }), 400, 'invalid_request', 'line_items.0.id');
    expectError(
      await taxes(s.owner, inv.id, { line_items: [{ id: lineId, taxed: false }, { id: lineId, taxed2: false }] }),
      400,
      'invalid_request',
      'line_items.1.id',
    );

    // A retainer's funding line is never taxed (its money is prepaid, outside the taxes).
    const retainer = await api(s.owner, 'POST', '/web/api/retainers', { client_id: clientId, name: 'Support' });
    expect(retainer.statusCode, retainer.body).toBe(201);
    const funded = await api(s.owner, 'POST', `/web/api/retainers/${retainer.json().id}/fund`, { amount: 500, issue_date: '2026-03-01' });
    expect(funded.statusCode, funded.body).toBe(201);
    const funding = (await api(s.owner, 'GET', `/api/v2/invoices/${funded.json().invoice.id}`)).json();
    expect(funding).toMatchObject({ state: 'draft', line_items: [{ kind: 'Retainer', taxed: false, taxed2: false }] });
    expectError(await taxes(s.owner, funding.id, { line_items: [{ id: funding.line_items[0].id, taxed: true }] }), 400, 'invalid_request', 'line_items.0.taxed');
    expect((await taxes(s.owner, funding.id, { line_items: [{ id: funding.line_items[0].id, taxed: false }] })).statusCode).toBe(200);

    // Nothing of the refused edits was kept.
    expect((await api(s.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json().line_items[0]).toMatchObject({ taxed: true, taxed2: true });
    expect(await auditOf(inv.id)).toEqual([]);
  });

  it('has PATCH’s reach: another workspace and unknown ids 404, members 403, managers their own drafts (all with View invoices), API keys 403', async () => {
    const inv = await importedDraft();
    const edit = { line_items: [{ id: inv.line_items[0].id, taxed2: false }] };
    expectError(await taxes(otherOwner, inv.id, edit), 404, 'not_found');
    expectError(await taxes(s.owner, '00000000-0000-4000-8000-000000000000', edit), 404, 'not_found');
    expectError(await taxes(s.owner, 'not-an-id', edit), 404, 'not_found');
    const theirs = await api(otherOwner, 'POST', '/api/v2/invoices', {
      client_id: await insertClient(ctx.db, other.companyId, { name: 'Theirs' }),
      line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
    });
    expectError(await taxes(s.owner, theirs.json().id, { line_items: [{ id: theirs.json().line_items[0].id, taxed: false }] }), 404, 'not_found');
    expect((await api(otherOwner, 'GET', `/api/v2/invoices/${theirs.json().id}`)).json().line_items[0].taxed).toBe(true);

    expectError(await taxes(s.member, inv.id, edit), 403, 'forbidden');
    // A manager without View invoices does not reach the owner's draft (as PATCH: 404), but edits their own.
    expectError(await taxes(s.mgrPlain, inv.id, edit), 404, 'not_found');
    expect((await api(s.mgrPlain, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'x' })).statusCode).toBe(404);
    await assignUser(ctx.db, w.companyId, projectId, w.mgrPlain.userId, { manager: true }); // so the manager sees the client
    const mine = await api(s.mgrPlain, 'POST', '/api/v2/invoices', { client_id: clientId, tax: 19, line_items: [{ description: 'Advice', quantity: 1, unit_price: 80 }] });
    expect(mine.statusCode, mine.body).toBe(201);
    const own = await taxes(s.mgrPlain, mine.json().id, { line_items: [{ id: mine.json().line_items[0].id, taxed: false }] });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ tax_amount: 0, amount: 80 });
    // With View invoices, every draft.
    const managed = await taxes(s.mgrInvoices, inv.id, edit);
    expect(managed.statusCode, managed.body).toBe(200);
    expect(await auditOf(inv.id)).toMatchObject([{ actor_user_id: w.mgrInvoices.userId }]);
    // A key, even the owner's: the web app's routes take a browser session only.
    expectError(await taxes(w.owner, inv.id, edit), 403, 'session_required');
  });

  it('checks an optional If-Match as PATCH does: a stale one is 412 and changes nothing', async () => {
    const inv = await importedDraft();
    const etag = (await api(s.owner, 'GET', `/api/v2/invoices/${inv.id}`)).headers.etag as string;
    expect((await api(s.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { subject: 'Moved on' })).statusCode).toBe(200);
    expectError(await taxes(s.owner, inv.id, { line_items: [{ id: inv.line_items[0].id, taxed2: false }] }, { 'if-match': etag }), 412, 'precondition_failed');
    expect((await api(s.owner, 'GET', `/api/v2/invoices/${inv.id}`)).json().line_items[0].taxed2).toBe(true);
  });

  it('leaves the API as the spec has it: PATCH /api/v2/invoices/:id still refuses taxed and taxed2 in a line edit', async () => {
    const inv = await importedDraft();
    for (const key of ['taxed', 'taxed2']) {
      const res = await api(s.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: inv.line_items[0].id, [key]: false }] });
      expectError(res, 400, 'unknown_field', `line_items.0.${key}`);
      expect(res.json().message).toBe(`Unknown field 'line_items.0.${key}': a line edit accepts id, description, unit_price, kind.`);
    }
    const res = await api(w.owner, 'PATCH', `/api/v2/invoices/${inv.id}`, { line_items: [{ id: inv.line_items[0].id, taxed2: false }] });
    expectError(res, 400, 'unknown_field', 'line_items.0.taxed2');
  });
});

describe('the preview of time with no rate (what the new-invoice page warns about)', () => {
  it('shows it as a SERVICE line of its project at unit price 0 with its hours, beside priced lines', async () => {
    const unrated = await billableProject(ctx.db, w.companyId, clientId, { name: 'Intranet' }); // billable, no rate
    const date = '2026-05-04';
    await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId: unrated.projectId, taskId: unrated.taskId, date, seconds: 27000 });
    await insertEntry(ctx.db, w.companyId, { userId: w.member.userId, projectId, taskId, date, seconds: 3600 });
    const res = await api(s.owner, 'POST', '/web/api/invoices/preview', {
      client_id: clientId,
      line_items_import: { project_ids: [projectId, unrated.projectId], time: { summary_type: 'task', from: date, to: date } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.json().line_items.map((l: any) => ({ kind: l.kind, project_id: l.project_id, quantity: l.quantity, unit_price: l.unit_price, amount: l.amount }));
    expect(lines).toEqual(
      expect.arrayContaining([
        { kind: 'SERVICE', project_id: unrated.projectId, quantity: 7.5, unit_price: 0, amount: 0 },
        { kind: 'SERVICE', project_id: projectId, quantity: 1, unit_price: 100, amount: 100 },
      ]),
    );
    expect(lines).toHaveLength(2);
  });
});
