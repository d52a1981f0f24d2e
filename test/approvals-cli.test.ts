import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { main } from '../src/cli/main.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';
import { DATABASE_URL, dropSchema, migratedDataDir, uniqueSchema } from './helpers.ts';
import { SharedDatabase } from './cli-runner.ts';
import { insertEntryRow, postEntry } from './fixtures/catalog.ts';
import { approveAs, freshPerson, makeApprovalWorkspace, statusesOf, submitAs, type ApprovalWorkspace } from './fixtures/approvals.ts';

/**
 * `sheaf admin approvals withdraw` through `main`, on the database the CLI
 * opens (an embedded one in a temporary directory, or a PostgreSQL schema of
 * its own). Between commands the test works on the same database (one open
 * database shared with the commands) to approve time over HTTP and to check the
 * week lock before and after the withdrawal.
 */

describe('sheaf admin approvals withdraw', () => {
  const dataDir = migratedDataDir();
  const schema = DATABASE_URL ? uniqueSchema() : undefined;
  const env: Record<string, string | undefined> = schema
    ? { DATABASE_URL, DATABASE_SCHEMA: schema, LOG_LEVEL: 'silent' }
    : { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  /** The commands and withApp share one open database (test/cli-runner.ts): none pays for opening it again. */
  const shared = new SharedDatabase();
  let w: ApprovalWorkspace;

  async function sheaf(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, openDatabase: shared.open });
    const parse = (text: string) => {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    };
    return { code, out: out.join('\n'), err: err.join('\n'), json: parse(out.join('\n')), error: parse(err.join('\n')) };
  }

  /** Opens the CLI's database with an API on it, runs `fn`, closes both. */
  async function withApp<T>(fn: (app: FastifyInstance, db: Kysely<DB>) => Promise<T>): Promise<T> {
    const database = await shared.open(loadConfig(env));
    try {
      await migrate(database.db);
      const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '100000' }, { dataDir: null }), db: database.db });
      try {
        return await fn(app, database.db);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    w = await withApp((_app, db) => makeApprovalWorkspace(db));
  }, 120_000);

  afterAll(async () => {
    await shared.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (schema) await dropSchema(schema);
  });

  const newEntry = (app: FastifyInstance, person: ApprovalWorkspace['member'], date: string) =>
    postEntry(app, person, { project_id: w.project, task_id: w.task, spent_date: date, hours: 1 });

  it('unlocks the week: approved items go back to submitted, new time goes in again, the audit log says why', async () => {
    // week of Monday 2025-03-03: approve two entries and an entry on the managed project
    const { person, ids } = await withApp(async (app, db) => {
      const p = await freshPerson(db, w);
      const a = (await newEntry(app, p, '2025-03-03')).json().id;
      const b = (await newEntry(app, p, '2025-03-05')).json().id;
      const m = (await postEntry(app, p, { project_id: w.managed, task_id: w.managedTask, spent_date: '2025-03-04', hours: 2 })).json().id;
      expect((await submitAs(app, p, { from: '2025-03-03', to: '2025-03-09' })).statusCode).toBe(200);
      expect((await approveAs(app, w.owner, { user_id: p.userId, from: '2025-03-03', to: '2025-03-09' })).json()).toMatchObject({ time_entry_count: 3 });
      // locked: before the withdrawal no new time goes into the week
      const locked = await newEntry(app, p, '2025-03-07');
      expect(locked.statusCode).toBe(409);
      expect(locked.json()).toMatchObject({ error: 'approved_timesheet_week_locked', week_start: '2025-03-03', week_end: '2025-03-09' });
      return { person: p, ids: [a, b, m] };
    });

    // only the managed project, by e-mail: the other entries keep the week locked
    const partial = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.email.toUpperCase(), '--from', '2025-03-01', '--to', '2025-03-31', '--project', w.managed, '--json');
    expect(partial.code, partial.err).toBe(0);
    expect(partial.json).toMatchObject({
      user_id: person.userId,
      project_id: w.managed,
      time_entry_count: 1,
      expense_count: 0,
      billed_kept_count: 0,
      unlocked_weeks: [],
      still_locked_weeks: [{ week_start: '2025-03-03', week_end: '2025-03-09' }],
      reason: null,
    });

    const reason = 'Approved by mistake: the client asked for corrections.';
    const res = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.userId, '--from', '2025-03-03', '--to', '2025-03-09', '--reason', reason, '--json');
    expect(res.code, res.err).toBe(0);
    expect(res.json).toEqual({
      user_id: person.userId,
      from: '2025-03-03',
      to: '2025-03-09',
      project_id: null,
      time_entry_count: 2,
      expense_count: 0,
      billed_kept_count: 0,
      unlocked_weeks: [{ week_start: '2025-03-03', week_end: '2025-03-09' }],
      still_locked_weeks: [],
      reason,
    });

    await withApp(async (app, db) => {
      expect(await statusesOf(db, w.companyId, ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'submitted'])));
      // after the withdrawal the week is open again: new time goes in, the entries can be changed
      expect((await newEntry(app, person, '2025-03-07')).statusCode).toBe(201);
      const get = await app.inject({ method: 'GET', url: `/api/v2/time_entries/${ids[0]}`, headers: person.headers });
      expect(get.json()).toMatchObject({ approval_status: 'submitted', is_locked: false, is_closed: false });
      const logs = await db
        .selectFrom('audit_logs')
        .selectAll()
        .where('company_id', '=', w.companyId)
        .where('action', '=', 'timesheet.approval_withdrawn')
        .where('subject_id', '=', person.userId)
        .orderBy('id')
        .execute();
      expect(logs).toHaveLength(2);
      expect(logs[1]).toMatchObject({ actor_user_id: null, credential_id: null });
      expect(logs[1].details).toMatchObject({ reason, time_entry_count: 2, time_entry_ids: [ids[0], ids[1]].sort() });
      // and it can be approved again
      expect((await approveAs(app, w.owner, { user_id: person.userId, from: '2025-03-03', to: '2025-03-09' })).statusCode).toBe(409); // the new entry is unsubmitted
    });
  }, 120_000);

  it('billed approved items stay approved and keep their week locked, and the withdrawal says so (after a restart too); nothing approved is a 0 count', async () => {
    // week 2025-04-07..13: only billed approved time (the freelancer who approved and invoiced);
    // week 2025-04-14..20: billed approved time and unbilled approved time
    const { person, billedOnly, billedMixed, unbilled } = await withApp(async (_app, db) => {
      const p = await freshPerson(db, w);
      const row = (spentDate: string, billed: boolean) =>
        insertEntryRow(db, w.companyId, { userId: p.userId, projectId: w.project, taskId: w.task, spentDate, approval: 'approved', billed });
      return { person: p, billedOnly: await row('2025-04-08', true), billedMixed: await row('2025-04-15', true), unbilled: await row('2025-04-16', false) };
    });
    const text = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.userId, '--from', '2025-04-01', '--to', '2025-04-30');
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/time_entry_count\s+1/);
    expect(text.out).toMatch(/billed_kept_count\s+2/);
    // readable: no bare "-" for the weeks; each week still locked with why
    expect(text.out).toMatch(/unlocked_weeks\s+none/);
    expect(text.out).toContain('2025-04-07..2025-04-13 stays locked: 1 time entry is billed on an invoice');
    expect(text.out).toContain('2025-04-14..2025-04-20 stays locked: 1 time entry is billed on an invoice');
    expect(text.out).not.toMatch(/still_locked_weeks\s+-/);

    const again = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.userId, '--from', '2025-04-01', '--to', '2025-04-30', '--json');
    expect(again.json).toMatchObject({ time_entry_count: 0, billed_kept_count: 2, unlocked_weeks: [] });
    expect(again.json.still_locked_weeks).toEqual([
      {
        week_start: '2025-04-07',
        week_end: '2025-04-13',
        held_by: [{ reason: 'billed', message: expect.stringContaining('billed on an invoice'), time_entry_ids: [billedOnly], expense_ids: [], invoice_ids: [] }],
      },
      {
        week_start: '2025-04-14',
        week_end: '2025-04-20',
        held_by: [{ reason: 'billed', message: expect.stringContaining('billed on an invoice'), time_entry_ids: [billedMixed], expense_ids: [], invoice_ids: [] }],
      },
    ]);

    // after the restart (the database opened again) the report holds: the billed weeks refuse new time
    await withApp(async (app, db) => {
      expect(await statusesOf(db, w.companyId, [billedOnly, billedMixed, unbilled])).toEqual({ [billedOnly]: 'approved', [billedMixed]: 'approved', [unbilled]: 'submitted' });
      expect((await newEntry(app, person, '2025-04-09')).json()).toMatchObject({ error: 'approved_timesheet_week_locked', week_start: '2025-04-07' });
      expect((await newEntry(app, person, '2025-04-17')).json()).toMatchObject({ error: 'approved_timesheet_week_locked', week_start: '2025-04-14' });
      expect((await newEntry(app, person, '2025-04-21')).statusCode).toBe(201);
    });
    const none = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.userId, '--from', '2025-05-01', '--to', '2025-05-31', '--json');
    expect(none.json).toMatchObject({ time_entry_count: 0, expense_count: 0, billed_kept_count: 0, unlocked_weeks: [], still_locked_weeks: [] });
    const noneText = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.userId, '--from', '2025-05-01', '--to', '2025-05-31');
    expect(noneText.out).toMatch(/unlocked_weeks\s+none/);
    expect(noneText.out).toMatch(/still_locked_weeks\s+none/);
  }, 120_000);

  it('a withdrawal of part of a week unlocks it only when nothing approved is left in it, and names what is left', async () => {
    // week 2025-06-02..08: approved on Monday (project), Wednesday (project) and Thursday (managed project)
    const { person, mon, wed, thu } = await withApp(async (_app, db) => {
      const p = await freshPerson(db, w);
      const row = (spentDate: string, projectId: string, taskId: string) =>
        insertEntryRow(db, w.companyId, { userId: p.userId, projectId, taskId, spentDate, approval: 'approved' });
      return { person: p, mon: await row('2025-06-02', w.project, w.task), wed: await row('2025-06-04', w.project, w.task), thu: await row('2025-06-05', w.managed, w.managedTask) };
    });
    const res = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.userId, '--from', '2025-06-03', '--to', '2025-06-30', '--project', w.project, '--json');
    expect(res.code, res.err).toBe(0);
    expect(res.json).toMatchObject({ time_entry_count: 1, unlocked_weeks: [] });
    expect(res.json.still_locked_weeks).toEqual([
      {
        week_start: '2025-06-02',
        week_end: '2025-06-08',
        held_by: [
          { reason: 'outside_period', message: expect.stringContaining('2025-06-03..2025-06-30'), time_entry_ids: [mon], expense_ids: [] },
          { reason: 'other_project', message: expect.stringContaining('another project'), time_entry_ids: [thu], expense_ids: [] },
        ],
      },
    ]);
    const text = await sheaf('admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', person.userId, '--from', '2025-06-02', '--to', '2025-06-08');
    expect(text.out).toMatch(/time_entry_count\s+2/);
    expect(text.out).toMatch(/unlocked_weeks\s+2025-06-02\.\.2025-06-08/);
    expect(text.out).toMatch(/still_locked_weeks\s+none/);
    await withApp(async (app, db) => {
      expect(await statusesOf(db, w.companyId, [mon, wed, thu])).toEqual({ [mon]: 'submitted', [wed]: 'submitted', [thu]: 'submitted' });
      expect((await newEntry(app, person, '2025-06-06')).statusCode).toBe(201);
    });
  }, 120_000);

  it('bad options exit 2 before the database is opened; unknown workspace, person or project exit 3', async () => {
    const base = ['admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', w.member.userId];
    for (const args of [
      [...base.slice(0, 5), '--from', '2025-01-01', '--to', '2025-01-31'], // no --user
      [...base, '--to', '2025-01-31'],
      [...base, '--from', '2025-01-01'],
      [...base, '--from', '2025-02-30', '--to', '2025-03-31'],
      [...base, '--from', '2025-03-02', '--to', '2025-03-01'],
      [...base, '--from', '2024-01-01', '--to', '2025-01-01'],
      [...base, '--from', '2025-01-01', '--to', '2025-01-31', '--project', 'nope'],
      [...base, '--from', '2025-01-01', '--to', '2025-01-31', '--reason', 'x'.repeat(2001)],
      [...base, '--from', '2025-01-01', '--to', '2025-01-31', '--colour', 'red'],
      ['admin', 'approvals', 'withdraw', '--workspace', 'nope', '--user', w.member.userId, '--from', '2025-01-01', '--to', '2025-01-31'],
      ['admin', 'approvals', 'withdraw', '--workspace', w.companyId, '--user', 'nobody', '--from', '2025-01-01', '--to', '2025-01-31'],
    ]) {
      const res = await sheaf(...args, '--json');
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.error.error).toBe('usage');
    }
    const longPeriod = await sheaf(...base, '--from', '2024-01-01', '--to', '2025-01-01');
    expect(longPeriod.err).toContain('--to');
    for (const args of [
      ['admin', 'approvals', 'withdraw', '--workspace', newId(), '--user', w.member.userId, '--from', '2025-01-01', '--to', '2025-01-31'],
      [...base.slice(0, 5), '--user', 'nobody@example.com', '--from', '2025-01-01', '--to', '2025-01-31'],
      [...base.slice(0, 5), '--user', newId(), '--from', '2025-01-01', '--to', '2025-01-31'],
      [...base, '--from', '2025-01-01', '--to', '2025-01-31', '--project', newId()],
    ]) {
      const res = await sheaf(...args, '--json');
      expect(res.code, args.join(' ')).toBe(3);
      expect(res.error.error).toBe('not_found');
    }
    const help = await sheaf('help', 'admin', 'approvals', 'withdraw');
    expect(help.code).toBe(0);
    expect(help.out).toContain('sheaf admin approvals withdraw --workspace ID --user ID|EMAIL --from YYYY-MM-DD --to YYYY-MM-DD [--project ID] [--reason TEXT]');
  }, 120_000);
});
