import { ApiError } from '../errors.ts';
import { isId } from '../ids.ts';
import { checkPeriod, checkReason, withdrawApproval } from '../modules/tracking/approvals/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { fields, print, UsageError } from './output.ts';
import { required, workspaceOption } from './options.ts';
import { requireWorkspace } from './lookups.ts';
import { operatorPrincipal } from '../access/operator.ts';

/**
 * `sheaf admin approvals withdraw`: takes back an approval, which the API
 * cannot do. The person's approved (unbilled) time and expenses in the period
 * go back to `submitted`; it prints the weeks that unlocked and, for each week
 * still locked, what holds it (billed work, approved time outside the period or
 * on another project). The audit log records it with the reason. Options are
 * checked before the database is opened.
 */

/** The service's pure checks, said with the options the user typed. */
function asUsage<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 400) {
      const field = typeof err.extras.field === 'string' ? err.extras.field : '';
      const message = field && err.message.startsWith(`${field} `) ? `--${field}${err.message.slice(field.length)}` : field ? `--${field}: ${err.message}` : err.message;
      throw new UsageError(message);
    }
    throw err;
  }
}

interface WithdrawArgs {
  workspace: string;
  user: string;
  from: string;
  to: string;
  project?: string;
  reason: string | null;
}

const withdraw: AdminCommand<WithdrawArgs> = {
  name: 'admin approvals withdraw',
  usage: '--workspace ID --user ID|EMAIL --from YYYY-MM-DD --to YYYY-MM-DD [--project ID] [--reason TEXT]',
  summary: "withdraw an approval: the person's approved time and expenses in the period go back to submitted, unlocking their weeks",
  options: { workspace: str, user: str, from: str, to: str, project: str, reason: str },
  parse(values) {
    const workspace = workspaceOption(values);
    const user = required(values, 'user');
    if (!user.includes('@') && !isId(user)) throw new UsageError(`--user must be a user id or an e-mail address, not '${user}'.`);
    const from = required(values, 'from');
    const to = required(values, 'to');
    asUsage(() => checkPeriod({ from, to }));
    const project = values.project;
    if (project !== undefined && !isId(project)) throw new UsageError(`--project must be a project id, not '${project}'.`);
    const reason = asUsage(() => checkReason(values.reason));
    return { workspace, user, from, to, project, reason };
  },
  async run({ db, output, clock }, input) {
    await requireWorkspace(db, input.workspace);
    const result = await withdrawApproval(
      db,
      input.workspace,
      { user: input.user, from: input.from, to: input.to, project_id: input.project, reason: input.reason },
      clock(),
      { actor: operatorPrincipal(input.workspace) },
    );
    const range = (w: { week_start: string; week_end: string }) => `${w.week_start}..${w.week_end}`;
    print(output, result, () =>
      [
        fields({
          user_id: result.user_id,
          from: result.from,
          to: result.to,
          project_id: result.project_id,
          time_entry_count: result.time_entry_count,
          expense_count: result.expense_count,
          billed_kept_count: result.billed_kept_count,
          unlocked_weeks: result.unlocked_weeks.length ? result.unlocked_weeks.map(range).join(', ') : 'none',
          still_locked_weeks: result.still_locked_weeks.length ? result.still_locked_weeks.map(range).join(', ') : 'none',
          reason: result.reason,
        }),
        // Each week left locked, with what holds it: the operator learns why and what to do.
        ...result.still_locked_weeks.flatMap((w) => ['', ...w.held_by.map((h) => `${range(w)} stays locked: ${h.message}`)]),
      ].join('\n'),
    );
  },
};

/**
 * The approval commands by name, for the command table of src/cli/main.ts:
 * `...Object.values(approvalCommands)` next to the other areas' commands.
 */
export const approvalCommands: Record<string, AdminCommand<any>> = { withdraw };
