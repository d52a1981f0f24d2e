/**
 * A saved report's definition (issue 26 item 3), as pure rules: what a report page hands
 * over to be saved (the report it is, its period and whether that period is a named one,
 * its grouping or project filter), the body that saves it, and the report page's address
 * that opens a saved one. The reports area's pages read exactly these URL parameters
 * (from, to, group_by; active for the project budget); the dates of a saved report come
 * from the server (`range`, its period resolved today in the workspace's time zone).
 */

export const REPORT_KINDS = ['time', 'team', 'project_budget', 'uninvoiced', 'planned_vs_tracked'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The named periods, as the reports' period picker names them; `custom` is fixed dates. */
export const NAMED_PERIODS = ['this_week', 'last_week', 'this_month', 'last_month', 'this_quarter', 'last_quarter', 'this_year', 'last_year', 'last_365_days'] as const;
export type NamedPeriod = (typeof NAMED_PERIODS)[number];
export type SavedPeriod = NamedPeriod | 'custom';

export const GROUPINGS = ['project', 'task', 'person', 'client'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export const VISIBILITIES = ['private', 'workspace'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const SCHEDULES = ['none', 'weekly', 'monthly'] as const;
export type Schedule = (typeof SCHEDULES)[number];

export interface DayRange {
  from: string;
  to: string;
}

/**
 * What a report page shows, as it hands it over to be saved: the report, its period (none
 * for the project budget) and the named period those dates are today (none: dates picked
 * by hand), the time report's grouping, the budget's project filter (true active, false
 * archived, null all).
 */
export interface ShownReport {
  report: ReportKind;
  range: DayRange | null;
  preset: NamedPeriod | null;
  group_by?: Grouping;
  is_active?: boolean | null;
}

/** How the period is kept: as the named one (it moves with the calendar) or as these dates. */
export type PeriodChoice = 'named' | 'dates';

/** The definition part of a new saved report's body (name, visibility and schedule are the form's). */
export function definitionOf(shown: ShownReport, choice: PeriodChoice) {
  if (shown.report === 'project_budget') return { report: shown.report, is_active: shown.is_active ?? null };
  const range = shown.range!;
  const period = choice === 'named' && shown.preset ? { period: shown.preset } : { period: 'custom' as const, from: range.from, to: range.to };
  return { report: shown.report, ...period, ...(shown.report === 'time' ? { group_by: shown.group_by ?? 'project' } : {}) };
}

/** The report pages' paths, by report. */
export const PAGE_OF: Record<ReportKind, string> = {
  time: '/reports/time',
  team: '/reports/team',
  project_budget: '/reports/budget',
  uninvoiced: '/reports/uninvoiced',
  planned_vs_tracked: '/reports/planned',
};

/** The address that opens a saved report: its page with the server's dates of today, its grouping or its project filter. */
export function hrefOf(saved: { report: ReportKind; range: DayRange | null; group_by: Grouping | null; is_active: boolean | null }): string {
  const query = new URLSearchParams();
  if (saved.report === 'project_budget') {
    query.set('active', saved.is_active === null ? 'all' : String(saved.is_active));
  } else if (saved.range) {
    query.set('from', saved.range.from);
    query.set('to', saved.range.to);
    if (saved.report === 'time') query.set('group_by', saved.group_by ?? 'project');
  }
  const search = query.toString();
  return search ? `${PAGE_OF[saved.report]}?${search}` : PAGE_OF[saved.report];
}
