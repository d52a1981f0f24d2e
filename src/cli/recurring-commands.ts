import { operatorPrincipal } from '../access/operator.ts';
import { listSchedules, runDueSchedules, type PresentedSchedule } from '../modules/billing/recurring-invoices/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { print, table } from './output.ts';
import { workspaceOption } from './options.ts';
import { runDueCommand } from './run-due.ts';

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

const runDue = runDueCommand({
  name: 'admin recurring run-due',
  summary: 'make every due recurring invoice now, once each (missed ones too), in every workspace unless --workspace',
  run: runDueSchedules,
  said: ({ drafted, sent, skipped }) => {
    const total = drafted + sent + skipped;
    return total === 0 ? 'No recurring invoice was due.' : `Made ${total} occurrence${total === 1 ? '' : 's'}: ${drafted} drafted, ${sent} sent, ${skipped} skipped.`;
  },
});

export const recurringCommands: Record<string, AdminCommand<any>> = { list, runDue };
