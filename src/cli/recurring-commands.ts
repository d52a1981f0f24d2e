import { isId } from '../ids.ts';
import { operatorPrincipal } from '../access/operator.ts';
import { listSchedules, runDueSchedules, type PresentedSchedule } from '../modules/billing/recurring-invoices/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { print, table, UsageError } from './output.ts';
import { workspaceOption } from './options.ts';

/**
 * `sheaf admin recurring list|run-due`: the operator's view of a workspace's
 * recurring invoices, and one run of the scheduler (what every server process
 * runs each minute), for cron or to catch up at once. Any number of runs and
 * servers may overlap: each occurrence is claimed in the database.
 */

const row = (s: PresentedSchedule) => ({
  id: s.id,
  client: s.client.name,
  frequency: s.frequency,
  anchor_day: s.anchor_day,
  source: s.source,
  action: s.action,
  paused: s.is_paused,
  next_run: s.next_run_date ?? 'ended',
  occurrences: s.occurrences.length,
});

const list: AdminCommand<{ id: string }> = {
  name: 'admin recurring list',
  usage: '--workspace ID',
  summary: "list a workspace's recurring invoices: client, frequency, what they invoice, next date and latest occurrences",
  options: { workspace: str },
  parse: (values) => ({ id: workspaceOption(values) }),
  async run({ db, output }, input) {
    await requireWorkspace(db, input.id);
    const schedules = await listSchedules(db, operatorPrincipal(input.id));
    print(output, schedules, () =>
      schedules.length === 0
        ? 'No recurring invoices.'
        : table(schedules.map(row), ['id', 'client', 'frequency', 'anchor_day', 'source', 'action', 'paused', 'next_run', 'occurrences']),
    );
  },
};

const runDue: AdminCommand<{ workspaceId?: string }> = {
  name: 'admin recurring run-due',
  usage: '[--workspace ID]',
  summary: 'make every due recurring invoice now, once each (missed ones too), in every workspace unless --workspace',
  options: { workspace: str },
  parse(values) {
    const id = values.workspace;
    if (id !== undefined && !isId(id)) throw new UsageError(`--workspace must be a workspace id (see "sheaf admin workspace list"), not '${id}'.`);
    return { workspaceId: id };
  },
  async run({ db, output, clock, baseUrl }, input) {
    if (input.workspaceId) await requireWorkspace(db, input.workspaceId);
    const summary = await runDueSchedules({ db, clock, baseUrl }, { workspaceId: input.workspaceId });
    const total = summary.drafted + summary.sent + summary.skipped;
    print(output, summary, () =>
      total === 0
        ? 'No recurring invoice was due.'
        : `Made ${total} occurrence${total === 1 ? '' : 's'}: ${summary.drafted} drafted, ${summary.sent} sent, ${summary.skipped} skipped.`,
    );
  },
};

export const recurringCommands: Record<string, AdminCommand<any>> = { list, runDue };
