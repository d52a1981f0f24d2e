import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { roleLabel } from '../../api/roles.ts';
import { describeError } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { homeQuery, runningQuery } from './api.ts';
import { OverdueSection, UninvoicedSection } from './BillingSections.tsx';
import { elapsedMs, withRunning } from './home.ts';
import { ApprovalsSection, BudgetsSection } from './TeamSections.tsx';
import { Emphasis } from './Emphasis.tsx';
import { useHomeTexts } from './texts.ts';
import { WeekSection } from './WeekSection.tsx';
import { RecentSection, RunningSection } from './WorkSection.tsx';
import { PlanSection } from './PlanSection.tsx';
import { useServerNow } from '../../api/server-clock.ts';

/**
 * Home: where you stand (issue 21 item 9). This week against your expected hours, the
 * running timer, recent work to continue, your plan this week (when planned); for managers, approvals waiting and budgets
 * running out; for owners and administrators, what is left to invoice and what is
 * overdue. One read (/web/api/home) beside the session and the timer: three calls.
 * Sections the server leaves out (not the caller's to see) are not shown.
 */
export function HomePage() {
  const { user, workspace, workspaces } = useWorkspaceSession();
  const t = useHomeTexts();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const home = useQuery(homeQuery);
  const timer = useQuery(runningQuery);
  const running = timer.data?.running ?? null;
  useWeekFollowsTimer(timer.data === undefined ? undefined : (running?.id ?? null));
  const now = useServerNow(running !== null);
  const elapsed = running ? elapsedMs(running, timer.dataUpdatedAt, now) : 0;
  const fullName = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
  const name = user.first_name || fullName;
  const others = workspaces.filter((w) => w.id !== workspace.id).length;
  const data = home.data;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      {notice && <Alert tone="success">{notice}</Alert>}
      <div>
        <PageHeading title={workspace.name}>{t('welcome', { name })}</PageHeading>
        <p className="mt-1 text-sm text-stone-600">
          <Emphasis text={t('signedIn', { workspace: workspace.name, name: fullName, email: user.email })} className="font-medium text-stone-800" />{' '}
          <Emphasis text={t('yourRole', { role: roleLabel(workspace.role) })} className="font-medium text-stone-800" />
          {others > 0 && <> {t('switchWorkspace', { count: others })}</>}
        </p>
      </div>

      {home.error && <Alert>{describeError(home.error).message}</Alert>}
      {data && (
        // data-home-dashboard: what bench/web-home.ts waits for (the sections are drawn with the answer).
        <div className="grid gap-6 lg:grid-cols-2" data-home-dashboard="">
          <WeekSection
            week={{ ...data.week, days: withRunning(data.week.days, running && { spent_date: running.spent_date, seconds: Math.floor(elapsed / 1000) }) }}
            today={data.today}
          />
          <div className="flex min-w-0 flex-col gap-6">
            <RunningSection running={running} elapsed={elapsed} />
            <RecentSection recent={data.recent} running={running} />
          </div>
          {data.plan.length > 0 && <PlanSection plan={data.plan} />}
          {data.approvals && <ApprovalsSection approvals={data.approvals} />}
          {data.budgets && <BudgetsSection budgets={data.budgets} />}
          {data.uninvoiced && <UninvoicedSection uninvoiced={data.uninvoiced} />}
          {data.overdue_invoices && <OverdueSection overdue={data.overdue_invoices} />}
        </div>
      )}
    </div>
  );
}

/**
 * A timer stopped or started elsewhere (the timer bar, another tab) changes the week's
 * completed time: read the home page again when the running entry changes (`undefined`:
 * the timer is not known yet).
 */
function useWeekFollowsTimer(runningId: string | null | undefined) {
  const queryClient = useQueryClient();
  const last = useRef(runningId);
  useEffect(() => {
    // Not yet known, or first known (the load's own answer): nothing changed.
    if (runningId === undefined || last.current === runningId) return;
    const before = last.current;
    last.current = runningId;
    if (before !== undefined) void queryClient.invalidateQueries({ queryKey: homeQuery.queryKey });
  }, [runningId, queryClient]);
}
