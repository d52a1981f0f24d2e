import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { newId } from '../src/ids.ts';
import { assignUser, insertClient, insertTask, assignTaskRow } from './fixtures/catalog-rows.ts';
import { createTestContext, createWorkspaceWithOwner, request, type Caller, type TestContext } from './helpers.ts';

/**
 * The uninvoiced report's arithmetic (issue 24): the workspace rounding rule is folded into the
 * SQL as a parameter, open time is read from its own partial index, and each entry is priced in
 * integer cents (bigint below 900,000 an hour, the numeric formula above). Whatever the rule,
 * every figure must equal the per-entry definition, written here with the SQL functions
 * themselves: seconds_to_hours(rounded_seconds(…)) and round(hours × billable_rate(…), 2) per
 * entry, summed.
 */

const SECONDS = [1, 7, 59, 61, 899, 900, 1799, 1800, 3599, 3601, 5400, 86_400];
const RULES: Array<['none' | 'up' | 'nearest' | 'down', number]> = [
  ['none', 15],
  ['up', 15],
  ['nearest', 6],
  ['down', 1],
  ['up', 7],
];

describe('uninvoiced report: exact per-entry arithmetic', () => {
  let ctx: TestContext;
  let owner: Caller;
  let companyId: string;
  const projects: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Exact Co'));
    companyId = owner.companyId;
    const client = await insertClient(ctx.db, companyId, 'Exact Client');
    const task = await insertTask(ctx.db, companyId, { name: 'Work' });
    const other = await insertTask(ctx.db, companyId, { name: 'Other' });
    const rate = (scope: { projectId?: string; taskId?: string; userId?: string }, from: string, hourly: string) =>
      ctx.db
        .insertInto('rates')
        .values({ company_id: companyId, id: newId(), kind: 'billable', project_id: scope.projectId ?? null, task_id: scope.taskId ?? null, user_id: scope.userId ?? null, effective_from: from, hourly_rate: hourly })
        .execute();
    const project = async (name: string, billBy: 'project' | 'tasks' | 'people' | 'none') => {
      const id = newId();
      await ctx.db.insertInto('projects').values({ company_id: companyId, id, client_id: client, name, bill_by: billBy }).execute();
      await assignTaskRow(ctx.db, companyId, id, task);
      await assignTaskRow(ctx.db, companyId, id, other);
      await assignUser(ctx.db, companyId, id, owner.userId);
      projects.push(id);
      return id;
    };
    // Rates that make half cents (0.01 × half an hour), odd cents (33.33), and rates above the
    // 900,000 an hour that integer cents take (the numeric formula), changing mid-month.
    const cheap = await project('Cheap', 'project');
    await rate({ projectId: cheap }, '2025-01-01', '0.01');
    await rate({ projectId: cheap }, '2025-11-15', '0.03');
    const odd = await project('Odd', 'tasks');
    await rate({ projectId: odd, taskId: task }, '2025-01-01', '33.33');
    await rate({ projectId: odd, taskId: other }, '2025-01-01', '1234567.89');
    const dear = await project('Dear', 'people');
    await rate({ userId: owner.userId }, '2025-01-01', '950000.00');
    await rate({ projectId: dear, userId: owner.userId }, '2025-11-20', '77.77');
    const none = await project('None', 'none');
    await rate({ projectId: none }, '2025-01-01', '100.00');

    const statuses = ['approved', 'approved', 'submitted', 'rejected'] as const;
    let n = 0;
    for (const [p, projectId] of projects.entries()) {
      for (const [i, seconds] of SECONDS.entries()) {
        n++;
        // Every fourth day from late October to early December: months the reports keep totals
        // of (totals.ts) and days around them that they read live, depending on the range.
        const day = new Date(Date.UTC(2025, 9, 20 + i * 4 + p)).toISOString().slice(0, 10);
        await ctx.db
          .insertInto('time_entries')
          .values({
            company_id: companyId,
            id: newId(),
            user_id: owner.userId,
            project_id: projectId,
            task_id: n % 2 ? task : other,
            spent_date: day,
            duration_seconds: seconds,
            billable: n % 5 !== 0,
            is_billed: n % 7 === 0,
            source: 'api',
            approval_status: statuses[n % statuses.length],
          })
          .execute();
      }
    }
  });
  afterAll(() => ctx.close());

  /** The report's figures by the per-entry definition, per project. */
  async function expected(from: string, to: string) {
    const r = await sql<{ project_id: string; total_hours: string | null; uninvoiced_hours: string | null; amount: string | null }>`
      with e as (
        select te.*, seconds_to_hours(rounded_seconds(te.duration_seconds, co.rounding, co.rounding_minutes)) as hours,
          te.billable and p.is_billable and not te.is_billed and te.approval_status = any(
            case when co.invoice_before_approval or not co.approvals_enabled then array['unsubmitted', 'submitted', 'approved'] else array['approved'] end) as open
        from time_entries te join companies co on co.id = te.company_id join projects p on p.company_id = te.company_id and p.id = te.project_id
        where te.company_id = ${companyId} and not te.is_running and te.approval_status <> 'rejected'
          and te.spent_date between ${from}::date and ${to}::date
      )
      select project_id, sum(hours) as total_hours, sum(hours) filter (where open) as uninvoiced_hours,
        sum(round(hours * billable_rate(company_id, project_id, task_id, user_id, spent_date), 2)) filter (where open) as amount
      from e group by project_id`.execute(ctx.db);
    return Object.fromEntries(
      r.rows.map((x) => [x.project_id, { total_hours: Number(x.total_hours ?? 0), uninvoiced_hours: Number(x.uninvoiced_hours ?? 0), uninvoiced_amount: Number(x.amount ?? 0) }]),
    );
  }

  // All kept (whole months), kept months with live days around them, all live.
  const RANGES = [
    ['2025-10-01', '2025-12-31'],
    ['2025-10-25', '2025-12-02'],
    ['2025-11-03', '2025-11-30'],
  ];
  for (const [mode, minutes] of RULES) {
    for (const beforeApproval of [false, true]) {
      it(`rounding ${mode} ${minutes} min, ${beforeApproval ? 'invoicing before approval' : 'approved work only'}: every figure as the per-entry definition`, async () => {
        await ctx.db.updateTable('companies').set({ rounding: mode, rounding_minutes: minutes, invoice_before_approval: beforeApproval }).where('id', '=', companyId).execute();
        for (const [from, to] of RANGES) {
          const res = await request(ctx.app, owner, { method: 'GET', url: `/api/v2/reports/uninvoiced?from=${from}&to=${to}` });
          expect(res.statusCode, res.body).toBe(200);
          const want = await expected(from, to);
          const got = Object.fromEntries(
            res.json().results.map((x: { project_id: string; total_hours: number; uninvoiced_hours: number; uninvoiced_amount: number }) => [
              x.project_id,
              { total_hours: x.total_hours, uninvoiced_hours: x.uninvoiced_hours, uninvoiced_amount: x.uninvoiced_amount },
            ]),
          );
          expect(Object.keys(got).sort(), `${from}..${to}`).toEqual([...projects].sort());
          expect(got, `${from}..${to}`).toEqual(want);
          // The rates above 900,000 an hour were reached (the numeric formula), and something is open.
          if (from === RANGES[0][0]) expect(Math.max(...Object.values(got).map((x) => x.uninvoiced_amount))).toBeGreaterThan(900_000);
        }
      });
    }
  }
});
