import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import { roundedMicroSql } from '../src/modules/tracking/week/index.ts';
import { roundMicroHours, type RoundingRule } from '../src/modules/tracking/week/rules.ts';
import { insertRate, makeTimeWorkspace, postEntry, type TimeWorkspace } from './fixtures/catalog.ts';
import { createTestContext, request, type TestContext } from './helpers.ts';

/**
 * One entry, one figure: an entry's rounded hours are the same in the time entries list, the
 * three reports (uninvoiced, project budget, team time) and an invoice import, and its amount
 * the same in the uninvoiced report and on the invoice. Before the review of 2026-12-06 the
 * reports counted an entry's whole seconds where the rest counted its hours as entered (1.000138
 * hours: 1 in the reports, 1.000138 on the entry), and a 10-minute entry rounded up to 10 minutes
 * was 20 minutes on the entry and the invoice (its hours, 0.166667, lie a third of a micro-hour
 * past the step) but 10 in the reports.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const sum = (values: Array<number | string>) => values.reduce<Decimal>((a, v) => a.add(v), new Decimal(0));

async function workspaceWith(rule: RoundingRule, entries: Array<Record<string, unknown>>, rate = '100') {
  const w: TimeWorkspace = await makeTimeWorkspace(ctx.db, { name: `Hours ${rule.rounding} ${rule.rounding_minutes}` });
  await ctx.db
    .updateTable('companies')
    .set({ ...rule, approvals_enabled: false })
    .where('id', '=', w.companyId)
    .execute();
  await ctx.db.updateTable('projects').set({ budget_by: 'project', budget: '100' }).where('id', '=', w.project).execute();
  await insertRate(ctx.db, w.companyId, { projectId: w.project }, '2026-01-01', rate);
  for (const [i, entry] of entries.entries()) {
    const res = await postEntry(ctx.app, w.owner, { project_id: w.project, task_id: w.task, spent_date: `2026-11-${String(10 + i).padStart(2, '0')}`, ...entry });
    expect(res.statusCode, res.body).toBe(201);
  }
  return w;
}

async function figures(w: TimeWorkspace) {
  const get = async (url: string) => {
    const res = await request(ctx.app, w.owner, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const list = (await get('/api/v2/time_entries?from=2026-11-01&to=2026-11-30&per_page=2000')).time_entries as Array<{ rounded_hours: number }>;
  const uninvoiced = (await get('/api/v2/reports/uninvoiced?from=20261101&to=20261130')).results[0];
  const budget = (await get('/api/v2/reports/project_budget')).results.find((r: { project_id: string }) => r.project_id === w.project);
  const team = (await get('/api/v2/reports/time/team?from=20261101&to=20261130')).results as Array<{ total_hours: number }>;
  const invoice = await request(ctx.app, w.owner, {
    method: 'POST',
    url: '/api/v2/invoices',
    payload: { client_id: w.clientId, line_items_import: { time: { summary_type: 'detailed' } } },
  });
  expect(invoice.statusCode, invoice.body).toBe(201);
  const lines = invoice.json().line_items as Array<{ amount: number; quantity: number }>;
  return {
    quantities: lines.map((l) => l.quantity),
    entries: list.map((e) => e.rounded_hours),
    listHours: sum(list.map((e) => e.rounded_hours)).toString(),
    reports: [uninvoiced.total_hours, uninvoiced.uninvoiced_hours, budget.budget_spent, sum(team.map((t) => t.total_hours)).toNumber()].map(String),
    reportAmount: String(uninvoiced.uninvoiced_amount),
    invoiceAmount: sum(lines.map((l) => l.amount)).toString(),
  };
}

describe('an entry’s hours agree everywhere', () => {
  it('hours entered with more places than whole seconds hold: the reports count them as entered', async () => {
    const hours = [1.000138, 1.2345, 0.333, 1.667, 0.1];
    const f = await figures(await workspaceWith({ rounding: 'none', rounding_minutes: 15 }, hours.map((h) => ({ hours: h }))));
    expect(f.entries.sort()).toEqual([...hours].sort());
    expect(f.listHours).toBe('4.334638');
    expect(f.reports).toEqual(Array(4).fill('4.334638'));
    // 100.01 + 123.45 + 33.30 + 166.70 + 10.00
    expect(f.reportAmount).toBe('433.46');
    expect(f.invoiceAmount).toBe('433.46');
  });

  it('a 10-minute entry rounded up to 10 minutes is 10 minutes, timed or typed, on the entry, the reports and the invoice', async () => {
    const f = await figures(
      await workspaceWith({ rounding: 'up', rounding_minutes: 10 }, [{ started_time: '09:00', ended_time: '09:10' }, { hours: 0.166667 }, { hours: 0.1 }]),
    );
    expect(f.entries).toEqual([0.166667, 0.166667, 0.166667]);
    expect(f.reports).toEqual(Array(4).fill('0.500001'));
    expect(f.reportAmount).toBe('50.01');
    expect(f.invoiceAmount).toBe('50.01');
  });

  it('a 20-minute timer is billed its six places of hours: 0.333333 h at 95.99 is 32.00 in the report and on the invoice', async () => {
    // Lines were rounded to four places (0.3333 h, 31.99) where the report priced 0.333333 h (32.00).
    const f = await figures(
      await workspaceWith({ rounding: 'none', rounding_minutes: 15 }, [{ started_time: '09:00', ended_time: '09:20' }, { hours: 1.120278 }], '95.99'),
    );
    expect(f.quantities.sort()).toEqual([0.333333, 1.120278]);
    // 31.99663 → 32.00; 107.535485… → 107.54
    expect(f.reportAmount).toBe('139.54');
    expect(f.invoiceAmount).toBe('139.54');
  });

  it('a 5-minute entry rounded down to 5 minutes is 5 minutes, not nothing', async () => {
    const f = await figures(await workspaceWith({ rounding: 'down', rounding_minutes: 5 }, [{ started_time: '09:00', ended_time: '09:05' }, { hours: 0.083333 }]));
    expect(f.entries).toEqual([0.083333, 0.083333]);
    expect(f.reports).toEqual(Array(4).fill('0.166666'));
    expect(f.reportAmount).toBe('16.66');
    expect(f.invoiceAmount).toBe('16.66');
  });
});

describe('the rounding rule in SQL (the export and the reports) is the one of the entries', () => {
  it('gives roundMicroHours for every rule and step, on boundaries and between them', async () => {
    const micros: number[] = [];
    for (let m = 0; m <= 24_000_000; m += 16_667) micros.push(Math.max(0, m - 1), m, m + 1);
    for (let m = 0; m <= 24_000_000; m += 9_973) micros.push(m);
    for (const rounding of ['up', 'down', 'nearest'] as const) {
      for (const rounding_minutes of [1, 5, 7, 10, 15, 20, 45, 60]) {
        const rule = { rounding, rounding_minutes };
        const { rows } = await sql<{ micro: string; rounded: string }>`
          select m::text as micro, ${roundedMicroSql(sql`m`, rule)}::text as rounded from unnest(${`{${micros.join(',')}}`}::bigint[]) as m`.execute(ctx.db);
        const wrong = rows.filter((r) => Number(r.rounded) !== roundMicroHours(Number(r.micro), rule));
        expect(wrong.slice(0, 3), `${rounding} ${rounding_minutes}`).toEqual([]);
      }
    }
  });
});
