import { Decimal } from 'decimal.js';
import type { Kysely } from 'kysely';
import { seesBudgetOfKind } from '../../../access/reports.ts';
import { memberPrincipal } from '../../../auth/authenticate.ts';
import type { Clock } from '../../../clock.ts';
import type { Tx } from '../../../db/tenant.ts';
import { DEFAULT_DATABASE_TIMEOUTS } from '../../../db/timeouts.ts';
import type { DB } from '../../../db/types.ts';
import { mailMonth, mailNumber, translator } from '../../../i18n/index.ts';
import { newId } from '../../../ids.ts';
import { enqueueMail } from '../../../outbox/enqueue.ts';
import { repeatEvery } from '../../../repeat.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { formatMoney } from '../../billing/invoices/index.ts';
import { monthOf, projectBudgetRows, readReport, type BudgetRow } from '../reports/index.ts';
import { ALERTED_PROJECTS, insertAlert, recipientsOf, thresholdsOf, workspacesWithAlerts } from './queries.ts';
import { alertDue, alertPeriod, percentSpent } from './rules.ts';

/**
 * Budget alerts (Harvest's "notify when over budget"): a project with `notify_when_over_budget`
 * e-mails its managers once its budget is `over_budget_notification_percentage` spent, counted
 * as the project budget report counts it (the same statement: rounded time, historical rates,
 * a monthly budget's current month in the workspace's zone). Every server process runs this on
 * an interval (server.ts); any number may run at once, because the database decides: each alert
 * is recorded (unique per project, period, budget and threshold) in the transaction that
 * enqueues its e-mails, so it goes once, and not at all when that transaction fails. A monthly
 * budget alerts again the next month; a raised budget or a changed threshold, once more.
 */

export interface BudgetAlertDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** The address people reach this server at (the project's link in the e-mail). */
  baseUrl: string;
  onError?: (err: unknown, workspace: { workspace_id: string }) => void;
}

/** Projects checked per statement (the budget report's own page size). */
const PAGE = 2000;

async function alertWorkspace(deps: BudgetAlertDeps, companyId: string, timezone: string, now: Date): Promise<number> {
  const ctx = { db: deps.db, timeouts: DEFAULT_DATABASE_TIMEOUTS, now: () => now };
  const month = monthOf(todayIn(timezone, now));
  return readReport(ctx, { companyId }, async (trx) => {
    let sent = 0;
    for (let offset = 0; ; offset += PAGE) {
      const rows = await projectBudgetRows(trx, companyId, ALERTED_PROJECTS, { month, limit: PAGE, offset, costVisible: true });
      const thresholds = rows.length ? new Map((await thresholdsOf(trx, companyId, rows.map((r) => r.project_id))).map((t) => [t.id, t.percentage])) : new Map<string, string>();
      for (const row of rows) {
        const percentage = thresholds.get(row.project_id);
        if (percentage === undefined || !alertDue(row.budget, row.budget_spent, percentage)) continue;
        const period = alertPeriod(row.budget_is_monthly, month.start);
        const alert = { id: newId(now.getTime()), projectId: row.project_id, period, budget: row.budget!, percentage, spent: row.budget_spent };
        if (!(await insertAlert(trx, companyId, alert, now))) continue;
        await enqueueAlertMails(trx, deps.baseUrl, companyId, row, percentage, month.start, now);
        sent += 1;
      }
      if (rows.length < PAGE) return sent;
    }
  });
}

/** One e-mail per recipient, in their language; amounts only to whom the budget's kind is shown (seesBudgetOfKind). */
async function enqueueAlertMails(trx: Tx, baseUrl: string, companyId: string, row: BudgetRow, percentage: string, monthStart: string, now: Date) {
  const hours = row.currency === null;
  for (const person of await recipientsOf(trx, companyId, row.project_id)) {
    const principal = await memberPrincipal(trx, companyId, person.id);
    if (!principal || !person.email) continue;
    const language = person.language;
    const t = translator(language);
    const amount = (value: string) =>
      hours ? t('budgetAlert.hours', { hours: mailNumber(new Decimal(value).toDecimalPlaces(2).toFixed(), language) }) : formatMoney(value, row.currency!, { language });
    const values = {
      project: row.project_name,
      client: row.client_name,
      percent: String(percentSpent(row.budget!, row.budget_spent)),
      threshold: mailNumber(new Decimal(percentage).toFixed(), language),
      spent: amount(row.budget_spent),
      budget: amount(row.budget!),
      month: mailMonth(monthStart, language),
    };
    const shown = seesBudgetOfKind(principal, row.budget_by);
    const text = [
      t('mail.greeting', { name: person.first_name }),
      '',
      t(row.budget_is_monthly ? (shown ? 'budgetAlert.spentMonthly' : 'budgetAlert.shareMonthly') : shown ? 'budgetAlert.spent' : 'budgetAlert.share', values),
      '',
      t('budgetAlert.why', values),
      `${baseUrl}/projects/${row.project_id}`,
    ].join('\n');
    await enqueueMail(
      trx,
      companyId,
      'budget_alert',
      { to: [{ email: person.email, name: [person.first_name, person.last_name].filter(Boolean).join(' ') }], subject: t('budgetAlert.subject', values), text },
      now,
    );
  }
}

/** Checks every workspace's alerted projects once (one run of the scheduler); `workspaceId` limits it to one (the command line's option). */
export async function runBudgetAlerts(deps: BudgetAlertDeps, { workspaceId }: { workspaceId?: string } = {}): Promise<{ sent: number }> {
  const now = deps.clock();
  let sent = 0;
  let after: string | null = null;
  for (;;) {
    const batch = await workspacesWithAlerts(deps.db, 200, after, workspaceId);
    for (const w of batch) {
      try {
        sent += await alertWorkspace(deps, w.id, w.timezone, now);
      } catch (err) {
        if (!deps.onError) throw err;
        deps.onError(err, { workspace_id: w.id });
      }
    }
    if (batch.length < 200) return { sent };
    after = batch[batch.length - 1]!.id;
  }
}

/** Runs the alerts every `intervalMs` until stopped. */
export function startBudgetAlertScheduler(deps: BudgetAlertDeps, intervalMs = 60_000, onError: (err: unknown) => void = () => {}) {
  return repeatEvery(intervalMs, () => runBudgetAlerts(deps), onError);
}
