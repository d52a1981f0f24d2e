import { Decimal } from 'decimal.js';
import type { ApprovalStatus } from '../../../db/types.ts';
import type { Tx } from '../../../db/tenant.ts';
import { badRequest } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { entryRoundedHours, type RoundingRule } from '../../tracking/week/index.ts';
import type { InvoiceProjects } from './projects.ts';
import {
  linkBilled,
  lockImportableExpenses,
  lockFixedFeeBalances,
  lockImportableTime,
  type ImportableEntry,
  type ImportableExpense,
  type ImportScope,
  type NewLine,
  type WorkspaceRow,
} from './queries.ts';
import {
  DEFAULT_KIND,
  IMPORTED_EXPENSE_KIND,
  IMPORTED_TIME_KIND,
  assertDates,
  type ExpenseSummaryType,
  type TimeSummaryType,
} from './rules.ts';
import type { ImportRequest } from './schemas.ts';

/**
 * Creating an invoice from tracked work (`line_items_import`).
 *
 * What is imported: time entries and expenses of the client's projects (all of
 * those the caller may invoice, or `project_ids`, resolved by projects.ts) that are billable (and on a
 * billable project), not yet billed, not running (time), not rejected, and
 * approved unless the workspace invoices before approval (or has approvals
 * switched off), dated within `from`..`to` when given.
 *
 * Pricing: each entry at billable_rate() on its own spent_date (the rate in force
 * that day, following the project's bill_by), never today's rate; an entry
 * without any rate is priced 0. Quantity: the entries' rounded hours (the
 * workspace rounding rule applied to each entry, as the time entries API shows
 * `rounded_hours`, six decimal places), summed per line: exact, so a detailed
 * line bills its entry what the uninvoiced report counts for it (migration 0109).
 * A fixed-fee project's time is one line instead, whatever the summary: quantity 1 at what is
 * left of its fee (lockFixedFeeBalances; the uninvoiced report's rule 7), kind Service.
 * Expenses: quantity 1, unit price the (summed) total cost.
 *
 * Lines: one per group of the summary type and project, split by unit price so a
 * line's amount is always quantity × unit price (a task summary of a project that
 * bills by people can give one line per rate). Time lines come first, then
 * expense lines; within each, by project, then the group's label (detailed:
 * date), then unit price. Imported lines are flagged `taxed` and `taxed2`, so the
 * invoice's tax rates (when it has any) apply to the whole subtotal, as the spec's
 * create table says ("tax applies to the subtotal").
 *
 * Claiming: the records are locked (`FOR UPDATE`, id order) and then linked in
 * the same transaction as the invoice, so two imports racing for the same work
 * bill each record exactly once, and any failure leaves nothing behind.
 */

/** Checks what can be checked without the database (400 naming the field). */
export function validateImportRequest(req: ImportRequest) {
  if (!req.time && !req.expenses) {
    throw badRequest('line_items_import needs at least one of time and expenses.', { field: 'line_items_import' });
  }
  for (const key of ['time', 'expenses'] as const) {
    const part = req[key];
    if (part) assertDates(part, ['from', 'to'], `line_items_import.${key}.`);
    if (part?.from && part.to && part.to < part.from) {
      throw badRequest(`line_items_import.${key}.to must be on or after from.`, { field: `line_items_import.${key}.to` });
    }
  }
}

/** Which approval states are invoiceable under the workspace's policy. */
export function invoiceableStatuses(w: Pick<WorkspaceRow, 'approvals_enabled' | 'invoice_before_approval'>): ApprovalStatus[] {
  if (w.invoice_before_approval || !w.approvals_enabled) return ['unsubmitted', 'submitted', 'approved'];
  return ['approved'];
}

interface ProjectInfo {
  id: string;
  name: string;
  code: string | null;
}

const projectLabel = (p: ProjectInfo) => (p.code ? `[${p.code}] ${p.name}` : p.name);
const personName = (r: { first_name: string; last_name: string }) => `${r.first_name} ${r.last_name}`.trim();
const withNotes = (text: string, notes: string | null) => (notes?.trim() ? `${text}\n${notes.trim()}` : text);

/** A line being built, with the records it bills and what orders it. */
export interface DraftLine {
  projectId: string;
  /** Sort keys: project name, group label, unit price. */
  order: [string, string, string];
  description: string;
  quantity: Decimal;
  unitPrice: Decimal;
  recordIds: string[];
  /** A fixed-fee project's line: its balance, carrying its time (not hours at a rate). */
  fee?: true;
}

// One collator for every comparison: localeCompare with a locale argument builds a
// new one per call, which made sorting a 10,000-line import take most of a second.
const collator = new Intl.Collator('en', { sensitivity: 'base' });
const cmp = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

function sortDrafts(lines: DraftLine[]) {
  return lines.sort(
    (a, b) => cmp(a.order[0], b.order[0]) || cmp(a.order[1], b.order[1]) || new Decimal(a.order[2]).cmp(b.order[2]),
  );
}


/** A record as grouping reads it: its project, its person, its date and notes. */
interface GroupedRecord {
  id: string;
  project_id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  spent_date: string;
  notes: string | null;
}

/** Where a record goes: its group within its project, the group's sort label, and the line's text. */
interface Group {
  key: string;
  label: string;
  description: string;
}

/**
 * The group of a record by the summary kind: the whole project (`projectLine` its text), one of
 * its own kind (`own`: a task, an expense category), its person, or one line per record.
 */
function groupOf(summary: string, r: GroupedRecord, label: string, own: { id: string; name: string }, projectLine: string): Group {
  switch (summary) {
    case 'project':
      return { key: '', label: '', description: projectLine };
    case 'people':
      return { key: r.user_id, label: personName(r), description: `${label}: ${personName(r)}` };
    case 'detailed':
      return {
        key: r.id,
        label: `${r.spent_date} ${r.id}`,
        description: withNotes(`${label}: ${own.name} - ${personName(r)} - ${r.spent_date}`, r.notes),
      };
    default:
      return { key: own.id, label: own.name, description: `${label}: ${own.name}` };
  }
}

/**
 * Groups records into lines, sorted: one line per project and group (and `price`, when given,
 * which also is the line's unit price), `start` the new line's amounts, `add` a record's share.
 */
function groupRecords<R extends GroupedRecord>(
  records: R[],
  projects: Map<string, ProjectInfo>,
  group: (r: R, label: string) => Group,
  line: { price?: (r: R) => Decimal; start: (price: Decimal | undefined) => Pick<DraftLine, 'quantity' | 'unitPrice'>; add: (g: DraftLine, r: R) => void },
): DraftLine[] {
  const groups = new Map<string, DraftLine>();
  for (const r of records) {
    const project = projects.get(r.project_id)!;
    const { key, label, description } = group(r, projectLabel(project));
    const price = line.price?.(r);
    const groupKey = price === undefined ? `${r.project_id}|${key}` : `${r.project_id}|${key}|${price.toFixed()}`;
    let g = groups.get(groupKey);
    if (!g) {
      g = { projectId: r.project_id, order: [project.name, label, price?.toFixed() ?? '0'], description, ...line.start(price), recordIds: [] };
      groups.set(groupKey, g);
    }
    line.add(g, r);
    g.recordIds.push(r.id);
  }
  return [...groups.values()];
}

/**
 * Groups time entries into lines (pure; exported for unit tests). The time of a fixed-fee project
 * (`fees`: its balance, lockFixedFeeBalances) is one line of that balance, whatever the summary:
 * the fee is what it bills, as the uninvoiced report counts it (rule 7), not its hours at a rate.
 */
export function groupTime(
  entries: ImportableEntry[],
  summary: TimeSummaryType,
  rule: RoundingRule,
  projects: Map<string, ProjectInfo>,
  fees: ReadonlyMap<string, string> = new Map(),
): DraftLine[] {
  const feeLines = new Map<string, DraftLine>();
  for (const e of entries) {
    const balance = fees.get(e.project_id);
    if (balance === undefined) continue;
    let line = feeLines.get(e.project_id);
    if (!line) {
      const project = projects.get(e.project_id)!;
      line = { projectId: project.id, order: [project.name, '', '0'], description: `${projectLabel(project)}: Fixed fee`, quantity: new Decimal(1), unitPrice: new Decimal(balance), recordIds: [], fee: true };
      feeLines.set(e.project_id, line);
    }
    line.recordIds.push(e.id);
  }
  const lines = groupRecords(
    entries.filter((e) => !fees.has(e.project_id)),
    projects,
    (e, label) => groupOf(summary, e, label, { id: e.task_id, name: e.task_name }, label),
    {
      price: (e) => new Decimal(e.rate ?? 0),
      start: (price) => ({ quantity: new Decimal(0), unitPrice: price! }),
      add: (g, e) => {
        g.quantity = g.quantity.add(entryRoundedHours(e, rule));
      },
    },
  );
  return sortDrafts([...lines, ...feeLines.values()]);
}

/** Groups expenses into lines (pure; exported for unit tests). */
export function groupExpenses(expenses: ImportableExpense[], summary: ExpenseSummaryType, projects: Map<string, ProjectInfo>): DraftLine[] {
  const lines = groupRecords(
    expenses,
    projects,
    (x, label) => groupOf(summary, x, label, { id: x.expense_category_id, name: x.category_name }, `${label}: Expenses`),
    {
      start: () => ({ quantity: new Decimal(1), unitPrice: new Decimal(0) }),
      add: (g, x) => {
        g.unitPrice = g.unitPrice.add(x.total_cost);
      },
    },
  );
  return sortDrafts(lines);
}

export interface ImportResult {
  lines: NewLine[];
  timeEntries: number;
  expenses: number;
  /** Earliest and latest date of the imported records (the invoice's default period). */
  firstDate: string;
  lastDate: string;
}

/**
 * Runs the import inside the invoice's transaction: resolves the projects,
 * locks the importable records, builds the lines and links the records to them.
 * The caller inserts the lines before the links are written (foreign keys), so
 * this returns a function doing the linking. Throws 400 when nothing is importable.
 */
export async function prepareImport(
  trx: Tx,
  companyId: string,
  args: { clientId: string; request: ImportRequest; workspace: WorkspaceRow; reach: InvoiceProjects; everyProject: boolean; now: Date },
): Promise<ImportResult & { link(invoiceId: string, now: Date): Promise<void> }> {
  const { clientId, request, workspace, reach } = args;
  // Omitted project_ids: every project of the client the caller may invoice (projects.ts).
  const chosen =
    request.project_ids === undefined
      ? reach.invoiceable
      : request.project_ids.map((id) => reach.resolve(id, 'line_items_import.project_ids'));
  const projects = new Map(chosen.map((p) => [p.id, p]));
  const projectIds = chosen.map((p) => p.id);
  const nothing = () =>
    badRequest(
      'Nothing to import: the client has no billable, uninvoiced ' +
        (workspace.invoice_before_approval || !workspace.approvals_enabled ? '' : 'approved ') +
        'time or expenses ' +
        (args.everyProject ? '' : 'on the projects you manage ') +
        'in the range asked for. No invoice was created.',
      { field: 'line_items_import' },
    );
  if (projectIds.length === 0) throw nothing();

  const statuses = invoiceableStatuses(workspace);
  const scope = (part: { from?: string; to?: string }, ids = projectIds): ImportScope => ({ clientId, projectIds: ids, from: part.from, to: part.to, statuses });
  // A fixed-fee project's time is billed as its fee, once the fee is eligible for the range
  // (rule 7, as the uninvoiced report counts it); before that its time stays uninvoiced.
  const fees = request.time
    ? await lockFixedFeeBalances(trx, companyId, projectIds, { to: request.time.to ?? todayIn(workspace.timezone, args.now), timezone: workspace.timezone })
    : { balances: new Map<string, string>(), notYet: new Set<string>() };
  const timeProjects = projectIds.filter((id) => !fees.notYet.has(id));
  const entries = request.time && timeProjects.length ? await lockImportableTime(trx, companyId, scope(request.time, timeProjects)) : [];
  const expenses = request.expenses ? await lockImportableExpenses(trx, companyId, scope(request.expenses)) : [];
  if (entries.length === 0 && expenses.length === 0) throw nothing();

  const timeDrafts = request.time ? groupTime(entries, request.time.summary_type, workspace, projects, fees.balances) : [];
  const expenseDrafts = request.expenses ? groupExpenses(expenses, request.expenses.summary_type, projects) : [];
  const timeLinks: Array<{ id: string; lineId: string }> = [];
  const expenseLinks: Array<{ id: string; lineId: string }> = [];
  const lines: NewLine[] = [];
  const add = (d: DraftLine, source: 'time' | 'expense') => {
    const id = newId();
    lines.push({
      id,
      // A fee line is the fee, not hours: the kind a typed Service line has (rule 7 counts both), so
      // nothing reads it as time priced at 0 (the new-invoice page's warning).
      kind: d.fee ? DEFAULT_KIND : source === 'time' ? IMPORTED_TIME_KIND : IMPORTED_EXPENSE_KIND,
      description: d.description,
      quantity: d.quantity.toFixed(),
      unit_price: d.unitPrice.toFixed(),
      effect: 'charge',
      taxed: true,
      taxed2: true,
      project_id: d.projectId,
      sort_order: lines.length,
      import_source: d.fee ? null : source, // nor hours on the PDF (no "h") or the e-invoice (no HUR)
    });
    for (const recordId of d.recordIds) (source === 'time' ? timeLinks : expenseLinks).push({ id: recordId, lineId: id });
  };
  for (const d of timeDrafts) add(d, 'time');
  for (const d of expenseDrafts) add(d, 'expense');

  const dates = [...entries.map((e) => e.spent_date), ...expenses.map((x) => x.spent_date)].sort();
  return {
    lines,
    timeEntries: entries.length,
    expenses: expenses.length,
    firstDate: dates[0],
    lastDate: dates[dates.length - 1],
    async link(invoiceId, now) {
      await linkBilled(trx, 'time_entries', companyId, invoiceId, timeLinks, now);
      await linkBilled(trx, 'expenses', companyId, invoiceId, expenseLinks, now);
    },
  };
}
