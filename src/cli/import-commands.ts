import { readFile } from 'node:fs/promises';
import { operatorPrincipal } from '../access/operator.ts';
import { DATE_ORDERS, chosen, importFile, TRACKERS, type DateOrder, type ImportReport, type Tracker } from '../modules/integrations/import/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { workspaceOption } from './options.ts';
import { print, table, UsageError } from './output.ts';

/**
 * `sheaf import --workspace ID [--format T] [--date-order O] [--dry-run] FILE`: another tracker's export into
 * a workspace, as the operator, through the Import page's service (the same mapping,
 * idempotency and all-or-nothing transaction). Like `sheaf admin`, it opens the database.
 */

const admin = <T>(c: AdminCommand<T>) => c;

interface ImportInput {
  id: string;
  file: string;
  tracker: Tracker | undefined;
  dates: DateOrder | undefined;
  dryRun: boolean;
}

/** The report as people read it: counts, then what was skipped and the warnings. */
export function reportText(r: ImportReport): string {
  const c = r.created;
  const verb = r.dry_run ? 'Would create' : 'Created';
  const lines = [
    `${r.tracker_name} export, ${r.rows} entries${r.dry_run ? ' (dry run: nothing was written)' : ''}.`,
    `${verb}: ${c.time_entries} time entries, ${c.clients} clients, ${c.projects} projects, ${c.tasks} tasks, ${c.people} people (${c.invitations} invited), ${c.rates} rates.`,
    `Skipped: ${r.skipped_count}.`,
  ];
  if (r.people.length) lines.push('', table(r.people.map((p) => ({ person: p.name ?? '', email: p.email ?? '', status: p.status, rows: p.rows })), ['person', 'email', 'status', 'rows']));
  if (r.projects.length) lines.push('', table(r.projects.map((p) => ({ project: p.name, client: p.client, status: p.status, rows: p.rows })), ['project', 'client', 'status', 'rows']));
  if (r.rates.length) {
    const rates = r.rates.map((x) => ({ project: x.project, person: x.person, from: x.effective_from, rate: x.hourly_rate, currency: x.currency ?? '', status: x.status }));
    lines.push('', table(rates, ['project', 'person', 'from', 'rate', 'currency', 'status']));
  }
  if (r.skipped.length) lines.push('', ...r.skipped.map((s) => `line ${s.line}: skipped, ${s.reason}`));
  if (r.skipped_count > r.skipped.length) lines.push(`… and ${r.skipped_count - r.skipped.length} more skipped.`);
  if (r.warnings.length) lines.push('', ...r.warnings.map((w) => `line ${w.line}: ${w.message}`));
  if (r.warnings_count > r.warnings.length) lines.push(`… and ${r.warnings_count - r.warnings.length} more warnings.`);
  return lines.join('\n');
}

const commands = [
  admin<ImportInput>({
    name: 'import',
    usage: `--workspace ID [--format ${TRACKERS.join('|')}] [--date-order ${DATE_ORDERS.join('|')}] [--dry-run] FILE`,
    summary:
      "import a Toggl Track, Clockify, Harvest, solidtime or Kimai CSV export (time entries, clients, projects, tasks, people, rates); all or nothing, the same file twice adds nothing; --dry-run previews",
    options: { workspace: str, format: str, 'date-order': str, 'dry-run': { type: 'boolean' } },
    positionals: ['file'],
    parse(values) {
      const file = values.file;
      if (!file) throw new UsageError('Name the export file to import.');
      const tracker = chosen(TRACKERS, values.format);
      if (tracker === null) throw new UsageError(`--format must be one of ${TRACKERS.join(', ')} (or auto), not '${values.format}'.`);
      const dateOrder = (values as Record<string, string | undefined>)['date-order'];
      const dates = chosen(DATE_ORDERS, dateOrder);
      if (dates === null) throw new UsageError(`--date-order must be one of ${DATE_ORDERS.join(', ')} (or auto), not '${dateOrder}'.`);
      return {
        id: workspaceOption(values),
        file,
        tracker,
        dates,
        dryRun: (values as Record<string, unknown>)['dry-run'] === true,
      };
    },
    async run({ db, output, clock, baseUrl }, input) {
      let data: Buffer;
      try {
        data = await readFile(input.file);
      } catch (err) {
        throw new UsageError(`Cannot read ${input.file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`);
      }
      await requireWorkspace(db, input.id);
      const report = await importFile(db, operatorPrincipal(input.id), data, { tracker: input.tracker, dates: input.dates, dryRun: input.dryRun, source: 'cli', baseUrl, now: clock() });
      print(output, report, () => reportText(report));
    },
  }),
];

/** The import command by name, for the command table of src/cli/main.ts. */
export const importCommands: Record<string, AdminCommand<any>> = Object.fromEntries(commands.map((c) => [c.name, c]));
