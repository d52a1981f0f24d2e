import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { runDueSchedules } from '../src/modules/billing/recurring-invoices/index.ts';
import { anchorDayFits, firstOccurrence, nextOccurrence, occurrenceOnOrAfter, periodOf, type Calendar } from '../src/modules/billing/recurring-invoices/rules.ts';
import { ROOT, SHEAF_BIN, runCli } from './cli-runner.ts';
import { billableProject, countBilled, insertClient, insertEntry, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';
import { DATABASE_URL, createTestContext, onPostgres, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Recurring invoices (issue 25 item 9): the calendar rules; the schedules' web
 * routes (bad input with nothing written, roles, tenancy); the scheduler making
 * correct invoices from template lines and from uninvoiced work, catching up
 * after downtime without duplicates, running twice at once (and in two
 * processes on PostgreSQL), and leaving nothing behind when it dies inside an
 * occurrence; the operator's commands; the backup resource.
 */

// ---------------------------------------------------------------- the calendar (pure)

const cal = (frequency: Calendar['frequency'], anchor_day: number, start_date: string, end_date: string | null = null): Calendar => ({
  frequency,
  anchor_day,
  start_date,
  end_date,
});

/** The first `n` occurrences of a calendar. */
function firstN(c: Calendar, n: number): string[] {
  const out: string[] = [];
  for (let d = firstOccurrence(c); d !== null && out.length < n; d = nextOccurrence(c, d)) out.push(d);
  return out;
}

describe('the calendar of a recurring invoice', () => {
  it('monthly on the 31st: the last day of shorter months, back to the 31st after', () => {
    expect(firstN(cal('monthly', 31, '2026-01-15'), 5)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });

  it('monthly on the 29th: 29 February in a leap year, 28 February otherwise', () => {
    expect(firstN(cal('monthly', 29, '2027-12-30'), 4)).toEqual(['2028-01-29', '2028-02-29', '2028-03-29', '2028-04-29']);
    expect(firstN(cal('monthly', 29, '2027-01-30'), 2)).toEqual(['2027-02-28', '2027-03-29']);
  });

  it('yearly in the start month: 29 February when there is one', () => {
    expect(firstN(cal('yearly', 29, '2024-02-01'), 5)).toEqual(['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']);
    // A start after the day: next year's.
    expect(firstN(cal('yearly', 1, '2026-03-02'), 2)).toEqual(['2027-03-01', '2028-03-01']);
  });

  it('quarterly every third month from the start month', () => {
    expect(firstN(cal('quarterly', 1, '2026-03-10'), 4)).toEqual(['2026-06-01', '2026-09-01', '2026-12-01', '2027-03-01']);
    expect(firstN(cal('quarterly', 31, '2026-01-01'), 4)).toEqual(['2026-01-31', '2026-04-30', '2026-07-31', '2026-10-31']);
  });

  it('weekly on an ISO weekday (1 Monday .. 7 Sunday)', () => {
    expect(firstN(cal('weekly', 1, '2026-01-01'), 3)).toEqual(['2026-01-05', '2026-01-12', '2026-01-19']);
    expect(firstN(cal('weekly', 4, '2026-01-01'), 2)).toEqual(['2026-01-01', '2026-01-08']); // the start is a Thursday
    expect(firstN(cal('weekly', 7, '2026-12-28'), 2)).toEqual(['2027-01-03', '2027-01-10']);
  });

  it('nothing after the end date; none at all when none falls between start and end', () => {
    const c = cal('monthly', 31, '2026-01-01', '2026-03-15');
    expect(firstN(c, 10)).toEqual(['2026-01-31', '2026-02-28']);
    expect(firstOccurrence(cal('monthly', 20, '2026-01-21', '2026-02-19'))).toBeNull();
    expect(occurrenceOnOrAfter(cal('monthly', 1, '2026-01-01'), '2026-05-02')).toBe('2026-06-01');
    expect(occurrenceOnOrAfter(cal('monthly', 1, '2026-07-01'), '2026-05-02')).toBe('2026-07-01');
  });

  it('periods: template lines bill the period ahead, uninvoiced work the period just ended', () => {
    expect(periodOf(cal('monthly', 1, '2026-01-01'), 'lines', '2026-03-01')).toEqual({ start: '2026-03-01', end: '2026-03-31' });
    expect(periodOf(cal('monthly', 1, '2026-01-01'), 'uninvoiced', '2026-03-01')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    // The occurrence before 31 March was 28 February, which billed up to 27 February.
    expect(periodOf(cal('monthly', 31, '2026-01-01'), 'uninvoiced', '2026-03-31')).toEqual({ start: '2026-02-28', end: '2026-03-30' });
    expect(periodOf(cal('weekly', 1, '2026-01-01'), 'uninvoiced', '2026-01-12')).toEqual({ start: '2026-01-05', end: '2026-01-11' });
    expect(periodOf(cal('quarterly', 1, '2026-01-01'), 'lines', '2026-04-01')).toEqual({ start: '2026-04-01', end: '2026-06-30' });
    expect(periodOf(cal('yearly', 29, '2024-02-01'), 'uninvoiced', '2025-02-28')).toEqual({ start: '2024-02-29', end: '2025-02-27' });
  });

  it('anchor days: a weekday for weekly, a day of the month otherwise', () => {
    expect(anchorDayFits('weekly', 7)).toBe(true);
    expect(anchorDayFits('weekly', 8)).toBe(false);
    expect(anchorDayFits('monthly', 31)).toBe(true);
    expect(anchorDayFits('monthly', 0)).toBe(false);
    expect(anchorDayFits('yearly', 1.5)).toBe(false);
  });
});

// ---------------------------------------------------------------- the service, the routes, the scheduler

let ctx: TestContext;
let w: InvoiceWorkspace;
let other: InvoiceWorkspace;
const s: Record<'owner' | 'admin' | 'mgrInvoices' | 'member', Caller> = {} as never;
let otherOwner: Caller;
let clientId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  await setClock('2026-02-10T09:00:00Z');
  w = await makeInvoiceWorkspace(ctx.db);
  other = await makeInvoiceWorkspace(ctx.db);
  clientId = await insertClient(ctx.db, w.companyId, { name: 'Globex', tax: '19' });
  for (const who of ['owner', 'admin', 'mgrInvoices', 'member'] as const) s[who] = await sessionFor(ctx.db, w[who], ctx.clock.now());
  otherOwner = await sessionFor(ctx.db, other.owner, ctx.clock.now());
});
afterAll(() => ctx.close());

/** Moves the app's clock; the owner signs in again (a session does not outlive a jump of months, nor precede its start). */
async function setClock(iso: string) {
  ctx.clock.advance(Date.parse(iso) - ctx.clock.now().getTime());
  if (w) s.owner = await sessionFor(ctx.db, w.owner, ctx.clock.now());
}

const web = (caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  request(ctx.app, caller, { method, url, payload: body === undefined ? undefined : (body as object) });

function expectError(res: { statusCode: number; body: string; json(): any }, status: number, error: string, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error, error_description: expect.any(String), message: expect.any(String), ...(field ? { field } : {}) });
}

const run = () => runDueSchedules({ db: ctx.db, clock: ctx.clock.now });

async function count(table: 'recurring_invoice_schedules' | 'recurring_invoice_occurrences' | 'invoices' | 'audit_logs' | 'outbox', companyId = w.companyId) {
  const r = await ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function occurrences(scheduleId: string) {
  return ctx.db
    .selectFrom('recurring_invoice_occurrences as o')
    .leftJoin('invoices as i', (j) => j.onRef('i.company_id', '=', 'o.company_id').onRef('i.id', '=', 'o.invoice_id'))
    .select(['o.occurrence_date', 'o.period_start', 'o.period_end', 'o.outcome', 'o.note', 'o.invoice_id', 'i.issue_date', 'i.state'])
    .where('o.schedule_id', '=', scheduleId)
    .orderBy('o.occurrence_date')
    .execute();
}

const retainer = (overrides: Record<string, unknown> = {}) => ({
  client_id: clientId,
  frequency: 'monthly',
  anchor_day: 1,
  start_date: '2026-03-01',
  source: 'lines',
  line_items: [
    { description: 'Retainer', quantity: 2, unit_price: 150.5 },
    { description: 'Hosting', quantity: 1, unit_price: 49.99, taxed: false },
  ],
  tax: 19,
  discount: 10,
  subject: 'Monthly retainer',
  ...overrides,
});

async function create(body: Record<string, unknown>, caller = s.owner) {
  const res = await web(caller, 'POST', '/web/api/recurring_invoices', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Pauses every schedule of the workspace, so a test's run makes only its own. */
async function pauseAll() {
  await ctx.db.updateTable('recurring_invoice_schedules').set({ is_paused: true }).where('company_id', '=', w.companyId).execute();
}

describe('bad input: a clear 4xx naming the field, nothing written', () => {
  const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
    ['a schedule that ends before it starts', { end_date: '2026-02-28' }, 400, 'invalid_request', 'end_date'],
    ['an unknown field', { every: 'month' }, 400, 'unknown_field', 'every'],
    ['a read-only field', { next_run_date: '2026-03-01' }, 400, 'unknown_field', 'next_run_date'],
    ['a wrong type', { anchor_day: 'first' }, 400, 'invalid_request', 'anchor_day'],
    ['a weekday that does not exist', { frequency: 'weekly', anchor_day: 8 }, 400, 'invalid_request', 'anchor_day'],
    ['a day of the month that does not exist', { anchor_day: 32 }, 400, 'invalid_request', 'anchor_day'],
    ['an unknown frequency', { frequency: 'daily' }, 400, 'invalid_request', 'frequency'],
    ['a date that is no date', { start_date: '2026-02-30' }, 400, 'invalid_request', 'start_date'],
    ['template lines without lines', { line_items: [] }, 400, 'invalid_request', 'line_items'],
    ['a negative quantity', { line_items: [{ quantity: -1, unit_price: 5 }] }, 400, 'invalid_request', 'line_items.0.quantity'],
    ['a tax over 100 %', { tax: 101 }, 400, 'invalid_request', 'tax'],
    ['an oversize subject', { subject: 'x'.repeat(1001) }, 400, 'invalid_request', 'subject'],
    ['sending without recipients', { action: 'send' }, 400, 'invalid_request', 'recipients'],
    ['a recipient that is no address', { action: 'send', recipients: [{ email: 'nobody' }] }, 400, 'invalid_request', 'recipients.0.email'],
    ['uninvoiced work without time or expenses', { source: 'uninvoiced', line_items: undefined }, 400, 'invalid_request', 'time_summary'],
    ['a client of another workspace', { client_id: 'FOREIGN' }, 404, 'not_found', 'client_id'],
    ['a project of another workspace', { source: 'uninvoiced', time_summary: 'project', project_ids: ['FOREIGN_PROJECT'] }, 404, 'not_found', 'project_ids.0'],
  ];
  let foreignClient: string;
  let foreignProject: string;
  beforeAll(async () => {
    foreignClient = await insertClient(ctx.db, other.companyId, { name: 'Elsewhere' });
    foreignProject = (await billableProject(ctx.db, other.companyId, foreignClient)).projectId;
  });

  it.each(cases)('%s', async (_what, change, status, error, field) => {
    const body: Record<string, unknown> = retainer();
    for (const [k, v] of Object.entries(change)) {
      if (v === 'FOREIGN') body[k] = foreignClient;
      else if (Array.isArray(v) && v[0] === 'FOREIGN_PROJECT') body[k] = [foreignProject];
      else if (v === undefined) delete body[k];
      else body[k] = v;
    }
    const before = { schedules: await count('recurring_invoice_schedules'), audit: await count('audit_logs'), invoices: await count('invoices') };
    expectError(await web(s.owner, 'POST', '/web/api/recurring_invoices', body), status, error, field);
    expect({ schedules: await count('recurring_invoice_schedules'), audit: await count('audit_logs'), invoices: await count('invoices') }).toEqual(before);
  });

  it('a change that would end the schedule before it starts: 400 naming end_date, the schedule unchanged', async () => {
    const created = await create(retainer({ is_paused: true }));
    const res = await web(s.owner, 'PATCH', `/web/api/recurring_invoices/${created.id}`, { start_date: '2026-06-01', end_date: '2026-05-31' });
    expectError(res, 400, 'invalid_request', 'end_date');
    const after = (await web(s.owner, 'GET', `/web/api/recurring_invoices/${created.id}`)).json();
    expect(after).toEqual(created);
    await web(s.owner, 'DELETE', `/web/api/recurring_invoices/${created.id}`);
  });
});

describe('who may manage recurring invoices', () => {
  it('owners and administrators; managers and members get 403 and write nothing', async () => {
    const mine = await create(retainer({ is_paused: true }), s.admin);
    expect(mine.client).toEqual({ id: clientId, name: 'Globex' });
    for (const who of [s.mgrInvoices, s.member]) {
      const before = await count('recurring_invoice_schedules');
      expectError(await web(who, 'GET', '/web/api/recurring_invoices'), 403, 'forbidden');
      expectError(await web(who, 'POST', '/web/api/recurring_invoices', retainer()), 403, 'forbidden');
      expectError(await web(who, 'PATCH', `/web/api/recurring_invoices/${mine.id}`, { is_paused: false }), 403, 'forbidden');
      expectError(await web(who, 'DELETE', `/web/api/recurring_invoices/${mine.id}`), 403, 'forbidden');
      expect(await count('recurring_invoice_schedules')).toBe(before);
    }
    expect((await web(s.owner, 'DELETE', `/web/api/recurring_invoices/${mine.id}`)).statusCode).toBe(204);
  });

  it("another workspace's schedule is 404 on read, change and delete, and stays as it was", async () => {
    const mine = await create(retainer({ is_paused: true }));
    expectError(await web(otherOwner, 'GET', `/web/api/recurring_invoices/${mine.id}`), 404, 'not_found');
    expectError(await web(otherOwner, 'PATCH', `/web/api/recurring_invoices/${mine.id}`, { is_paused: false }), 404, 'not_found');
    expectError(await web(otherOwner, 'DELETE', `/web/api/recurring_invoices/${mine.id}`), 404, 'not_found');
    expect((await web(otherOwner, 'GET', '/web/api/recurring_invoices')).json().recurring_invoices).toEqual([]);
    expect((await web(s.owner, 'GET', `/web/api/recurring_invoices/${mine.id}`)).json()).toEqual(mine);
    await web(s.owner, 'DELETE', `/web/api/recurring_invoices/${mine.id}`);
  });
});

describe('the scheduler', () => {
  it('bills a template line whose item category was archived since, instead of skipping the month', async () => {
    await pauseAll();
    await setClock('2026-02-10T09:00:00Z');
    const category = (await web(s.owner, 'POST', '/web/api/item-categories', { name: `Licences ${Date.now()}` })).json();
    const schedule = await create(retainer({ line_items: [{ kind: category.name, description: 'Licence', quantity: 1, unit_price: 200, taxed: false }] }));
    expect((await web(s.owner, 'PATCH', `/web/api/item-categories/${category.id}`, { is_active: false })).statusCode).toBe(200);
    await setClock('2026-03-01T06:00:00Z');
    expect(await run()).toEqual({ drafted: 1, sent: 0, skipped: 0 });
    const [o] = await occurrences(schedule.id);
    const invoice = (await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${o.invoice_id}` })).json();
    expect(invoice.line_items.map((l: { kind: string }) => l.kind)).toEqual([category.name]);
  });

  it('template lines: one invoice per occurrence, with the hand-computed totals, dated and periodised for it', async () => {
    await pauseAll();
    await setClock('2026-02-10T09:00:00Z');
    const schedule = await create(retainer());
    expect(schedule.next_run_date).toBe('2026-03-01');
    expect(await run()).toEqual({ drafted: 0, sent: 0, skipped: 0 }); // not due yet

    await setClock('2026-03-01T06:00:00Z');
    expect(await run()).toEqual({ drafted: 1, sent: 0, skipped: 0 });
    const [o] = await occurrences(schedule.id);
    expect(o).toMatchObject({ occurrence_date: '2026-03-01', period_start: '2026-03-01', period_end: '2026-03-31', outcome: 'drafted', issue_date: '2026-03-01', state: 'draft' });
    const invoice = (await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${o.invoice_id}` })).json();
    // 2 × 150.50 = 301.00 and 49.99 → 350.99; 10 % discount 35.099 → 35.10;
    // tax 19 % of the discounted taxed line: 301.00 × 0.9 × 0.19 = 51.471 → 51.47; 350.99 − 35.10 + 51.47 = 367.36.
    expect(invoice).toMatchObject({
      subject: 'Monthly retainer',
      subtotal: 350.99,
      discount_amount: 35.1,
      tax_amount: 51.47,
      amount: 367.36,
      period_start: '2026-03-01',
      period_end: '2026-03-31',
      creator: { id: w.owner.userId },
    });
    expect(invoice.line_items.map((l: any) => [l.description, l.amount])).toEqual([
      ['Retainer', 301],
      ['Hosting', 49.99],
    ]);
    // The next one is April's; running again the same day makes nothing.
    expect(await run()).toEqual({ drafted: 0, sent: 0, skipped: 0 });
    const listed = (await web(s.owner, 'GET', `/web/api/recurring_invoices/${schedule.id}`)).json();
    expect(listed.next_run_date).toBe('2026-04-01');
    expect(listed.occurrences).toMatchObject([{ occurrence_date: '2026-03-01', outcome: 'drafted', invoice: { id: o.invoice_id, state: 'draft' } }]);
  });

  it("uninvoiced work: the period just ended is imported at the project's rate, later work stays unbilled", async () => {
    await pauseAll();
    await setClock('2026-02-10T09:00:00Z');
    const client = await insertClient(ctx.db, w.companyId, { name: 'Initech' });
    const { projectId, taskId } = await billableProject(ctx.db, w.companyId, client, { rate: '100', name: 'Support' });
    const userId = w.member.userId;
    await insertEntry(ctx.db, w.companyId, { userId, projectId, taskId, date: '2026-02-03', seconds: 5400 });
    await insertEntry(ctx.db, w.companyId, { userId, projectId, taskId, date: '2026-02-20', seconds: 7200 });
    const march = await insertEntry(ctx.db, w.companyId, { userId, projectId, taskId, date: '2026-03-02', seconds: 3600 });
    const schedule = await create({ client_id: client, frequency: 'monthly', anchor_day: 1, start_date: '2026-02-01', source: 'uninvoiced', project_ids: [projectId], time_summary: 'project' });
    expect(schedule.next_run_date).toBe('2026-03-01');
    const billedBefore = await countBilled(ctx.db, w.companyId);

    await setClock('2026-03-03T10:00:00Z'); // two days late: made, dated 1 March
    expect(await run()).toEqual({ drafted: 1, sent: 0, skipped: 0 });
    const [o] = await occurrences(schedule.id);
    expect(o).toMatchObject({ occurrence_date: '2026-03-01', period_start: '2026-02-01', period_end: '2026-02-28', issue_date: '2026-03-01' });
    const invoice = (await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${o.invoice_id}` })).json();
    // 1.5 h + 2 h = 3.5 h × 100 = 350.00; no taxes on the client.
    expect(invoice.line_items.map((l: any) => [l.quantity, l.unit_price, l.amount])).toEqual([[3.5, 100, 350]]);
    expect(invoice).toMatchObject({ amount: 350, period_start: '2026-02-01', period_end: '2026-02-28' });
    expect(await countBilled(ctx.db, w.companyId)).toEqual({ ...billedBefore, time: billedBefore.time + 2 });
    const left = await ctx.db.selectFrom('time_entries').select('is_billed').where('id', '=', march).executeTakeFirstOrThrow();
    expect(left.is_billed).toBe(false);

    // April: March's work is there; May: nothing to invoice, recorded as skipped, no invoice.
    await setClock('2026-05-01T10:00:00Z');
    expect(await run()).toEqual({ drafted: 1, sent: 0, skipped: 1 });
    const all = await occurrences(schedule.id);
    expect(all.map((x) => [x.occurrence_date, x.outcome, x.invoice_id === null])).toEqual([
      ['2026-03-01', 'drafted', false],
      ['2026-04-01', 'drafted', false],
      ['2026-05-01', 'skipped', true],
    ]);
    expect(all[2].note).toMatch(/Nothing to import/);
  });

  it('catch-up after downtime: each missed occurrence once, dated for itself; a missed send is drafted, today’s is sent', async () => {
    await pauseAll();
    await setClock('2026-01-01T09:00:00Z'); // a Thursday
    const schedule = await create(retainer({ frequency: 'weekly', anchor_day: 1, start_date: '2026-01-01', action: 'send', recipients: [{ email: 'ap@globex.example', name: 'Accounts' }] }));
    expect(schedule.next_run_date).toBe('2026-01-05');
    const outbox = await count('outbox');

    await setClock('2026-02-02T07:00:00Z'); // a Monday, five Mondays later
    expect(await run()).toEqual({ drafted: 4, sent: 1, skipped: 0 });
    expect(await run()).toEqual({ drafted: 0, sent: 0, skipped: 0 });
    const made = await occurrences(schedule.id);
    expect(made.map((o) => [o.occurrence_date, o.issue_date, o.period_start, o.period_end, o.outcome, o.state])).toEqual([
      ['2026-01-05', '2026-01-05', '2026-01-05', '2026-01-11', 'drafted', 'draft'],
      ['2026-01-12', '2026-01-12', '2026-01-12', '2026-01-18', 'drafted', 'draft'],
      ['2026-01-19', '2026-01-19', '2026-01-19', '2026-01-25', 'drafted', 'draft'],
      ['2026-01-26', '2026-01-26', '2026-01-26', '2026-02-01', 'drafted', 'draft'],
      ['2026-02-02', '2026-02-02', '2026-02-02', '2026-02-08', 'sent', 'open'],
    ]);
    expect(made[0].note).toMatch(/drafted, not sent/);
    // Sent through the invoice messages outbox, exactly once.
    expect(await count('outbox')).toBe(outbox + 1);
    const messages = await ctx.db.selectFrom('invoice_messages').select(['invoice_id', 'recipients']).where('invoice_id', '=', made[4].invoice_id!).execute();
    expect(messages).toEqual([{ invoice_id: made[4].invoice_id, recipients: [{ email: 'ap@globex.example', name: 'Accounts' }] }]);
  });

  it("a sent occurrence's e-mail carries a client link to the invoice, as every invoice e-mail does (the server's PUBLIC_URL)", async () => {
    await pauseAll();
    await setClock('2026-06-01T09:00:00Z'); // a Monday
    const schedule = await create(retainer({ frequency: 'weekly', anchor_day: 2, start_date: '2026-06-01', action: 'send', recipients: [{ email: 'ap@globex.example' }] }));
    await setClock('2026-06-02T07:00:00Z');
    expect(await runDueSchedules({ db: ctx.db, clock: ctx.clock.now, baseUrl: 'https://sheaf.example.com/' })).toEqual({ drafted: 0, sent: 1, skipped: 0 });
    const [o] = await occurrences(schedule.id);
    const mail = await ctx.db
      .selectFrom('outbox')
      .select('payload')
      .where('company_id', '=', w.companyId)
      .where('kind', '=', 'invoice_message')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const text = (mail.payload as { text: string }).text;
    const token = /https:\/\/sheaf\.example\.com\/c#([\w-]{43})\n$/.exec(text)?.[1];
    expect(token, text).toBeDefined();
    const links = await ctx.db.selectFrom('client_links').select(['subject_type', 'subject_id']).where('subject_id', '=', o.invoice_id!).execute();
    expect(links).toEqual([{ subject_type: 'invoice', subject_id: o.invoice_id }]);
  });

  it('pause and resume: nothing is made while paused; resumed, it goes on from today', async () => {
    await pauseAll();
    await setClock('2026-01-01T09:00:00Z');
    const schedule = await create(retainer({ frequency: 'weekly', anchor_day: 1, start_date: '2026-01-01' }));
    const paused = await web(s.owner, 'PATCH', `/web/api/recurring_invoices/${schedule.id}`, { is_paused: true });
    expect(paused.json()).toMatchObject({ is_paused: true, next_run_date: '2026-01-05' });
    await setClock('2026-01-20T09:00:00Z');
    await run();
    expect(await occurrences(schedule.id)).toEqual([]);
    const resumed = await web(s.owner, 'PATCH', `/web/api/recurring_invoices/${schedule.id}`, { is_paused: false });
    expect(resumed.json()).toMatchObject({ is_paused: false, next_run_date: '2026-01-26' });
  });

  it('two runs at once make each occurrence once', async () => {
    await pauseAll();
    await setClock('2026-01-01T09:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await create(retainer({ frequency: 'weekly', anchor_day: 1 + i, start_date: '2026-01-01' }))).id);
    const invoicesBefore = await count('invoices');
    await setClock('2026-01-31T09:00:00Z');
    const [a, b] = await Promise.all([run(), run()]);
    // Mondays 5, 12, 19, 26; Tuesdays 6 .. 27; Wednesdays 7 .. 28; Thursdays 1 .. 29: 4 + 4 + 4 + 5.
    expect(a.drafted + b.drafted).toBe(17);
    for (const id of ids) {
      const made = await occurrences(id);
      expect(new Set(made.map((o) => o.occurrence_date)).size).toBe(made.length);
    }
    expect(await count('invoices')).toBe(invoicesBefore + 17);
  });

  it('a failure inside an occurrence leaves no half invoice; the next run makes it, once', async () => {
    await pauseAll();
    await setClock('2026-02-10T09:00:00Z');
    const schedule = await create(retainer());
    const invoicesBefore = await count('invoices');
    const numbersBefore = await ctx.db.selectFrom('invoices').select('number').where('company_id', '=', w.companyId).execute();
    // A fault after the invoice and its lines were written, in the same transaction: the occurrence's insert fails.
    await sql`create function recurring_fault() returns trigger language plpgsql as $$ begin raise exception 'disk on fire'; end $$`.execute(ctx.db);
    await sql`create trigger recurring_fault before insert on recurring_invoice_occurrences for each row execute function recurring_fault()`.execute(ctx.db);
    await setClock('2026-03-01T06:00:00Z');
    const failures: unknown[] = [];
    try {
      const summary = await runDueSchedules({ db: ctx.db, clock: ctx.clock.now, onError: (err) => failures.push(err) });
      expect(summary).toEqual({ drafted: 0, sent: 0, skipped: 0 });
    } finally {
      await sql`drop trigger recurring_fault on recurring_invoice_occurrences`.execute(ctx.db);
      await sql`drop function recurring_fault()`.execute(ctx.db);
    }
    expect(String(failures[0])).toMatch(/disk on fire/);
    expect(await count('invoices')).toBe(invoicesBefore);
    expect(await ctx.db.selectFrom('invoices').select('number').where('company_id', '=', w.companyId).execute()).toEqual(numbersBefore);
    expect(await occurrences(schedule.id)).toEqual([]);
    expect((await web(s.owner, 'GET', `/web/api/recurring_invoices/${schedule.id}`)).json().next_run_date).toBe('2026-03-01');

    expect(await run()).toEqual({ drafted: 1, sent: 0, skipped: 0 });
    expect(await run()).toEqual({ drafted: 0, sent: 0, skipped: 0 });
    expect((await occurrences(schedule.id)).map((o) => o.occurrence_date)).toEqual(['2026-03-01']);
    expect(await count('invoices')).toBe(invoicesBefore + 1);
  });

  it('a deleted schedule makes nothing more; its invoices stay', async () => {
    await pauseAll();
    await setClock('2026-02-10T09:00:00Z');
    const schedule = await create(retainer());
    await setClock('2026-03-01T06:00:00Z');
    await run();
    const [o] = await occurrences(schedule.id);
    expect((await web(s.owner, 'DELETE', `/web/api/recurring_invoices/${schedule.id}`)).statusCode).toBe(204);
    expectError(await web(s.owner, 'GET', `/web/api/recurring_invoices/${schedule.id}`), 404, 'not_found');
    expect((await request(ctx.app, w.owner, { method: 'GET', url: `/api/v2/invoices/${o.invoice_id}` })).statusCode).toBe(200);
  });
});

describe('sheaf admin recurring list|run-due', () => {
  const database = () => ({ db: ctx.db, kind: onPostgres ? 'postgresql' : 'pglite', close: async () => {} }) as unknown as Database;
  const sheaf = (...args: string[]) => runCli(args, { env: { LOG_LEVEL: 'silent' }, openDatabase: async () => database() });

  it('lists the schedules, and runs the due ones (by the real clock) once', async () => {
    await pauseAll();
    // Made as if 20 days ago: the CLI runs on the system clock.
    const { createSchedule } = await import('../src/modules/billing/recurring-invoices/service.ts');
    const { operatorPrincipal } = await import('../src/access/operator.ts');
    const past = new Date(Date.now() - 20 * 86_400_000);
    const schedule = await createSchedule(ctx.db, operatorPrincipal(w.companyId), { ...(retainer({ frequency: 'weekly', anchor_day: 1, start_date: past.toISOString().slice(0, 10) }) as any) }, past);
    const listed = await sheaf('admin', 'recurring', 'list', '--workspace', w.companyId, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json.find((x: any) => x.id === schedule.id)).toMatchObject({ frequency: 'weekly', next_run_date: schedule.next_run_date });

    const ran = await sheaf('admin', 'recurring', 'run-due', '--workspace', w.companyId, '--json');
    expect(ran.code, ran.stderr).toBe(0);
    const made = await occurrences(schedule.id);
    expect(made.length).toBeGreaterThanOrEqual(2);
    expect(ran.json).toEqual({ drafted: made.length, sent: 0, skipped: 0 });
    expect((await sheaf('admin', 'recurring', 'run-due', '--json')).json).toEqual({ drafted: 0, sent: 0, skipped: 0 });
    expect((await sheaf('admin', 'recurring', 'run-due', '--workspace', 'nope')).code).toBe(2);
  });
});

describe('the backup', () => {
  it('exports the schedules with their occurrences, decimals as strings', async () => {
    const res = await request(ctx.app, w.owner, { method: 'GET', url: '/api/v2/backup/recurring_invoices?per_page=500' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const schedules = await count('recurring_invoice_schedules');
    expect(body.total_entries).toBe(schedules);
    const withOccurrences = body.records.find((r: any) => r.occurrences.length > 0);
    expect(withOccurrences).toMatchObject({ client_id: expect.any(String), frequency: expect.any(String), line_items: expect.any(Array) });
    expect(withOccurrences.occurrences[0]).toMatchObject({ occurrence_date: expect.any(String), outcome: expect.any(String) });
    const taxed = body.records.find((r: any) => r.tax !== null);
    expect(taxed.tax).toBe('19.0000');
    expect(body.records[0]).not.toHaveProperty('company_id');
  });
});

// ---------------------------------------------------------------- separate processes (PostgreSQL)

describe.runIf(onPostgres)('separate server processes on PostgreSQL', () => {
  let schema: string;
  const children = new Set<ChildProcess>();
  beforeAll(async () => {
    schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(ctx.db)).rows[0].schema;
  });
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL'); // only after a failure
  });

  /** `sheaf admin recurring run-due` in its own process; `pauseAt` stops it inside the first occurrence's transaction. */
  function runDueProcess(pauseAt?: string) {
    const child = spawn(process.execPath, [...SHEAF_BIN, 'admin', 'recurring', 'run-due', '--workspace', w.companyId, '--json'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'error', NODE_ENV: 'test', ...(pauseAt ? { SHEAF_TEST_PAUSE_AT: pauseAt } : {}) },
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    const paused = new Promise<void>((resolve) =>
      child.stderr!.setEncoding('utf8').on('data', (c: string) => {
        stderr += c;
        if (pauseAt && stderr.includes(`sheaf-test-pause ${pauseAt}\n`)) resolve();
      }),
    );
    const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('exit', (code) => {
        children.delete(child);
        resolve({ code, stdout, stderr });
      }),
    );
    return { child, paused, exited };
  }

  /** Weekly schedules made as if `days` ago, so the real clock finds their missed Mondays due. */
  async function dueSchedules(n: number, days: number) {
    await pauseAll();
    const { createSchedule } = await import('../src/modules/billing/recurring-invoices/service.ts');
    const { operatorPrincipal } = await import('../src/access/operator.ts');
    const past = new Date(Date.now() - days * 86_400_000);
    const made = [];
    for (let i = 0; i < n; i++) {
      made.push(await createSchedule(ctx.db, operatorPrincipal(w.companyId), retainer({ frequency: 'weekly', anchor_day: 1 + (i % 7), start_date: past.toISOString().slice(0, 10) }) as any, past));
    }
    return made;
  }

  /** The occurrences the calendar owes a schedule up to today (UTC). */
  function owed(schedule: { frequency: string; anchor_day: number; start_date: string; end_date: string | null; next_run_date: string | null }) {
    const today = new Date().toISOString().slice(0, 10);
    let n = 0;
    for (let d = schedule.next_run_date; d !== null && d <= today; d = nextOccurrence(schedule as Calendar, d)) n++;
    return n;
  }

  // Process starts cost seconds each on a loaded machine: a longer bound than the file's.
  it('two processes running at once make each occurrence once', { timeout: 180_000 }, async () => {
    const schedules = await dueSchedules(6, 22);
    const expected = schedules.reduce((n, x) => n + owed(x), 0);
    const invoicesBefore = await count('invoices');
    const [a, b] = await Promise.all([runDueProcess().exited, runDueProcess().exited]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const total = JSON.parse(a.stdout).drafted + JSON.parse(b.stdout).drafted;
    expect(total).toBe(expected);
    expect(await count('invoices')).toBe(invoicesBefore + expected);
    for (const x of schedules) expect((await occurrences(x.id)).length).toBe(owed(x));
  });

  it('a process killed inside an occurrence leaves no half invoice; the next run makes it once', { timeout: 180_000 }, async () => {
    const [schedule] = await dueSchedules(1, 8);
    const expected = owed(schedule);
    expect(expected).toBeGreaterThanOrEqual(1);
    const invoicesBefore = await count('invoices');
    const dying = runDueProcess('recurring-occurrence');
    await dying.paused; // the invoice, its occurrence and the next date are written, not committed
    dying.child.kill('SIGKILL');
    await dying.exited;
    expect(await count('invoices')).toBe(invoicesBefore);
    expect(await occurrences(schedule.id)).toEqual([]);

    const again = await runDueProcess().exited;
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ drafted: expected, sent: 0, skipped: 0 });
    expect((await occurrences(schedule.id)).length).toBe(expected);
    expect(await count('invoices')).toBe(invoicesBefore + expected);
  });
});
