import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { addDays } from '../../ui/dates.ts';
import { Link } from '../../ui/Link.tsx';
import { myWeekQuery } from '../../api/approval-week.ts';
import { useSubmitWeek } from './api.ts';
import { useApprovalTexts } from './texts.ts';

const STATES = ['unsubmitted', 'rejected', 'submitted', 'approved'] as const;

/**
 * The caller's week: its time by approval state, the last rejection's reason, and
 * Submit. Submit sends the fingerprint read with the page, so a week changed since
 * (another tab, the timer) is refused as stale instead of submitted unseen.
 */
export function MyWeekSection({ date }: { date?: string }) {
  const { data: week, error } = useQuery(myWeekQuery(date));
  const submit = useSubmitWeek();
  const keyFor = useIdempotencyKey();
  const t = useApprovalTexts();
  const format = useFormat();
  if (error && !week) return <Alert>{describeError(error).message}</Alert>;
  if (!week) return null;
  const open = week.statuses.unsubmitted.count + week.statuses.rejected.count;
  const failure = submit.error ? describeError(submit.error) : null;

  const onSubmit = () => {
    const body = { from: week.from, to: week.to, fingerprint: week.fingerprint };
    submit.mutate({ ...body, key: keyFor(body) });
  };

  return (
    <section aria-labelledby="my-week" className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-5 shadow-xs">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-baseline sm:justify-between">
        <h2 id="my-week" className="text-lg font-semibold text-stone-900">
          {t('myWeek.title', { week: format.dayRange(week.from, week.to) })}
        </h2>
        {/* Each link a 24 px target (WCAG 2.5.8): wrapped onto two lines at 390 px in German, they would touch. */}
        <nav aria-label={t('myWeek.weeks')} className="flex flex-wrap gap-x-4 text-sm">
          <Link className="py-0.5" href={`/approvals?date=${addDays(week.from, -7)}`}>{t('myWeek.previous')}</Link>
          <Link className="py-0.5" href={`/approvals?date=${week.today}`}>{t('myWeek.current')}</Link>
          <Link className="py-0.5" href={`/approvals?date=${addDays(week.from, 7)}`}>{t('myWeek.next')}</Link>
        </nav>
      </div>
      {!week.approvals_enabled && <Alert tone="info">{t('myWeek.off')}</Alert>}
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        {STATES.map((state) => (
          <div key={state} className="flex justify-between gap-4 rounded-md bg-stone-50 px-3 py-2">
            <dt className="text-stone-700">{t(`myWeek.states.${state}`)}</dt>
            <dd className="tabular-nums text-stone-900">
              {t('itemsHours', { count: week.statuses[state].count, hours: format.duration(week.statuses[state].seconds) })}
            </dd>
          </div>
        ))}
      </dl>
      {week.rejection && week.statuses.rejected.count > 0 && (
        <Alert title={week.rejection.rejected_by ? t('myWeek.returnedBy', { name: week.rejection.rejected_by }) : t('myWeek.returned')}>
          {week.rejection.reason ? <p className="whitespace-pre-wrap">{week.rejection.reason}</p> : <p>{t('myWeek.noReason')}</p>}
          <p className="mt-1">
            {t('myWeek.correctBefore')}
            <Link href={`/time/week?start=${week.from}`}>{t('myWeek.correctLink')}</Link>
            {t('myWeek.correctAfter')}
          </p>
        </Alert>
      )}
      {submit.isSuccess && (
        <Alert tone="success">
          {t('myWeek.submitted', { count: submit.data.submitted_count, hours: format.duration(submit.data.submitted_seconds) })}
        </Alert>
      )}
      {failure && (
        <Alert>
          {failure.message}
          {failure.code === 'running_timer' && <> {t('myWeek.stopTimer')}</>}
          {(failure.code === 'submission_stale' || failure.code === 'running_timer') && (
            <Button variant="secondary" className="mt-2 ml-0 block" onPress={() => submit.reset()}>
              {t('myWeek.reviewAgain')}
            </Button>
          )}
        </Alert>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button onPress={onSubmit} isPending={submit.isPending} isDisabled={!week.approvals_enabled || open === 0 || week.running || submit.isError}>
          {t('myWeek.submit')}
        </Button>
        <span className="text-sm text-stone-600">
          {week.running ? t('myWeek.running') : open === 0 ? t('myWeek.nothing') : t('myWeek.willSubmit', { count: open })}
        </span>
      </div>
    </section>
  );
}
