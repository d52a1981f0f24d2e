import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { withTenant } from '../src/db/tenant.ts';
import { lockWorkspaceImports } from '../src/modules/integrations/import/queries.ts';
import { runCli } from './cli-runner.ts';
import { makeTimeWorkspace, postEntry } from './fixtures/catalog.ts';
import { addMember, createWorkspaceWithOwner, createTestContext, onPostgres, request, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * Importing from other trackers (issue 27 item 3), through the web routes and `sheaf import`:
 * each tracker's fixture (test/fixtures/import, from their documented formats) with rates
 * that change kept as effective-dated rates, people matched by e-mail or name or invited,
 * duplicates skipped, the same file twice adding nothing, a bad row or a failure in the
 * middle leaving nothing behind, other roles refused, another workspace untouched.
 */

let ctx: TestContext;
let companyId: string;
let foreignId: string;
let admin: Caller;
let manager: Caller;
let member: Caller;
let adaId: string;

const fixture = (name: string) => readFileSync(new URL(`./fixtures/import/${name}.csv`, import.meta.url));

function form(file: Buffer | string, fields: Record<string, string> = {}, filename = 'export.csv') {
  const boundary = `----sheafimport${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const post = (caller: Caller, url: string, file: Buffer | string, fields: Record<string, string> = {}) => {
  const f = form(file, fields);
  return request(ctx.app, caller, { method: 'POST', url, payload: f.payload, headers: f.headers });
};

/** Everything of the workspace an import writes, counted. */
async function counts(company = companyId) {
  const one = async (table: string) =>
    Number((await sql<{ n: string }>`select count(*)::text as n from ${sql.table(table)} where company_id = ${company}`.execute(ctx.db)).rows[0].n);
  return {
    time_entries: await one('time_entries'),
    clients: await one('clients'),
    projects: await one('projects'),
    tasks: await one('tasks'),
    memberships: await one('memberships'),
    rates: await one('rates'),
    invitations: await one('invitations'),
    project_user_assignments: await one('project_user_assignments'),
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  const w = await createWorkspaceWithOwner(ctx.db, 'Importers');
  companyId = w.company.id;
  const foreign = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
  foreignId = foreign.company.id;
  const now = ctx.clock.now();
  admin = await sessionFor(ctx.db, await addMember(ctx.db, companyId, { role: 'administrator' }), now);
  manager = await sessionFor(ctx.db, await addMember(ctx.db, companyId, { role: 'manager' }), now);
  member = await sessionFor(ctx.db, await addMember(ctx.db, companyId, { role: 'member' }), now);
  const ada = await addMember(ctx.db, companyId, { role: 'member', firstName: 'Ada', lastName: 'Known', email: 'ada.known@import.test' });
  adaId = ada.userId;
  // The other workspace has a client of the same name and entries of its own: the import must not touch them.
  await ctx.db.insertInto('clients').values({ company_id: foreignId, id: '01900000-0000-7000-8000-0000000000f1', name: 'Northwind' }).execute();
});
afterAll(async () => ctx?.close());

describe('Toggl Track through the web routes', () => {
  it('refuses other roles, for the preview and the import', async () => {
    for (const caller of [manager, member]) {
      for (const url of ['/web/api/imports/preview', '/web/api/imports']) {
        const res = await post(caller, url, fixture('toggl'));
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json()).toMatchObject({ error: 'forbidden' });
      }
    }
  });

  it('refuses an empty file in a word the web app translates, writing nothing', async () => {
    const before = await counts();
    const res = await post(admin, '/web/api/imports/preview', Buffer.alloc(0));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain('empty_file');
    expect(await counts()).toEqual(before);
  });

  it('previews how the file maps, writing nothing', async () => {
    const before = await counts();
    const res = await post(admin, '/web/api/imports/preview', fixture('toggl'));
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({
      tracker: 'toggl',
      dry_run: true,
      rows: 7,
      // Line 9 repeats line 2: real time of its own, imported too.
      created: { clients: 2, projects: 2, tasks: 2, people: 1, invitations: 1, rates: 3, time_entries: 7 },
      skipped_count: 0,
      skipped: [],
    });
    expect(report.people).toEqual([
      { name: 'Ada Known', email: 'ada.known@import.test', status: 'member', rows: 5 },
      { name: 'Bea Newcomer', email: 'bea.new@import.test', status: 'invite', rows: 2 },
    ]);
    expect(report.tasks).toEqual([
      { name: 'Design', status: 'new', rows: 5 },
      { name: 'General', status: 'new', rows: 2 },
    ]);
    expect(report.projects).toContainEqual({ name: 'Website relaunch', client: 'Northwind', status: 'new', bill_by: 'people', rows: 6 });
    expect(report.rates).toHaveLength(3);
    expect(report.rates.every((r: { status: string }) => r.status === 'new')).toBe(true);
    expect(report).toMatchObject({ warnings_count: report.warnings.length });
    expect(await counts()).toEqual(before);
  });

  it('imports clients, projects, tasks, people, assignments, rates from their first date, and entries priced by them', async () => {
    const before = await counts();
    const res = await post(admin, '/web/api/imports', fixture('toggl'), { format: 'toggl' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ dry_run: false, created: { clients: 2, projects: 2, tasks: 2, people: 1, invitations: 1, rates: 3, time_entries: 7 }, skipped_count: 0 });
    const after = await counts();
    expect(after.time_entries - before.time_entries).toBe(7);
    expect(after.memberships - before.memberships).toBe(1);
    expect(after.invitations - before.invitations).toBe(1);
    expect(after.rates - before.rates).toBe(3);

    const entries = await sql<{ notes: string | null; spent_date: string; billable_rate: string | null; billable: boolean; email: string; source: string; ref: string; started_time: string | null; duration_seconds: number }>`
      select te.notes, te.spent_date::text, te.billable_rate::text, te.billable, u.email, te.source, te.external_reference_service as ref,
        te.started_time, te.duration_seconds
      from time_entries te join users u on u.id = te.user_id
      where te.company_id = ${companyId} order by te.spent_date, te.started_time`.execute(ctx.db);
    expect(entries.rows.map((e) => [e.spent_date, e.email, e.billable_rate, e.billable])).toEqual([
      ['2024-03-04', 'ada.known@import.test', '100.00', true],
      ['2024-03-04', 'ada.known@import.test', '100.00', true],
      ['2024-03-05', 'ada.known@import.test', '100.00', true],
      ['2024-03-06', 'bea.new@import.test', '90.00', true],
      ['2024-03-07', 'bea.new@import.test', null, false],
      ['2024-03-11', 'ada.known@import.test', '120.00', true],
      ['2024-03-12', 'ada.known@import.test', '120.00', true],
    ]);
    expect(entries.rows.every((e) => e.source === 'web' && e.ref === 'sheaf-import')).toBe(true);
    // The stored rate is the one the rates' own lookup finds, as for any create.
    const disagree = await sql<{ n: string }>`select count(*)::text as n from time_entries te where te.company_id = ${companyId}
      and te.billable_rate is distinct from (case when te.billable then billable_rate(te.company_id, te.project_id, te.task_id, te.user_id, te.spent_date) end)`.execute(ctx.db);
    expect(disagree.rows[0].n).toBe('0');
    expect(entries.rows[0]).toMatchObject({ notes: 'Wireframes, first round', started_time: '09:00', duration_seconds: 9000 });

    // The rates are effective-dated: the API's rate lookup agrees, and the new person got an invitation e-mail.
    const rates = await sql<{ from: string; rate: string; email: string }>`
      select r.effective_from::text as from, r.hourly_rate::text as rate, u.email from rates r join users u on u.id = r.user_id
      where r.company_id = ${companyId} order by u.email, r.effective_from`.execute(ctx.db);
    expect(rates.rows).toEqual([
      { from: '2024-03-04', rate: '100.00', email: 'ada.known@import.test' },
      { from: '2024-03-11', rate: '120.00', email: 'ada.known@import.test' },
      { from: '2024-03-06', rate: '90.00', email: 'bea.new@import.test' },
    ]);
    const mail = await sql<{ n: string }>`select count(*)::text as n from outbox where company_id = ${companyId} and kind = 'invitation' and payload::text like '%bea.new@import.test%'`.execute(ctx.db);
    expect(mail.rows[0].n).toBe('1');
    // Ada, a member, is assigned to the new project so her entries are valid work.
    const assigned = await sql<{ n: string }>`select count(*)::text as n from project_user_assignments pua join projects p on p.company_id = pua.company_id and p.id = pua.project_id
      where pua.company_id = ${companyId} and pua.user_id = ${adaId} and p.name = 'Website relaunch' and pua.is_active`.execute(ctx.db);
    expect(assigned.rows[0].n).toBe('1');
  });

  it('the same file twice adds nothing, and says why each row was skipped', async () => {
    const before = await counts();
    const res = await post(admin, '/web/api/imports', fixture('toggl'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ created: { clients: 0, projects: 0, tasks: 0, people: 0, invitations: 0, rates: 0, time_entries: 0 }, skipped_count: 7 });
    expect(res.json().skipped[0]).toEqual({ line: 2, reason: 'imported before (the same entry is in the workspace)', problem: 'imported_before' });
    // The file's rates are listed as in force already, none written (created.rates counts the new ones).
    expect(res.json().rates.map((r: { status: string }) => r.status)).toEqual(['existing', 'existing', 'existing']);
    expect(await counts()).toEqual(before);
  });

  it("leaves another workspace's records alone", async () => {
    const foreignClients = await ctx.db.selectFrom('clients').select(['id', 'name']).where('company_id', '=', foreignId).execute();
    expect(foreignClients).toEqual([{ id: '01900000-0000-7000-8000-0000000000f1', name: 'Northwind' }]);
    const f = await counts(foreignId);
    expect(f.time_entries).toBe(0);
    expect(f.projects).toBe(0);
  });
});

describe('bad input', () => {
  it('a wrong format or an unmappable row is a 400 naming the line, and nothing of the file is imported', async () => {
    const before = await counts();
    const wrong = await post(admin, '/web/api/imports', 'Name,Value\nx,1\n');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_request', field: 'file', error_description: expect.stringMatching(/^Line 1: the header is not that of a known export/) });
    // What is wrong, also as a word with the values it names, for the web app to say in the reader's language.
    expect(wrong.json()).toMatchObject({
      problem: 'not_a_known_export',
      values: { trackers: 'Toggl Track, Clockify, Harvest, solidtime, Kimai', header: 'Name, Value' },
      problems: [{ line: 1, message: 'unknown header', problem: 'unknown_header' }],
    });

    const text = fixture('clockify').toString().split('\n');
    text[3] = text[3].replace('"00:45:00","0.75"', '"00:45:00","zero"').replace('"04:45:00 PM"', '"4:99 PM"');
    const bad = await post(admin, '/web/api/imports', text.join('\n'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      error: 'invalid_request',
      error_description: "Line 4: End Time '4:99 PM' is not a time of day. (nothing was imported)",
      message: "Line 4: End Time '4:99 PM' is not a time of day. (nothing was imported)",
      field: 'file',
      problem: 'lines_at_fault',
      values: { line: 4, first: "End Time '4:99 PM' is not a time of day.", more: 0 },
      problems: [{ line: 4, message: "End Time '4:99 PM' is not a time of day.", problem: 'not_a_time', values: { column: 'End Time', value: '4:99 PM' } }],
    });

    const mismatch = await post(admin, '/web/api/imports', fixture('kimai'), { format: 'harvest' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error_description).toMatch(/^Line 1: this is not a Harvest export/);

    const badFormat = await post(admin, '/web/api/imports', fixture('kimai'), { format: 'excel' });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json()).toMatchObject({ field: 'format' });
    const badOrder = await post(admin, '/web/api/imports', fixture('clockify'), { date_order: 'year_first' });
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.json()).toMatchObject({ error: 'invalid_request', field: 'date_order' });

    const json = await request(ctx.app, admin, { method: 'POST', url: '/web/api/imports', payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toMatchObject({ field: 'file' });
    expect(await counts()).toEqual(before);
  });

  it('a failure in the middle of the writes leaves nothing behind', async () => {
    // The database refuses one entry after the clients, projects, tasks, people and rates were written.
    await sql`create function import_test_refuse() returns trigger language plpgsql as $$
      begin if new.notes = 'Kick-off, scope' then raise exception 'refused by the test'; end if; return new; end $$`.execute(ctx.db);
    await sql`create trigger import_test_refuse before insert on time_entries for each row execute function import_test_refuse()`.execute(ctx.db);
    try {
      const before = await counts();
      const res = await post(admin, '/web/api/imports', fixture('harvest'));
      expect(res.statusCode).toBe(500);
      expect(await counts()).toEqual(before);
    } finally {
      await sql`drop trigger import_test_refuse on time_entries`.execute(ctx.db);
      await sql`drop function import_test_refuse()`.execute(ctx.db);
    }
  });
});

describe('the other trackers', () => {
  it('Harvest matches people by name, keeps exact hours and the rate change', async () => {
    const res = await post(admin, '/web/api/imports', fixture('harvest'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ tracker: 'harvest', created: { people: 0, time_entries: 3, rates: 2 }, people: [{ email: 'ada.known@import.test', status: 'member' }] });
    const rows = await sql<{ d: string; hours: string | null; rate: string | null }>`
      select te.spent_date::text as d, te.hours_entered::text as hours, te.billable_rate::text as rate from time_entries te
      join projects p on p.company_id = te.company_id and p.id = te.project_id where te.company_id = ${companyId} and p.name = 'Audit' order by 1`.execute(ctx.db);
    expect(rows.rows).toEqual([
      { d: '2024-04-01', hours: '1.500000', rate: '110.00' },
      { d: '2024-04-02', hours: '2.250000', rate: '110.00' },
      { d: '2024-04-15', hours: '3.000000', rate: '125.00' },
    ]);
    const client = await ctx.db.selectFrom('clients').select('currency').where('company_id', '=', companyId).where('name', '=', 'Fabrikam').executeTakeFirstOrThrow();
    expect(client.currency).toBe('EUR');
  });

  it('Harvest: a row the old tracker invoiced is imported billed, so no Sheaf invoice bills it again', async () => {
    const header = fixture('harvest').toString().split('\n')[0];
    const row = (notes: string, invoiced: string) => `2024-05-02,Fabrikam,Invoiced before,INV-1,Analysis,${notes},2.0,Yes,${invoiced},No,Ada,Known,,Yes,110.0,220.0,0.0,0.0,Euro - EUR,`;
    const res = await post(admin, '/web/api/imports', [header, row('Invoiced in Harvest', 'Yes'), row('Not yet invoiced', 'No')].join('\n'));
    expect(res.statusCode, res.body).toBe(201);
    const rows = await sql<{ notes: string; is_billed: boolean; billable: boolean }>`
      select notes, is_billed, billable from time_entries where company_id = ${companyId} and notes in ('Invoiced in Harvest', 'Not yet invoiced') order by notes`.execute(ctx.db);
    expect(rows.rows).toEqual([
      { notes: 'Invoiced in Harvest', is_billed: true, billable: true },
      { notes: 'Not yet invoiced', is_billed: false, billable: true },
    ]);
  });

  it('Harvest: identical rows are as many entries (two separate hours are two hours), and the same file again adds nothing', async () => {
    const header = fixture('harvest').toString().split('\n')[0];
    const row = (notes: string) => `2024-04-22,Fabrikam,Support desk,SUP-1,Analysis,${notes},1.0,Yes,No,No,Ada,Known,,Yes,110.0,110.0,0.0,0.0,Euro - EUR,`;
    const logged = async (notes: string) =>
      (
        await sql<{ n: string; hours: string | null; ref: string }>`select count(*)::text as n, sum(hours_entered)::text as hours,
          string_agg(external_reference_id, ' ' order by external_reference_id) as ref from time_entries
          where company_id = ${companyId} and notes = ${notes}`.execute(ctx.db)
      ).rows[0];

    const twice = [header, row('Phone support'), row('Phone support')].join('\n');
    const first = await post(admin, '/web/api/imports', twice);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ rows: 2, created: { time_entries: 2 }, skipped_count: 0 });
    const stored = await logged('Phone support');
    expect(stored).toMatchObject({ n: '2', hours: '2.000000' });
    const [key, second] = stored.ref.split(' ');
    expect(second).toBe(`${key}:2`);
    const again = await post(admin, '/web/api/imports', twice);
    expect(again.json()).toMatchObject({ created: { time_entries: 0 }, skipped_count: 2 });
    expect(await logged('Phone support')).toEqual(stored);

    // A row imported once before (the key an import before identical rows were counted gave it) is
    // not imported again when the file repeats it: only the occurrence the workspace lacks is added.
    const once = await post(admin, '/web/api/imports', [header, row('Printer setup')].join('\n'));
    expect(once.json()).toMatchObject({ created: { time_entries: 1 } });
    const keyOnce = (await logged('Printer setup')).ref;
    const repeated = await post(admin, '/web/api/imports', [header, row('Printer setup'), row('Printer setup')].join('\n'));
    expect(repeated.json()).toMatchObject({ created: { time_entries: 1 }, skipped_count: 1, skipped: [{ line: 2, reason: 'imported before (the same entry is in the workspace)' }] });
    expect(await logged('Printer setup')).toEqual({ n: '2', hours: '2.000000', ref: `${keyOnce} ${keyOnce}:2` });
  });

  it('Clockify with day-first dates: told from the file, or chosen when every date reads either way', async () => {
    const [header, ...rows] = fixture('clockify').toString().trim().split('\n');
    const dayFirst = (d: string) => rows[0].replaceAll('"03/04/2024"', `"${d}"`).replace('Login screen', `Login screen ${d}`);
    // 31/03 tells the order: both rows are day first.
    const told = await post(admin, '/web/api/imports/preview', [header, dayFirst('05/03/2024'), dayFirst('31/03/2024')].join('\n'));
    expect(told.statusCode, told.body).toBe(200);
    expect(told.json()).toMatchObject({ rows: 2, warnings_count: 0 });
    // Only 05/03: read month first unless told, with a warning that names the date and how it was read.
    const either = [header, dayFirst('05/03/2024')].join('\n');
    const guessed = await post(admin, '/web/api/imports/preview', either);
    expect(guessed.json()).toMatchObject({
      warnings_count: 1,
      warnings: [{ line: 2, problem: 'dates_read_month_first', values: { column: 'Start Date', value: '05/03/2024', read_as: '2024-05-03' } }],
    });
    const chosen = await post(admin, '/web/api/imports', either, { date_order: 'day_first' });
    expect(chosen.statusCode, chosen.body).toBe(201);
    expect(chosen.json()).toMatchObject({ warnings_count: 0, created: { time_entries: 1 } });
    const stored = await sql<{ spent_date: string }>`select spent_date::text from time_entries where company_id = ${companyId} and notes = 'Login screen 05/03/2024'`.execute(ctx.db);
    expect(stored.rows).toEqual([{ spent_date: '2024-03-05' }]);
  });

  it("previews Kimai's German export as the English one, its rates kept", async () => {
    const res = await post(admin, '/web/api/imports/preview', fixture('kimai-de'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tracker: 'kimai', rows: 3, created: { time_entries: 3, rates: 2 } });
    expect(res.json().rates.map((r: { effective_from: string; hourly_rate: string }) => [r.effective_from, r.hourly_rate])).toEqual([
      ['2024-06-03', '85'],
      ['2024-06-10', '90'],
    ]);
  });

  it('Clockify, solidtime and Kimai import, each idempotent', async () => {
    for (const [tracker, entries, rates] of [
      ['clockify', 3, 2],
      ['solidtime', 2, 0],
      ['kimai', 3, 2],
    ] as const) {
      const first = await post(admin, '/web/api/imports', fixture(tracker));
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({ tracker, created: { time_entries: entries, rates } });
      const again = await post(admin, '/web/api/imports', fixture(tracker));
      expect(again.json()).toMatchObject({ created: { time_entries: 0, rates: 0 }, skipped_count: entries });
    }
    const night = await sql<{ started: string | null; seconds: number }>`select started_time as started, duration_seconds as seconds from time_entries
      where company_id = ${companyId} and notes = 'Incident review'`.execute(ctx.db);
    expect(night.rows).toEqual([{ started: null, seconds: 3600 }]);
  });
});

describe.skipIf(!onPostgres)("an import and the workspace's other writes", () => {
  it("holds back a second import, not the workspace's time entries", async () => {
    const w = await makeTimeWorkspace(ctx.db, { name: 'Importing' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // An import's transaction, as long as a large file's writes take.
    const importing = withTenant(ctx.db, w.companyId, async (trx) => {
      await lockWorkspaceImports(trx, w.companyId);
      locked();
      await held;
    });
    try {
      await isLocked;
      const entry = await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: '2026-06-01', hours: 1 });
      expect(entry.statusCode, entry.body).toBe(201);
      // A second import waits for the first (here: refused by a short lock timeout instead of waiting).
      await expect(
        withTenant(ctx.db, w.companyId, async (trx) => {
          await sql`set local lock_timeout = '200ms'`.execute(trx);
          await lockWorkspaceImports(trx, w.companyId);
        }),
      ).rejects.toMatchObject({ code: '55P03' });
    } finally {
      release();
      await importing;
    }
  });
});

describe('sheaf import', () => {
  const database = () => ({ db: ctx.db, kind: onPostgres ? 'postgresql' : 'pglite', close: async () => {} }) as unknown as Database;
  const sheaf = (...args: string[]) => runCli(args, { env: { LOG_LEVEL: 'silent' }, openDatabase: async () => database() });

  it('previews with --dry-run, imports, reports as text and JSON, and refuses bad input with the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-import-'));
    const file = join(dir, 'toggl.csv');
    writeFileSync(file, fixture('toggl').toString().replaceAll('Northwind', 'Northwind CLI'));
    const before = await counts();
    const dry = await sheaf('import', '--workspace', companyId, '--dry-run', file, '--json');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json).toMatchObject({ dry_run: true, created: { clients: 1, time_entries: 6 } });
    expect(await counts()).toEqual(before);

    const text = await sheaf('import', '--workspace', companyId, '--format', 'toggl', file);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('Toggl Track export, 7 entries.');
    expect(text.stdout).toContain('Created: 6 time entries, 1 clients');
    expect(text.stdout).toContain('Skipped: 1.');
    expect(text.stdout).toContain('line 8: skipped, imported before');
    const entries = await sql<{ n: string }>`select count(*)::text as n from time_entries where company_id = ${companyId} and source = 'cli'`.execute(ctx.db);
    expect(entries.rows[0].n).toBe('6');

    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, fixture('kimai').toString().replace('2024-06-10', '2024-02-30'));
    const refused = await sheaf('import', '--workspace', companyId, bad, '--json');
    expect(refused.code).toBe(2);
    expect(refused.error).toMatchObject({ error: 'invalid_request', message: expect.stringContaining("Line 3: Date '2024-02-30' is not a date.") });

    // An amount that makes a rate beyond Sheaf's largest one: a line problem in the preview and
    // the import alike, not a database overflow in the middle of the import.
    const dear = join(dir, 'dear.csv');
    const dearRow = 'Ada Known,ada.known@import.test,Northwind CLI,Website relaunch,Design,Short and dear,Yes,2024-03-13,09:00:00,2024-03-13,09:01:00,00:01:00,,5000000000.00';
    writeFileSync(dear, [fixture('toggl').toString().split('\n')[0], dearRow].join('\n'));
    for (const dryRun of [['--dry-run'], []]) {
      const overflow = await sheaf('import', '--workspace', companyId, ...dryRun, dear, '--json');
      expect(overflow.code, overflow.stderr).toBe(2);
      expect(overflow.error).toMatchObject({
        error: 'invalid_request',
        message: expect.stringContaining("Line 2: The rate 300000000000.00 an hour (Amount (EUR) '5000000000.00' for 00:01:00) is larger than Sheaf's largest rate."),
      });
    }
    expect((await sql<{ n: string }>`select count(*)::text as n from time_entries where company_id = ${companyId} and notes = 'Short and dear'`.execute(ctx.db)).rows[0].n).toBe('0');

    // Several bad lines: each listed (one a line in text, the array in JSON), the file named as typed, not as an option.
    const worse = join(dir, 'worse.csv');
    writeFileSync(worse, fixture('kimai').toString().replace('2024-06-10', '2024-02-30').replace('2024-06-03', 'someday'));
    const listed = await sheaf('import', '--workspace', companyId, worse);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toBe(
      [
        `sheaf: ${worse}: Line 2: Date 'someday' is not a date (YYYY-MM-DD, MM/DD/YYYY, DD/MM/YYYY or DD.MM.YYYY). (and 1 more line; nothing was imported)`,
        "  Line 2: Date 'someday' is not a date (YYYY-MM-DD, MM/DD/YYYY, DD/MM/YYYY or DD.MM.YYYY).",
        "  Line 3: Date '2024-02-30' is not a date.",
        '',
      ].join('\n'),
    );
    const listedJson = await sheaf('import', '--workspace', companyId, worse, '--json');
    expect(listedJson.code).toBe(2);
    expect(listedJson.error).toEqual({
      error: 'invalid_request',
      message: `${worse}: Line 2: Date 'someday' is not a date (YYYY-MM-DD, MM/DD/YYYY, DD/MM/YYYY or DD.MM.YYYY). (and 1 more line; nothing was imported)`,
      field: 'file',
      // Each line also as a word with its values, for a reader in another language (problems.ts).
      problems: [
        { line: 2, message: "Date 'someday' is not a date (YYYY-MM-DD, MM/DD/YYYY, DD/MM/YYYY or DD.MM.YYYY).", problem: 'not_a_date_format', values: { column: 'Date', value: 'someday' } },
        { line: 3, message: "Date '2024-02-30' is not a date.", problem: 'not_a_date', values: { column: 'Date', value: '2024-02-30' } },
      ],
    });

    // A Toggl file without its Billable column: one problem, the missing column, not one per row.
    const noBillable = join(dir, 'no-billable.csv');
    writeFileSync(noBillable, [fixture('toggl').toString().split('\n')[0].replace(',Billable,', ','), 'Ada Known,ada.known@import.test,Northwind CLI,Website relaunch,Design,Kept,2024-03-15,09:00:00,2024-03-15,10:00:00,01:00:00,,100.00'].join('\n'));
    const column = await sheaf('import', '--workspace', companyId, noBillable);
    expect(column.code).toBe(2);
    expect(column.stderr).toBe(`sheaf: ${noBillable}: Line 1: the header of this Toggl Track export lacks Billable, which every row needs: export the report again with all its columns.\n`);

    const usage = await sheaf('import', '--workspace', companyId, '--format', 'excel', file);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--format must be one of toggl, clockify, harvest, solidtime, kimai');
    const order = await sheaf('import', '--workspace', companyId, '--date-order', 'day-first', file);
    expect(order.code).toBe(2);
    expect(order.stderr).toContain('--date-order must be one of month_first, day_first (or auto)');
    const [clockifyHeader, clockifyRow] = fixture('clockify').toString().split('\n');
    const european = join(dir, 'clockify-eu.csv');
    writeFileSync(european, [clockifyHeader, clockifyRow.replaceAll('"03/04/2024"', '"07/03/2024"').replace('Login screen', 'Login screen CLI')].join('\n'));
    const dayFirst = await sheaf('import', '--workspace', companyId, '--date-order', 'day_first', european);
    expect(dayFirst.code, dayFirst.stderr).toBe(0);
    expect(dayFirst.stdout).not.toContain('read month first');
    const stored = await sql<{ spent_date: string }>`select spent_date::text from time_entries where company_id = ${companyId} and notes = 'Login screen CLI'`.execute(ctx.db);
    expect(stored.rows).toEqual([{ spent_date: '2024-03-07' }]);
    const missing = await sheaf('import', '--workspace', companyId, join(dir, 'nope.csv'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });

  it("invites a newcomer by an e-mail that names the workspace (the operator's principal has no workspace name)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-import-'));
    const file = join(dir, 'newcomer.csv');
    const row = 'Cleo Newcomer,cleo.cli@import.test,Northwind CLI,Website relaunch,Design,First day,Yes,2024-03-14,09:00:00,2024-03-14,10:00:00,01:00:00,,100.00';
    writeFileSync(file, [fixture('toggl').toString().split('\n')[0], row].join('\n'));
    const res = await sheaf('import', '--workspace', companyId, file, '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({ created: { people: 1, invitations: 1, time_entries: 1 } });
    const mail = await sql<{ payload: { subject: string; text: string } }>`select payload from outbox
      where company_id = ${companyId} and kind = 'invitation' and payload::text like '%cleo.cli@import.test%'`.execute(ctx.db);
    expect(mail.rows).toHaveLength(1);
    const payload = typeof mail.rows[0].payload === 'string' ? JSON.parse(mail.rows[0].payload) : mail.rows[0].payload;
    expect(payload.subject).toBe('Operator invited you to Importers on Sheaf');
    expect(payload.text).toContain('Operator invited you to join Importers on Sheaf');
  });
});
