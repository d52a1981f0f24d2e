import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { reviewQuery, useApprove, useReject, type Period, type QueueRow, type Review, type ReviewEntry, type ReviewExpense, type ReviewProject } from './api.ts';
import { findingText } from './findings.ts';
import { useApprovalTexts } from './texts.ts';

const STATUSES = ['unsubmitted', 'submitted', 'approved', 'rejected'] as const;
const isStatus = (s: string): s is (typeof STATUSES)[number] => (STATUSES as readonly string[]).includes(s);

/**
 * Review of one person's week: every time entry and expense (day, project and task
 * or category, notes, hours, and money as the approver may see it: the server leaves
 * time amounts out for those who may not see billable rates), the preflight as it is
 * now (blockers stop Approve; each warning is a checkbox to acknowledge), and Approve
 * or Reject for the whole week or for one project. A period changed meanwhile answers
 * 409 with the current preflight: it is read again and shown, to be reviewed again.
 */
export function ReviewDialog({ row, onDone }: { row: QueueRow; onDone: (message: string) => void }) {
  const t = useApprovalTexts();
  const format = useFormat();
  const period = { user_id: row.user_id, from: row.week_start, to: row.week_end };
  const title = t('review.title', { name: row.name, week: format.dayRange(row.week_start, row.week_end) });
  return (
    <Dialog title={title} wide>
      <ReviewBody period={period} title={title} onDone={onDone} />
    </Dialog>
  );
}

function ReviewBody({ period, title, onDone }: { period: Period; title: string; onDone: (message: string) => void }) {
  const { data: review, error, refetch } = useQuery(reviewQuery(period));
  const [acknowledged, setAcknowledged] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const approve = useApprove();
  const reject = useReject();
  const keyFor = useIdempotencyKey();
  const t = useApprovalTexts();
  const format = useFormat();
  if (error && !review) return <Alert>{describeError(error).message}</Alert>;
  if (!review) return <p className="text-sm text-stone-600">{t('review.reading')}</p>;
  const codes = [...new Set(review.warnings.map((w) => w.code))];
  const allAcknowledged = codes.every((c) => acknowledged.includes(c));
  const failure = approve.error ?? reject.error;
  const several = review.projects.length > 1;
  const nameOf = (project: ReviewProject) => `${project.client_name} - ${project.name}`;

  const finish = (message: string, project?: ReviewProject) => {
    onDone(message);
    // One project done, the dialog stays with the rest of the week (read again).
    if (project) setDone(message);
  };
  const onApprove = (project?: ReviewProject) => {
    const scope = project ? { ...period, project_id: project.id } : period;
    // The warnings are the week's: acknowledged once, they hold for one project as for all.
    const body = { period: scope, fingerprint: review.fingerprint, codes };
    approve.mutate(
      { ...body, key: keyFor({ approve: body }) },
      {
        onSuccess: (r) => {
          const count = r.time_entry_count + r.expense_count;
          finish(project ? t('review.approvedProject', { count, project: nameOf(project), title }) : t('review.approvedWeek', { count, name: title }), project);
        },
        onError: () => void refetch().then(() => setAcknowledged([])),
      },
    );
  };
  const onReject = (project?: ReviewProject) => {
    const body = { period: project ? { ...period, project_id: project.id } : period, reason };
    reject.mutate(
      { ...body, key: keyFor({ reject: body }) },
      {
        onSuccess: (r) => {
          setReason('');
          const count = r.time_entry_count + r.expense_count;
          finish(project ? t('review.returnedProject', { count, project: nameOf(project), title }) : t('review.returnedWeek', { count, name: title }), project);
        },
      },
    );
  };
  const mayApprove = (blocked: boolean, count: number) => !blocked && count > 0 && allAcknowledged;

  return (
    <div className="flex flex-col gap-4 text-sm">
      <p className="text-stone-700">
        {t(review.shows_amounts ? 'review.submitted' : 'review.submittedNoAmounts', { count: review.submitted_count })}
      </p>
      {done && <Alert tone="success">{done}</Alert>}
      {failure && <Alert>{describeError(failure).message}{approve.error ? ` ${t('review.checkAgain')}` : ''}</Alert>}
      {review.blockers.length > 0 && (
        <Alert title={t('review.cannotApprove')}>
          <ul className="list-disc pl-5">
            {review.blockers.map((b) => (
              <li key={b.code}>{findingText(b, t, format)}</li>
            ))}
          </ul>
        </Alert>
      )}
      {review.projects.length === 0 && <p className="text-stone-600">{t('review.nothingYours')}</p>}
      {review.projects.map((project) => (
        <ProjectItems key={project.id} project={project} review={review}>
          {several && (
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                onPress={() => onApprove(project)}
                isPending={approve.isPending && approve.variables?.period.project_id === project.id}
                isDisabled={!mayApprove(project.blocked, project.submitted_count)}
              >
                {t('review.approveProject', { project: project.name })}
              </Button>
              <Button
                variant="secondary"
                onPress={() => onReject(project)}
                isPending={reject.isPending && reject.variables?.period.project_id === project.id}
                isDisabled={project.submitted_count === 0}
              >
                {t('review.rejectProject', { project: project.name })}
              </Button>
            </div>
          )}
        </ProjectItems>
      ))}
      {review.warnings.length > 0 ? (
        <fieldset className="flex flex-col gap-2 rounded-md border border-amber-200 bg-amber-50 p-3">
          <legend className="px-1 font-semibold text-amber-900">{t('review.warnings')}</legend>
          {review.warnings.map((w) => (
            <Checkbox
              key={w.code}
              isSelected={acknowledged.includes(w.code)}
              onChange={(on) => setAcknowledged((a) => (on ? [...a, w.code] : a.filter((c) => c !== w.code)))}
            >
              {findingText(w, t, format)}
            </Checkbox>
          ))}
        </fieldset>
      ) : (
        review.blockers.length === 0 && <p className="text-stone-700">{t('review.noWarnings')}</p>
      )}
      <Button
        onPress={() => onApprove()}
        isPending={approve.isPending && !approve.variables?.period.project_id}
        isDisabled={!mayApprove(review.blockers.length > 0, review.submitted_count)}
      >
        {codes.length ? t('review.acknowledgeApprove') : t('review.approve')}
      </Button>
      <div className="flex flex-col gap-2 border-t border-stone-200 pt-4">
        <TextArea label={t('review.reason')} description={t('review.reasonHint')} value={reason} onChange={setReason} maxLength={2000} />
        <Button
          variant="secondary"
          onPress={() => onReject()}
          isPending={reject.isPending && !reject.variables?.period.project_id}
          isDisabled={review.submitted_count === 0}
        >
          {t('review.reject')}
        </Button>
      </div>
    </div>
  );
}

/** One project's entries and expenses of the week, by day: a table of four columns, narrow enough for a phone. */
function ProjectItems({ project, review, children }: { project: ReviewProject; review: Review; children?: ReactNode }) {
  const entries = review.time_entries.filter((e) => e.project_id === project.id);
  const expenses = review.expenses.filter((e) => e.project_id === project.id);
  const id = `review-project-${project.id}`;
  const t = useApprovalTexts();
  const format = useFormat();
  const seconds = entries.reduce((sum, e) => sum + Math.round(e.hours * 3600), 0);
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2 rounded-md border border-stone-200 p-3">
      <h3 id={id} className="font-semibold text-stone-900">
        {project.client_name} - {project.name}
        {project.code && <span className="font-normal text-stone-600"> ({project.code})</span>}
        <span className="block text-xs font-normal text-stone-600">
          {t(project.blocked ? 'review.projectBlocked' : 'review.projectSubmitted', { count: project.submitted_count })}
        </span>
      </h3>
      {/* A phone may scroll the table sideways: the region takes focus, so the keyboard can scroll it too. */}
      <div className="overflow-x-auto" role="region" tabIndex={0} aria-label={t('review.caption', { project: project.name })}>
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">{t('review.caption', { project: project.name })}</caption>
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              <th scope="col" className="py-1.5 pr-2">{t('review.day')}</th>
              <th scope="col" className="py-1.5 pr-2">{t('review.item')}</th>
              <th scope="col" className="py-1.5 pr-2 text-right">{t('review.hours')}</th>
              <th scope="col" className="py-1.5 text-right">{t('review.amount')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100 align-top">
            {entries.map((e) => (
              <EntryRow key={e.id} entry={e} currency={project.currency} />
            ))}
            {expenses.map((e) => (
              <ExpenseRow key={e.id} expense={e} currency={project.currency} />
            ))}
          </tbody>
          {entries.length > 0 && (
            <tfoot className="border-t border-stone-200 font-medium">
              <tr>
                <th scope="row" colSpan={2} className="py-1.5 pr-2 text-left">
                  {t('review.totalTime')}
                </th>
                <td className="py-1.5 pr-2 text-right tabular-nums">{format.duration(seconds)}</td>
                <td />
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      {children}
    </section>
  );
}

function Status({ status }: { status: string }) {
  const t = useApprovalTexts();
  return status === 'submitted' ? null : (
    <span className="ml-1 rounded-sm bg-stone-100 px-1 text-xs text-stone-700">{isStatus(status) ? t(`review.status.${status}`) : status}</span>
  );
}

function EntryRow({ entry, currency }: { entry: ReviewEntry; currency: string }) {
  const t = useApprovalTexts();
  const format = useFormat();
  const times = entry.started_time && entry.ended_time ? `${format.time(entry.started_time)}–${format.time(entry.ended_time)}` : null;
  return (
    <tr>
      <td className="py-1.5 pr-2 whitespace-nowrap text-stone-700">{format.weekday(entry.spent_date)}</td>
      <th scope="row" className="py-1.5 pr-2 text-left font-normal">
        <span className="font-medium text-stone-900">{entry.task_name ?? t('review.time')}</span>
        <Status status={entry.approval_status} />
        {!entry.billable && <span className="text-xs text-stone-600">{t('review.notBillable')}</span>}
        {times && <span className="block text-xs text-stone-600">{times}</span>}
        {entry.notes && <span className="block break-words whitespace-pre-line text-stone-700">{entry.notes}</span>}
      </th>
      <td className="py-1.5 pr-2 text-right tabular-nums">{entry.is_running ? t('review.running') : format.hours(entry.hours)}</td>
      <td className="py-1.5 text-right tabular-nums">
        {entry.billable_amount != null ? format.money(entry.billable_amount, currency) : <span className="sr-only">{t('review.noAmount')}</span>}
      </td>
    </tr>
  );
}

function ExpenseRow({ expense, currency }: { expense: ReviewExpense; currency: string }) {
  const t = useApprovalTexts();
  const format = useFormat();
  const units = expense.units !== null && expense.unit_name ? t('review.units', { units: format.number(expense.units, 6), unit: expense.unit_name }) : null;
  return (
    <tr>
      <td className="py-1.5 pr-2 whitespace-nowrap text-stone-700">{format.weekday(expense.spent_date)}</td>
      <th scope="row" className="py-1.5 pr-2 text-left font-normal">
        <span className="font-medium text-stone-900">{t('review.expense', { category: expense.category_name })}</span>
        <Status status={expense.approval_status} />
        {!expense.billable && <span className="text-xs text-stone-600">{t('review.notBillable')}</span>}
        {units && <span className="block text-xs text-stone-600">{units}</span>}
        {expense.notes && <span className="block break-words whitespace-pre-line text-stone-700">{expense.notes}</span>}
      </th>
      <td className="py-1.5 pr-2" />
      <td className="py-1.5 text-right tabular-nums">{format.money(expense.total_cost, currency)}</td>
    </tr>
  );
}
