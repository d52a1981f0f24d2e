import { isId } from '../ids.ts';
import { runBudgetAlerts } from '../modules/reports/budget-alerts/index.ts';
import { runDueSavedReports } from '../modules/reports/saved-reports/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { print, UsageError } from './output.ts';

/**
 * `sheaf admin saved-reports run-due`: one run of the saved reports' e-mail scheduler (what
 * every server process runs each minute), for cron or to catch up at once. Runs and servers
 * may overlap: each period's e-mail is claimed in the database and enqueued once.
 */
const runDue: AdminCommand<{ workspaceId?: string }> = {
  name: 'admin saved-reports run-due',
  usage: '[--workspace ID]',
  summary: "e-mail every due saved report now (the latest period of each, once), in every workspace unless --workspace",
  options: { workspace: str },
  parse(values) {
    const id = values.workspace;
    if (id !== undefined && !isId(id)) throw new UsageError(`--workspace must be a workspace id (see "sheaf admin workspace list"), not '${id}'.`);
    return { workspaceId: id };
  },
  async run({ db, output, clock, baseUrl }, input) {
    if (input.workspaceId) await requireWorkspace(db, input.workspaceId);
    const summary = await runDueSavedReports({ db, clock, baseUrl }, { workspaceId: input.workspaceId });
    const total = summary.sent + summary.skipped;
    print(output, summary, () =>
      total === 0 ? 'No saved report was due.' : `Queued ${summary.sent} e-mail${summary.sent === 1 ? '' : 's'}; skipped ${summary.skipped} (owner inactive or no longer allowed).`,
    );
  },
};

/**
 * `sheaf admin budget-alerts run-due`: one run of the budget alerts (what every server process
 * runs each minute), for cron or at once. Each alert is claimed in the database and sent once.
 */
const budgetAlerts: AdminCommand<{ workspaceId?: string }> = {
  name: 'admin budget-alerts run-due',
  usage: '[--workspace ID]',
  summary: 'e-mail the managers of every project whose budget passed its alert threshold (once per budget), in every workspace unless --workspace',
  options: { workspace: str },
  parse: runDue.parse,
  async run({ db, output, clock, baseUrl }, input) {
    if (input.workspaceId) await requireWorkspace(db, input.workspaceId);
    const summary = await runBudgetAlerts({ db, clock, baseUrl }, { workspaceId: input.workspaceId });
    print(output, summary, () => (summary.sent === 0 ? 'No budget alert was due.' : `Queued the alerts of ${summary.sent} project${summary.sent === 1 ? '' : 's'}.`));
  },
};

export const reportCommands: Record<string, AdminCommand<any>> = { runDue, budgetAlerts };
