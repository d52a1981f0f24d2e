import { parse } from 'csv-parse/sync';
import { Decimal } from 'decimal.js';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGER_PERMISSIONS } from '../src/db/types.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import type { Principal } from '../src/auth/principal.ts';
import { csvCopyAvailable } from '../src/db/csv-copy.ts';
import { csvBytes } from '../src/http/exports.ts';
import { newId } from '../src/ids.ts';
import { exportEntries } from '../src/modules/tracking/time/export.ts';
import { JS_WHITESPACE } from '../src/modules/tracking/time/export-sql.ts';
import type { EntryFilter } from '../src/modules/tracking/time/queries.ts';
import { createTestContext, request, type Caller, type TestContext } from './helpers.ts';
import {
  assignTask,
  assignUser,
  insertClient,
  insertEntryRow,
  insertProject,
  insertRate,
  insertTask,
  makeTimeWorkspace,
  postEntry,
  setNow,
  setWorkspace,
  type TimeWorkspace,
} from './fixtures/catalog.ts';

/**
 * GET /api/v2/time_entries/export (issue 27 item 4): exactly the rows of
 * GET /api/v2/time_entries with the same filters (all pages, same order), for
 * each role; rates only for callers who see them; CSV and XLSX with the same
 * rows; the list's 400s; never another workspace's entries.
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;
let foreignEntry: string;
let client2: string;
let project2: string;
let task2: string;
const NOW = '2026-06-10T10:00:00.000Z';
const NOTES = 'Fix the "login", then\nthe logout; 3,5 € and ümlauts';

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, NOW);
  w = await makeTimeWorkspace(ctx.db);
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Foreign' });
  foreignEntry = await insertEntryRow(ctx.db, foreign.companyId, { userId: foreign.member.userId, projectId: foreign.project, taskId: foreign.task, spentDate: '2026-06-01' });
  // Rounded to quarter hours up, so rounded hours (and the amount) differ from the hours.
  await setWorkspace(ctx.db, w.companyId, { rounding: 'up', rounding_minutes: 15 });
  await insertRate(ctx.db, w.companyId, { projectId: w.project }, '2026-01-01', '95.50');
  client2 = await insertClient(ctx.db, w.companyId, 'Second client');
  await ctx.db.updateTable('clients').set({ currency: 'JPY' }).where('id', '=', client2).execute();
  project2 = await insertProject(ctx.db, w.companyId, client2, { name: 'Second project' });
  await insertRate(ctx.db, w.companyId, { projectId: project2 }, '2026-01-01', '5000');
  task2 = await insertTask(ctx.db, w.companyId, { name: 'Testing' });
  await assignTask(ctx.db, w.companyId, project2, task2);
  for (const p of [w.member, w.other, w.manager]) await assignUser(ctx.db, w.companyId, project2, p.userId);

  const post = async (caller: Caller, extra: Record<string, unknown>) => {
    const res = await postEntry(ctx.app, caller, { project_id: w.project, task_id: w.task, hours: 1.1, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    ctx.clock.advance(1000);
  };
  await post(w.member, { spent_date: '2026-06-01', notes: NOTES, source: 'web' });
  await post(w.member, { spent_date: '2026-06-03', project_id: project2, task_id: task2, hours: 2.333333 });
  await post(w.member, { spent_date: '2026-06-03', billable: false, source: 'cli' });
  await post(w.other, { spent_date: '2026-06-02', started_time: '09:00', ended_time: '10:20', hours: undefined });
  await post(w.other, { spent_date: '2026-06-04', project_id: w.managed, task_id: w.managedTask });
  await post(w.contractor, { spent_date: '2026-06-02' });
  await post(w.manager, { spent_date: '2026-06-05', hours: 0.25 });
  await post(w.admin, { spent_date: '2026-06-06', source: 'agent' });
  await post(w.member, { is_running: true, hours: undefined });
  await insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: w.project, taskId: w.task, spentDate: '2026-04-01', billed: true, approval: 'approved' });
  ctx.clock.advance(60_000);
});
afterAll(() => ctx.close());

const get = (caller: Caller, url: string) => request(ctx.app, caller, { method: 'GET', url });
const exportOf = (caller: Caller, query: string) => get(caller, `/api/v2/time_entries/export?${query}`);

interface ListEntry {
  id: string;
  user_id: string;
  spent_date: string;
  hours: number;
  rounded_hours: number;
  notes: string | null;
  billable: boolean;
  is_billed: boolean;
  is_running: boolean;
  approval_status: string;
  task: { name: string };
  billable_rate?: number | null;
}

/** Every page of the list for the filters. */
async function listAll(caller: Caller, filters: string): Promise<ListEntry[]> {
  const all: ListEntry[] = [];
  for (let page = 1; ; page++) {
    const res = await get(caller, `/api/v2/time_entries?${filters}${filters ? '&' : ''}per_page=2000&page=${page}`);
    expect(res.statusCode, res.body).toBe(200);
    all.push(...res.json().time_entries);
    if (page >= res.json().total_pages) return all;
  }
}

type CsvRecord = { [header: string]: string };
function csvRecords(body: string): { headers: string[]; records: CsvRecord[] } {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  const rows = parse(body.slice(1)) as string[][];
  const [headers, ...rest] = rows;
  return { headers, records: rest.map((cells) => Object.fromEntries(headers.map((h, i) => [h, cells[i]]))) };
}

const BASE_HEADERS = ['Date', 'Person', 'Client', 'Project', 'Task', 'Notes', 'Hours', 'Rounded hours', 'Billable', 'Billed', 'Approval', 'Running'];
const RATE_HEADERS = ['Currency', 'Billable rate', 'Billable amount'];

/** The export's CSV for the caller and filters equals the list's rows, field by field. */
async function expectExportMatchesList(caller: Caller, filters: string, rates: boolean) {
  const res = await exportOf(caller, `format=csv${filters ? '&' : ''}${filters}`);
  expect(res.statusCode, res.body).toBe(200);
  const { headers, records } = csvRecords(res.body);
  expect(headers).toEqual([...BASE_HEADERS, ...(rates ? RATE_HEADERS : []), 'Entry ID']);
  const list = await listAll(caller, filters);
  expect(records.map((r) => r['Entry ID'])).toEqual(list.map((e) => e.id));
  for (const [i, e] of list.entries()) {
    const r = records[i];
    expect(r.Date).toBe(e.spent_date);
    expect(r.Task).toBe(e.task.name);
    expect(r.Notes).toBe(e.notes ?? '');
    expect(new Decimal(r.Hours).toNumber(), r.Hours).toBe(e.hours);
    expect(new Decimal(r['Rounded hours']).toNumber()).toBe(e.rounded_hours);
    expect(r.Billable).toBe(e.billable ? 'yes' : 'no');
    expect(r.Billed).toBe(e.is_billed ? 'yes' : 'no');
    expect(r.Running).toBe(e.is_running ? 'yes' : 'no');
    expect(r.Approval).toBe(e.approval_status);
    if (rates) {
      expect(r['Billable rate'] === '' ? null : Number(r['Billable rate'])).toBe(e.billable_rate);
      const amount = e.billable && e.billable_rate != null ? new Decimal(e.rounded_hours).mul(e.billable_rate).toDecimalPlaces(2) : null;
      expect(r['Billable amount'] === '' ? null : new Decimal(r['Billable amount']).toString()).toBe(amount?.toString() ?? null);
    }
  }
  return records;
}

describe('the rows are the list’s rows', () => {
  it('for an administrator, with every filter the list has, rates included', async () => {
    const admin = w.admin;
    const all = await expectExportMatchesList(admin, '', true);
    expect(all).toHaveLength(10);
    await expectExportMatchesList(admin, `project_id=${project2}`, true);
    await expectExportMatchesList(admin, `client_id=${w.clientId}&from=2026-06-02&to=2026-06-05`, true);
    await expectExportMatchesList(admin, `user_id=${w.other.userId}`, true);
    await expectExportMatchesList(admin, `task=${task2}`, true);
    await expectExportMatchesList(admin, 'is_billed=true', true);
    await expectExportMatchesList(admin, 'is_running=true&source=api', true);
    await expectExportMatchesList(admin, 'source=agent', true);
  });

  it('writes exact decimals, the client’s currency, the rate and the amount of rounded hours', async () => {
    const { body } = await exportOf(w.owner, 'format=csv&from=2026-06-01&to=2026-06-03');
    // RFC 4180 quoting: the field in quotes, its quotes doubled, its line break kept.
    expect(body).toContain(',"Fix the ""login"", then\nthe logout; 3,5 € and ümlauts",');
    const { records } = csvRecords(body);
    const noted = records.find((r) => r.Notes === NOTES)!;
    expect(noted).toMatchObject({ Hours: '1.1', 'Rounded hours': '1.25', Currency: 'USD', 'Billable rate': '95.50', 'Billable amount': '119.38', Client: expect.any(String), Project: 'Main project', Person: 'Mia member' });
    const yen = records.find((r) => r.Project === 'Second project')!;
    expect(yen).toMatchObject({ Hours: '2.333333', 'Rounded hours': '2.5', Currency: 'JPY', 'Billable rate': '5000', 'Billable amount': '12500', Client: 'Second client', Task: 'Testing' });
    const unbilled = records.find((r) => r.Billable === 'no')!;
    expect(unbilled['Billable amount']).toBe('');
  });

  it('for a member: their own entries, and no rate, currency or amount column', async () => {
    const records = await expectExportMatchesList(w.member, '', false);
    expect(records).toHaveLength(5);
    expect(new Set(records.map((r) => r.Person))).toEqual(new Set(['Mia member']));
    const body = (await exportOf(w.member, 'format=csv')).body;
    expect(body).not.toContain('95.5');
    expect(body).not.toContain('119.38');
    await expectExportMatchesList(w.member, `user_id=${w.other.userId}`, false);
    await expectExportMatchesList(w.member, 'from=2026-06-02', false);
  });

  it('for a manager: their own, teammates’ and managed projects’ entries (with rates by permission), or without', async () => {
    await expectExportMatchesList(w.manager, '', true);
    await expectExportMatchesList(w.manager, `project_id=${w.managed}`, true);
    await expectExportMatchesList(w.mgrPlain, '', false);
  });

  it('reads across batches in the list’s order, ties of date and created_at to the microsecond included', async () => {
    const ws = await makeTimeWorkspace(ctx.db, { name: 'Many' });
    // 2,100 entries on three dates, created in the same few microseconds: batch boundaries fall inside ties.
    await sql`
      insert into time_entries (company_id, id, user_id, project_id, task_id, spent_date, duration_seconds, billable, source, approval_status, created_at, updated_at)
      select ${ws.companyId}::uuid, gen_random_uuid(), ${ws.member.userId}::uuid, ${ws.project}::uuid, ${ws.task}::uuid,
             date '2026-03-01' + (g % 3), 60 * (1 + g % 50), true, 'api', 'unsubmitted',
             timestamptz '2026-03-01 12:00:00+00' + (g % 4) * interval '1 microsecond', timestamptz '2026-03-01 12:00:00+00'
        from generate_series(1, 2100) g`.execute(ctx.db);
    const res = await exportOf(ws.admin, 'format=csv');
    const ids = csvRecords(res.body).records.map((r) => r['Entry ID']);
    expect(ids).toHaveLength(2100);
    expect(ids).toEqual((await listAll(ws.admin, '')).map((e) => e.id));
  });
});

describe('the file', () => {
  it('CSV: its type, its name from the period, no caching', async () => {
    const res = await exportOf(w.admin, 'format=csv&from=2026-06-01&to=2026-06-30');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="time-entries-2026-06-01-to-2026-06-30.csv"; filename*=UTF-8''time-entries-2026-06-01-to-2026-06-30.csv`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect((await exportOf(w.admin, 'format=csv')).headers['content-disposition']).toContain('filename="time-entries.csv"');
  });

  it('CSV: people’s text a spreadsheet would run as a formula starts with an apostrophe; XLSX keeps it as plain text', async () => {
    const f = await makeTimeWorkspace(ctx.db, { name: 'Formulas' });
    await ctx.db.updateTable('projects').set({ name: '@SUM(1+1)' }).where('id', '=', f.project).execute();
    const notes = ['=HYPERLINK("http://evil","x")', '+49 30 1234', '-2 days', 'sum = fine'];
    for (const note of notes) expect((await postEntry(ctx.app, f.member, { project_id: f.project, task_id: f.task, hours: 1, spent_date: '2026-06-01', notes: note })).statusCode).toBe(201);
    const csv = csvRecords((await exportOf(f.admin, 'format=csv')).body).records;
    expect(csv.map((r) => r.Notes).sort()).toEqual([`'=HYPERLINK("http://evil","x")`, "'+49 30 1234", "'-2 days", 'sum = fine'].sort());
    expect(new Set(csv.map((r) => r.Project))).toEqual(new Set(["'@SUM(1+1)"]));
    // Figures keep their text: hours and amounts are never prefixed.
    expect(csv.every((r) => r.Hours === '1' && !r['Billable rate'].startsWith("'"))).toBe(true);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await exportOf(f.admin, 'format=xlsx')).rawPayload as never);
    const cells: unknown[] = [];
    workbook.worksheets[0].eachRow((row, i) => i > 1 && cells.push(row.getCell(BASE_HEADERS.indexOf('Notes') + 1).value));
    expect(cells.sort()).toEqual([...notes].sort());
  });

  it('XLSX opens with exceljs and holds the same rows as the CSV: dates as dates, decimals as numbers', async () => {
    const csv = csvRecords((await exportOf(w.admin, 'format=csv')).body);
    const res = await exportOf(w.admin, 'format=xlsx');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain('filename="time-entries.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as never);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('Time entries');
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(csv.headers);
    expect(rows).toHaveLength(csv.records.length + 1);
    const at = (name: string) => csv.headers.indexOf(name);
    for (const [i, record] of csv.records.entries()) {
      const row = rows[i + 1];
      expect((row[at('Date')] as Date).toISOString().slice(0, 10)).toBe(record.Date);
      expect(row[at('Entry ID')]).toBe(record['Entry ID']);
      expect(row[at('Hours')]).toBe(Number(record.Hours));
      expect(row[at('Billable amount')] ?? '').toBe(record['Billable amount'] === '' ? '' : Number(record['Billable amount']));
      expect(row[at('Notes')] ?? '').toBe(record.Notes);
      expect(row[at('Person')]).toBe(record.Person);
    }
  });
});

describe('bad input and access', () => {
  it('a missing or unknown format is a 400 naming format', async () => {
    for (const query of ['', 'format=pdf', 'format=CSV']) {
      const res = await get(w.admin, `/api/v2/time_entries/export?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().field, res.body).toBe('format');
    }
  });

  it('bad filter values give the list’s 400s', async () => {
    for (const filters of [
      'project_id=nope',
      'user_id=',
      'from=2026-06-10&to=2026-06-01',
      'from=2026-13-01',
      'is_billed=maybe',
      `task=${task2}&task_id=${w.task}`,
      'external_reference_id=X',
      'source=telegraph',
      'colour=blue',
    ]) {
      const list = await get(w.admin, `/api/v2/time_entries?${filters}`);
      const exported = await exportOf(w.admin, `format=csv&${filters}`);
      expect(list.statusCode, filters).toBe(400);
      expect(exported.statusCode, filters).toBe(400);
      expect({ error: exported.json().error, field: exported.json().field }, filters).toEqual({ error: list.json().error, field: list.json().field });
    }
  });

  it('paging parameters are not the export’s: every page is in the file', async () => {
    expect((await exportOf(w.admin, 'format=csv&page=2')).statusCode).toBe(400);
  });

  it('never another workspace’s entries, even with its ids as filters', async () => {
    const all = await exportOf(w.admin, 'format=csv');
    expect(all.body).not.toContain(foreignEntry);
    const byForeignProject = csvRecords((await exportOf(w.admin, `format=csv&project_id=${foreign.project}`)).body);
    expect(byForeignProject.records).toEqual([]);
    const byForeignPerson = csvRecords((await exportOf(w.owner, `format=csv&user_id=${foreign.member.userId}`)).body);
    expect(byForeignPerson.records).toEqual([]);
    const theirs = csvRecords((await exportOf(foreign.admin, 'format=csv')).body);
    expect(theirs.records.map((r) => r['Entry ID'])).toEqual([foreignEntry]);
  });

  it('a personal sync key and no credential are refused', async () => {
    const personal = await exportOf(w.memberPersonal, 'format=csv');
    expect(personal.statusCode).toBe(403);
    expect(personal.json().error).toBe('forbidden');
    const anonymous = await request(ctx.app, null, { method: 'GET', url: '/api/v2/time_entries/export?format=csv' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the amount', () => {
  it('is rounded hours × rate, half up to the currency’s minor unit at most cents (whole yen), exactly as formatMoney writes the decimal product', async () => {
    const { amountOf } = await import('../src/modules/tracking/time/export.ts');
    const { formatMoney } = await import('../src/money.ts');
    const hours = [0, 0.000001, 0.25, 1.1, 2.333333, 7.999999, 23.5, 24];
    const rates = ['0.00', '95.50', '5000.00', '0.125', '1234567.89', '33.3333'];
    for (const h of hours) {
      for (const rate of rates) {
        for (const currency of ['EUR', 'JPY', 'BHD']) {
          const digits = currency === 'JPY' ? 0 : 2; // BHD's three digits: to the cent (ENTRY_AMOUNT_MAX_DIGITS)
          const expected = formatMoney(new Decimal(h).mul(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP), currency);
          expect(amountOf(h, rate, currency), `${h} × ${rate} ${currency}`).toBe(expected);
        }
      }
    }
  });
});

describe('on the embedded database, the CSV is written by the database itself, byte for byte the Node.js writer’s file', () => {
  let odd: TimeWorkspace;
  const AT = new Date('2026-06-10T10:00:00.000Z');
  const principal = (caller: Caller, role: Principal['role']): Principal => ({
    ...operatorPrincipal(caller.companyId),
    kind: 'integration',
    userId: caller.userId,
    role,
    permissions: role === 'owner' ? MANAGER_PERMISSIONS : [],
  });
  const bytesOf = async (p: Principal, options: { writer?: 'node'; batch?: number } = {}, filter: EntryFilter = {}) => {
    const file = await exportEntries(ctx.db, p, filter, 'csv', AT, options);
    if (options.writer !== 'node') expect(file.csvLines !== undefined).toBe(csvCopyAvailable(ctx.db));
    return (await csvBytes(file)).toString('utf8');
  };

  beforeAll(async () => {
    odd = await makeTimeWorkspace(ctx.db, { name: 'Odd values' });
    const { companyId } = odd;
    // Names JavaScript's trim() changes (a no-break space, a tab, an ideographic space) and an empty last name.
    await ctx.db.updateTable('users').set({ first_name: '\u00a0Ann\t', last_name: '' }).where('id', '=', odd.member.userId).execute();
    await ctx.db.updateTable('users').set({ first_name: 'Bo', last_name: ' Lee\u3000' }).where('id', '=', odd.other.userId).execute();
    // The workspace's currency (USD) and three clients' with 3, 0 and 2 minor digits.
    const projects = [odd.project];
    for (const [name, currency] of [['Dinar client', 'KWD'], ['Yen client', 'JPY'], ['Euro, "quoted" client', 'EUR']]) {
      const client = await insertClient(ctx.db, companyId, name);
      await ctx.db.updateTable('clients').set({ currency }).where('id', '=', client).execute();
      projects.push(await insertProject(ctx.db, companyId, client, { name: `${currency} project` }));
    }
    const users = [odd.member.userId, odd.other.userId, odd.admin.userId, odd.manager.userId];
    const notes = [null, '', 'plain', 'Fix the "login", then\nthe logout; 3,5 €', ' spaced ', '\\.', 'a\rb', 'tab\there', 'ümlauts 日本語 🚀', 'comma,only', '"', 'x'.repeat(300)];
    // Text a spreadsheet would run as a formula, made inert by both writers alike.
    notes.push('=1+1', '+49 30 1234', '-2 days', '@SUM(A1)', '\tindented', '\r\nlead', "'quoted already");
    const rates = [null, '95.50', '0.01', '99999.99', '150.00', '0.00', '12.35'];
    const enteredHours = ['0', '0.000001', '23.999999', '24', '1.5', '0.1', '2.333333', '0.004167'];
    const seconds = [0, 1, 7, 13, 59, 60, 3599, 3600, 86399, 86400];
    let seed = 42;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const rows = Array.from({ length: 240 }, (_, i) => {
      const kind = i % 6;
      const hours = kind === 0 ? (next(24_000_001) / 1e6).toFixed(6) : kind === 3 ? enteredHours[i % enteredHours.length] : null;
      return {
        company_id: companyId,
        id: newId(),
        user_id: users[i % users.length],
        project_id: projects[i % projects.length],
        task_id: odd.task,
        spent_date: `2026-05-${String(1 + (i % 28)).padStart(2, '0')}`,
        duration_seconds: hours !== null ? Math.min(86400, Math.round(Number(hours) * 3600)) : kind === 2 ? seconds[i % seconds.length] : next(86401),
        hours_entered: hours,
        notes: notes[i % notes.length],
        billable: i % 5 !== 0,
        billable_rate: rates[i % rates.length],
        is_billed: i % 7 === 0,
        approval_status: (['unsubmitted', 'submitted', 'approved', 'rejected'] as const)[i % 4],
        source: 'api' as const,
        // Ties of created_at to the microsecond, broken by the id.
        created_at: sql<Date>`timestamptz '2026-05-01 08:00:00+00' + ${i % 5} * interval '1 microsecond'`,
        updated_at: AT,
      };
    });
    // Running timers, one per person: a run with microseconds, one started after the export's
    // moment (no time yet), one past the 24-hour cap, one of less than a second, and one 400 µs
    // short of 10 s, which is 10 s to the millisecond the driver reads; a running entry's entered
    // hours are not its hours.
    const runs = ['2026-06-10T09:39:25.432109Z', '2026-06-10T10:00:10.000000Z', '2026-06-09T08:00:00.250000Z', '2026-06-10T09:59:59.600000Z', '2026-06-10T09:59:50.000400Z'];
    const runners = [...users, odd.contractor.userId];
    for (const [i, started] of runs.entries()) {
      rows.push({ ...rows[i], id: newId(), user_id: runners[i], duration_seconds: 3600 * i, hours_entered: i === 0 ? '1.5' : null, is_billed: false, spent_date: '2026-06-10' });
      Object.assign(rows[rows.length - 1], { is_running: true, timer_started_at: sql<Date>`${started}::timestamptz` });
    }
    await ctx.db.insertInto('time_entries').values(rows).execute();
  });

  const RULES = [
    { rounding: 'none', rounding_minutes: 15 },
    { rounding: 'up', rounding_minutes: 15 },
    { rounding: 'down', rounding_minutes: 6 },
    { rounding: 'nearest', rounding_minutes: 15 },
    { rounding: 'nearest', rounding_minutes: 1 },
    { rounding: 'up', rounding_minutes: 60 },
    { rounding: 'nearest', rounding_minutes: 30 },
  ] as const;

  for (const rule of RULES) {
    it(`rounding ${rule.rounding} to ${rule.rounding_minutes} minutes: with rates (owner) and without (member), in one batch and in batches of 7`, async () => {
      await setWorkspace(ctx.db, odd.companyId, rule);
      for (const p of [principal(odd.owner, 'owner'), principal(odd.member, 'member')]) {
        const expected = await bytesOf(p, { writer: 'node' });
        expect(expected.split('\n').length).toBeGreaterThan(p.role === 'owner' ? 245 : 60);
        expect(await bytesOf(p)).toBe(expected);
        expect(await bytesOf(p, { batch: 7 })).toBe(expected);
      }
    });
  }

  it('with the list’s filters, and an empty export is the header alone', async () => {
    const owner = principal(odd.owner, 'owner');
    for (const filter of [{ userId: odd.other.userId }, { from: '2026-05-10', to: '2026-05-12' }, { isRunning: true }, { isBilled: true }, { from: '2030-01-01' }]) {
      expect(await bytesOf(owner, {}, filter)).toBe(await bytesOf(owner, { writer: 'node' }, filter));
    }
    expect(await bytesOf(owner, {}, { from: '2030-01-01' })).toBe(`\ufeff${[...BASE_HEADERS, ...RATE_HEADERS, 'Entry ID'].join(',')}\n`);
  });

  it('keeps to the caller’s workspace and rights (row-level security applies to the COPY too)', async () => {
    // A member's file has only their entries; another workspace's entries are never in it.
    const member = await bytesOf(principal(odd.member, 'member'));
    const ids = csvRecords(member).records.map((r) => r['Entry ID']);
    const own = await ctx.db.selectFrom('time_entries').select('id').where('company_id', '=', odd.companyId).where('user_id', '=', odd.member.userId).execute();
    expect(new Set(ids)).toEqual(new Set(own.map((r) => r.id)));
    expect(member).not.toContain(foreignEntry);
  });
});

describe('JS_WHITESPACE', () => {
  it('is exactly what String.prototype.trim() removes', () => {
    const trimmed: string[] = [];
    for (let code = 0; code <= 0xffff; code++) if (String.fromCharCode(code).trim() === '') trimmed.push(String.fromCharCode(code));
    expect(trimmed.sort().join('')).toBe([...JS_WHITESPACE].sort().join(''));
  });
});
