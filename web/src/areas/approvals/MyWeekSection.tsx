import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { myWeekQuery, useSubmitWeek } from './api.ts';
import { addDays, hoursText, itemsText, weekText } from './format.ts';

const STATES = [
  ['unsubmitted', 'Not submitted'],
  ['rejected', 'Returned for correction'],
  ['submitted', 'Submitted, waiting for approval'],
  ['approved', 'Approved (locked)'],
] as const;

/**
 * The caller's week: its time by approval state, the last rejection's reason, and
 * Submit. Submit sends the fingerprint read with the page, so a week changed since
 * (another tab, the timer) is refused as stale instead of submitted unseen.
 */
export function MyWeekSection({ date }: { date?: string }) {
  const { data: week, error } = useQuery(myWeekQuery(date));
  const submit = useSubmitWeek();
  const keyFor = useIdempotencyKey();
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
          Your week: {weekText(week.from, week.to)}
        </h2>
        <nav aria-label="Weeks" className="flex flex-wrap gap-x-4 text-sm">
          <Link href={`/approvals?date=${addDays(week.from, -7)}`}>Previous week</Link>
          <Link href={`/approvals?date=${week.today}`}>This week</Link>
          <Link href={`/approvals?date=${addDays(week.from, 7)}`}>Next week</Link>
        </nav>
      </div>
      {!week.approvals_enabled && <Alert tone="info">Timesheet approvals are turned off for this workspace.</Alert>}
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        {STATES.map(([state, label]) => (
          <div key={state} className="flex justify-between gap-4 rounded-md bg-stone-50 px-3 py-2">
            <dt className="text-stone-700">{label}</dt>
            <dd className="tabular-nums text-stone-900">
              {itemsText(week.statuses[state].count)}, {hoursText(week.statuses[state].seconds)}
            </dd>
          </div>
        ))}
      </dl>
      {week.rejection && week.statuses.rejected.count > 0 && (
        <Alert title={`Returned for correction${week.rejection.rejected_by ? ` by ${week.rejection.rejected_by}` : ''}`}>
          {week.rejection.reason ? <p className="whitespace-pre-wrap">{week.rejection.reason}</p> : <p>No reason was given.</p>}
          <p className="mt-1">
            Correct the time in <Link href={`/time/week?start=${week.from}`}>the week’s timesheet</Link>, then submit again.
          </p>
        </Alert>
      )}
      {submit.isSuccess && (
        <Alert tone="success">
          Submitted {itemsText(submit.data.submitted_count)} ({hoursText(submit.data.submitted_seconds)}) for approval.
        </Alert>
      )}
      {failure && (
        <Alert>
          {failure.message}
          {failure.code === 'running_timer' && <> Stop it in the timer bar first.</>}
          {(failure.code === 'submission_stale' || failure.code === 'running_timer') && (
            <Button variant="secondary" className="mt-2 ml-0 block" onPress={() => submit.reset()}>
              Review again
            </Button>
          )}
        </Alert>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button onPress={onSubmit} isPending={submit.isPending} isDisabled={!week.approvals_enabled || open === 0 || week.running || submit.isError}>
          Submit week for approval
        </Button>
        <span className="text-sm text-stone-600">
          {week.running
            ? 'A timer is running in this week: stop it before submitting.'
            : open === 0
              ? 'Nothing to submit in this week.'
              : `${itemsText(open)} will be submitted.`}
        </span>
      </div>
    </section>
  );
}
