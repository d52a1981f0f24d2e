import { Decimal } from 'decimal.js';
import { sql } from 'kysely';
import { mayRunPlannedReport, reportProjectScope } from '../../../access/reports.ts';
import type { Principal } from '../../../auth/principal.ts';
import type { Tx } from '../../../db/tenant.ts';
import { forbidden } from '../../../errors.ts';
import type { ExportFile, Format } from '../../../http/exports.ts';
import { plannedHoursNumber, plannedPerProject } from '../../planning/assignments/index.ts';
import { checkRange, readReport, reportSettings, roundedMicroHours, type ReportContext } from '../reports/index.ts';

/**
 * Planned against tracked hours per project (issue 26 item 2): the planner's hours in the
 * period (planning's arithmetic) beside the hours tracked on the project, for the projects in
 * the caller's report scope (owners and administrators every project, managers the ones they
 * manage). A project appears when it has either. Tracked hours are the entries' rounded hours,
 * as every other report counts them (the workspace's rounding). The page's JSON and the
 * download read the same rows (`projectRows`) with the same checks.
 */

interface Period {
  from: string;
  to: string;
}

/** A project's planned and tracked hours, exact: tracked the sum of the entries' six-place hours, planned planning's Decimal. */
interface ProjectHours {
  id: string;
  name: string;
  client_name: string;
  planned: Decimal;
  tracked: Decimal;
}

function assertMayRun(p: Principal, query: Period) {
  if (!mayRunPlannedReport(p)) throw forbidden('Only owners, administrators and managers see planned against tracked hours.');
  checkRange(query.from, query.to);
}

/** The projects in the caller's scope with planned or tracked hours in the period, by client and project name. */
async function projectRows(trx: Tx, p: Principal, query: Period): Promise<ProjectHours[]> {
  const rounded = roundedMicroHours(await reportSettings(trx, p.companyId));
  const projects = await trx
    .selectFrom('projects as p')
    .innerJoin('clients as c', (j) => j.onRef('c.company_id', '=', 'p.company_id').onRef('c.id', '=', 'p.client_id'))
    .select(['p.id', 'p.name', 'c.name as client_name'])
    .select((eb) =>
      eb
        .selectFrom('time_entries as te')
        .select(sql<string>`coalesce(sum(${rounded}), 0)::text`.as('s'))
        .whereRef('te.company_id', '=', 'p.company_id')
        .whereRef('te.project_id', '=', 'p.id')
        .where('te.spent_date', '>=', query.from)
        .where('te.spent_date', '<=', query.to)
        .where('te.is_running', '=', false)
        .as('tracked_micro_hours'),
    )
    .where('p.company_id', '=', p.companyId)
    .where(reportProjectScope(p))
    .orderBy(sql`lower(c.name)`)
    .orderBy(sql`lower(p.name)`)
    .orderBy('p.id')
    .execute();
  const planned = await plannedPerProject(trx, p.companyId, query, projects.map((x) => x.id));
  return projects
    .map((x) => ({
      id: x.id,
      name: x.name,
      client_name: x.client_name,
      planned: planned.get(x.id) ?? new Decimal(0),
      tracked: new Decimal(x.tracked_micro_hours ?? 0).div(1_000_000),
    }))
    // Shown (and downloaded) when either is at least a hundredth of an hour, as the page writes them.
    .filter((r) => plannedHoursNumber(r.planned) !== 0 || plannedHoursNumber(r.tracked) !== 0);
}

/** Hours as the page shows them: two places (planning's hoursNumber), kept as a Decimal so the totals add them exactly. */
const shown = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/**
 * GET /web/api/reports/planned_vs_tracked: the rows as the page shows them, hours with two
 * places, and the total row. A row's difference is its tracked less its planned hours as shown
 * (not the exact difference rounded, which can be a hundredth away), so the difference column
 * adds up to the total's difference; the totals are the exact sums of the shown figures.
 */
export async function plannedVsTracked(ctx: ReportContext, p: Principal, query: Period) {
  assertMayRun(p, query);
  const rows = await readReport(ctx, p, (trx) => projectRows(trx, p, query));
  const planned = Decimal.sum(0, ...rows.map((r) => shown(r.planned)));
  const tracked = Decimal.sum(0, ...rows.map((r) => shown(r.tracked)));
  return {
    projects: rows.map((r) => ({
      project: { id: r.id, name: r.name, client_name: r.client_name },
      planned_hours: shown(r.planned).toNumber(),
      tracked_hours: shown(r.tracked).toNumber(),
      difference_hours: shown(r.tracked).minus(shown(r.planned)).toNumber(),
    })),
    totals: { planned_hours: planned.toNumber(), tracked_hours: tracked.toNumber(), difference_hours: tracked.minus(planned).toNumber() },
  };
}

/**
 * Hours in a download: exact decimal text at most six places (micro-hours, an entry's own
 * precision). Tracked hours are a sum of six-place hours, so always exact; planned hours are
 * exact for hours per day and for a total its working days divide into six places, and
 * otherwise (10 hours over 3 days) rounded half up at the sixth place.
 */
const sixPlaces = (d: Decimal) => d.toDecimalPlaces(6, Decimal.ROUND_HALF_UP);

/**
 * The report as CSV or XLSX, with the page's checks and period: one row per project, hours as
 * exact decimals (difference = tracked less planned, from the two columns as written, so a
 * spreadsheet's own subtraction agrees to the last place).
 */
export async function plannedVsTrackedExport(ctx: ReportContext, p: Principal, query: Period & { format: Format }): Promise<ExportFile> {
  assertMayRun(p, query);
  async function* batches() {
    const rows = await readReport(ctx, p, (trx) => projectRows(trx, p, query));
    // No batch for no rows: an empty one would write a blank line under the header.
    if (!rows.length) return;
    yield rows.map((r) => {
      const planned = sixPlaces(r.planned);
      const tracked = sixPlaces(r.tracked);
      return {
        client_name: r.client_name,
        project_name: r.name,
        planned_hours: planned.toFixed(),
        tracked_hours: tracked.toFixed(),
        difference_hours: tracked.minus(planned).toFixed(),
      };
    });
  }
  return {
    format: query.format,
    name: `planned-vs-tracked-${query.from === query.to ? query.from : `${query.from}-to-${query.to}`}`,
    sheet: 'Planned vs tracked',
    columns: [
      { key: 'client_name', header: 'Client' },
      { key: 'project_name', header: 'Project' },
      { key: 'planned_hours', header: 'Planned hours', decimal: true },
      { key: 'tracked_hours', header: 'Tracked hours', decimal: true },
      { key: 'difference_hours', header: 'Difference hours', decimal: true },
    ],
    batches: batches(),
  };
}
