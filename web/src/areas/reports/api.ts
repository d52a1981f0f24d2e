import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import type { paths } from '../../api/schema';

/**
 * The reports' data: the API's project budget report (GET /api/v2/reports/project_budget), the
 * web twins of its team and uninvoiced reports (/web/api/reports/team and /uninvoiced: the API's
 * rows and page plus the tables' total rows, which the server sums over every row) and the web
 * app's time and planned reports, with keys rooted at ['reports'] (a change to time, expenses or
 * invoices stales them all). Each report is one request of up to 2000 rows (the API's largest
 * page); the downloads (exportUrl) stream every row.
 */

export type BudgetReport = paths['/api/v2/reports/project_budget']['get']['responses'][200]['content']['application/json'];
export type BudgetRow = BudgetReport['results'][number];
export type UninvoicedReport = paths['/web/api/reports/uninvoiced']['get']['responses'][200]['content']['application/json'];
export type UninvoicedRow = UninvoicedReport['results'][number];
export type TeamReport = paths['/web/api/reports/team']['get']['responses'][200]['content']['application/json'];
export type TeamRow = TeamReport['results'][number];
export type TeamTotals = TeamReport['totals'];
export type UninvoicedTotal = UninvoicedReport['totals'][number];
export type TimeReport = paths['/web/api/reports/time']['get']['responses'][200]['content']['application/json'];
export type TimeGroup = TimeReport['results'][number];
export type TimeTotals = TimeReport['totals'];
export type GroupBy = TimeReport['group_by'];
export type PlannedReport = paths['/web/api/reports/planned_vs_tracked']['get']['responses'][200]['content']['application/json'];
export type PlannedRow = PlannedReport['projects'][number];
export type PlannedTotals = PlannedReport['totals'];

export const PER_PAGE = 2000;
const STALE = 30_000;

export interface Range {
  from: string;
  to: string;
}

export const budgetQuery = (isActive: 'true' | 'false' | undefined) =>
  queryOptions({
    queryKey: ['reports', 'project_budget', { is_active: isActive }],
    queryFn: () => call(api.GET('/api/v2/reports/project_budget', { params: { query: { per_page: PER_PAGE, ...(isActive ? { is_active: isActive } : {}) } } })),
    placeholderData: keepPreviousData,
    staleTime: STALE,
  });

export const uninvoicedQuery = (range: Range) =>
  queryOptions({
    queryKey: ['reports', 'uninvoiced', range],
    queryFn: () => call(api.GET('/web/api/reports/uninvoiced', { params: { query: { ...range, per_page: PER_PAGE } } })),
    placeholderData: keepPreviousData,
    staleTime: STALE,
  });

export const teamQuery = (range: Range) =>
  queryOptions({
    queryKey: ['reports', 'team', range],
    queryFn: () => call(api.GET('/web/api/reports/team', { params: { query: { ...range, per_page: PER_PAGE } } })),
    placeholderData: keepPreviousData,
    staleTime: STALE,
  });

export const timeQuery = (range: Range, groupBy: GroupBy) =>
  queryOptions({
    queryKey: ['reports', 'time', { ...range, group_by: groupBy }],
    queryFn: () => call(api.GET('/web/api/reports/time', { params: { query: { ...range, group_by: groupBy } } })),
    placeholderData: keepPreviousData,
    staleTime: STALE,
  });

/** The planner's hours against the tracked ones per project (its download: exportUrl('planned_vs_tracked', …)). */
export const plannedQuery = (range: Range) =>
  queryOptions({
    queryKey: ['reports', 'planned_vs_tracked', range],
    queryFn: () => call(api.GET('/web/api/reports/planned_vs_tracked', { params: { query: range } })),
    placeholderData: keepPreviousData,
    staleTime: STALE,
  });

export type ExportReport = 'project_budget' | 'uninvoiced' | 'team' | 'time' | 'planned_vs_tracked';

/** The download address of a report table (a streamed CSV or XLSX, same parameters as the page). */
export function exportUrl(report: ExportReport, format: 'csv' | 'xlsx', params: Record<string, string | undefined>): string {
  const query = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/web/api/reports/${report}/export?${query}`;
}
