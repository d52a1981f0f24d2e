import { str } from '../command.ts';
import type { ClientCommand } from './command.ts';
import { dateRange, reportRangeOn, type RangeInput } from './dates.ts';
import { grid, hours, money, show, sum, terminalWidth } from './format.ts';
import type { ApiClient } from './http.ts';

/**
 * `sheaf report uninvoiced|budget|team`: the API's reports
 * (/api/v2/reports/uninvoiced, project_budget, time/team), every page. What
 * the key's user may not see (rates, amounts) the API leaves out or refuses
 * (403, exit 5) and the table shows as '-'.
 */

const all = (api: ApiClient, path: string, query: Record<string, string | boolean | undefined>) => api.all<any>(path, 'results', query);

const uninvoiced: ClientCommand<{ range: RangeInput; fixedFee: boolean }> = {
  name: 'report uninvoiced',
  usage: '[--week current|last|YYYY-Www | --from D --to D] [--no-fixed-fee]',
  summary: 'billable work not invoiced yet, per project (default: the last 365 days up to today; --from alone runs to today, --to alone is the 365 days up to it); --no-fixed-fee leaves out fixed-fee projects',
  options: { from: str, to: str, week: str, 'no-fixed-fee': { type: 'boolean' } },
  parse: (v) => ({ range: dateRange(v, 'none'), fixedFee: !v['no-fixed-fee'] }),
  async run({ api, output, calendar }, { range, fixedFee }) {
    const input = { ...(await reportRangeOn(range, calendar)), fixedFee };
    const rows = await all(await api(), '/api/v2/reports/uninvoiced', { from: input.from, to: input.to, include_fixed_fee: input.fixedFee });
    show(output, rows, () =>
      grid(
        rows,
        [
          { title: 'client', value: (r) => r.client_name },
          { title: 'project', value: (r) => r.project_name, shrink: true },
          { title: 'hours', value: (r) => hours(r.total_hours), align: 'right' },
          { title: 'uninvoiced h', value: (r) => hours(r.uninvoiced_hours), align: 'right' },
          { title: 'expenses', value: (r) => money(r.uninvoiced_expenses, r.currency), align: 'right' },
          { title: 'amount', value: (r) => money(r.uninvoiced_amount, r.currency), align: 'right' },
          { title: 'currency', value: (r) => r.currency },
        ],
        terminalWidth(output),
      ) + `\n\n${input.from} to ${input.to}`,
    );
  },
};

const amount = (r: { currency: string | null }, value: number | null) => (r.currency ? money(value, r.currency) : hours(value));

const budget: ClientCommand<{ all: boolean }> = {
  name: 'report budget',
  usage: '[--all]',
  summary: "the projects' budgets: budget, spent and remaining in the budget's unit (hours or money); --all includes archived projects",
  options: { all: { type: 'boolean' } },
  parse: (v) => ({ all: Boolean(v.all) }),
  async run({ api, output }, input) {
    const rows = await all(await api(), '/api/v2/reports/project_budget', { is_active: input.all ? undefined : true });
    show(output, rows, () =>
      grid(
        rows,
        [
          { title: 'client', value: (r) => r.client_name },
          { title: 'project', value: (r) => r.project_name, shrink: true },
          { title: 'by', value: (r) => `${r.budget_by}${r.budget_is_monthly ? ' monthly' : ''}` },
          // In the budget's unit: a money budget in its currency (the report names it), hours as every table shows them.
          { title: 'budget', value: (r) => amount(r, r.budget), align: 'right' },
          { title: 'spent', value: (r) => amount(r, r.budget_spent), align: 'right' },
          { title: 'remaining', value: (r) => amount(r, r.budget_remaining), align: 'right' },
        ],
        terminalWidth(output),
      ),
    );
  },
};

const team: ClientCommand<RangeInput> = {
  name: 'report team',
  usage: '[--week current|last|YYYY-Www | --from D --to D]',
  summary: 'hours per person (total, billable, and the billable amount when you may see rates); default this week (as the workspace counts weeks); --from alone runs to today, --to alone is the 365 days up to it',
  options: { week: str, from: str, to: str },
  parse: (v) => dateRange(v, 'week'),
  async run({ api, output, calendar }, range) {
    const input = await reportRangeOn(range, calendar);
    const rows = await all(await api(), '/api/v2/reports/time/team', { from: input.from, to: input.to });
    show(output, rows, () =>
      grid(
        rows,
        [
          { title: 'person', value: (r) => `${r.user_name}${r.is_contractor ? ' (contractor)' : ''}`, shrink: true },
          { title: 'hours', value: (r) => hours(r.total_hours), align: 'right' },
          { title: 'billable h', value: (r) => hours(r.billable_hours), align: 'right' },
          {
            title: 'billable amount',
            value: (r) =>
              r.billable_amount !== undefined && r.billable_amount !== null
                ? money(r.billable_amount, r.currency)
                : (r.billable_amounts ?? []).map((a: { billable_amount: number; currency: string }) => `${money(a.billable_amount, a.currency)} ${a.currency}`).join(' + ') || undefined,
            align: 'right',
          },
          { title: 'currency', value: (r) => r.currency },
        ],
        terminalWidth(output),
      ) + (rows.length ? `\n\n${input.from} to ${input.to}: ${hours(sum(rows.map((r) => r.total_hours)))} h, billable ${hours(sum(rows.map((r) => r.billable_hours)))} h` : ''),
    );
  },
};

export const reportCommands: ClientCommand<any>[] = [uninvoiced, budget, team];
