import { runBudgetAlerts } from '../modules/reports/budget-alerts/index.ts';
import { runDueSavedReports } from '../modules/reports/saved-reports/index.ts';
import type { AdminCommand } from './admin.ts';
import { runDueCommand } from './run-due.ts';

/** `sheaf admin saved-reports run-due`: each due saved report's latest period e-mailed once. */
const runDue = runDueCommand({
  name: 'admin saved-reports run-due',
  summary: 'e-mail every due saved report now (the latest period of each, once), in every workspace unless --workspace',
  run: runDueSavedReports,
  said: ({ sent, skipped }) =>
    sent + skipped === 0 ? 'No saved report was due.' : `Queued ${sent} e-mail${sent === 1 ? '' : 's'}; skipped ${skipped} (owner inactive or no longer allowed).`,
});

/** `sheaf admin budget-alerts run-due`: each alert claimed in the database and sent once. */
const budgetAlerts = runDueCommand({
  name: 'admin budget-alerts run-due',
  summary: 'e-mail the managers of every project whose budget passed its alert threshold (once per budget), in every workspace unless --workspace',
  run: runBudgetAlerts,
  said: ({ sent }) => (sent === 0 ? 'No budget alert was due.' : `Queued the alerts of ${sent} project${sent === 1 ? '' : 's'}.`),
});

export const reportCommands: Record<string, AdminCommand<any>> = { runDue, budgetAlerts };
