import type { AdminCommand } from './admin.ts';
import { str, type AdminContext } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { optionalWorkspaceOption } from './options.ts';
import { print } from './output.ts';

/**
 * `sheaf admin <area> run-due`: one run of a scheduler every server process runs each minute
 * (recurring invoices, saved reports' e-mails, budget alerts), for cron or to catch up at once,
 * in every workspace unless `--workspace`. Runs and servers may overlap: each scheduler claims
 * its work in the database. `said` is the sentence of a run's summary (`--json` prints the summary).
 */
export function runDueCommand<S extends object>(c: {
  name: string;
  summary: string;
  run: (deps: Pick<AdminContext, 'db' | 'clock' | 'baseUrl'>, scope: { workspaceId?: string }) => Promise<S>;
  said: (summary: S) => string;
}): AdminCommand<{ workspaceId?: string }> {
  return {
    name: c.name,
    usage: '[--workspace ID]',
    summary: c.summary,
    options: { workspace: str },
    parse: (values) => ({ workspaceId: optionalWorkspaceOption(values) }),
    async run({ db, output, clock, baseUrl }, input) {
      if (input.workspaceId) await requireWorkspace(db, input.workspaceId);
      const summary = await c.run({ db, clock, baseUrl }, { workspaceId: input.workspaceId });
      print(output, summary, () => c.said(summary));
    },
  };
}
