import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { preflightQuery, useApprove, useReject, type QueueRow } from './api.ts';
import { itemsText, weekText } from './format.ts';

/**
 * Review of one person's week: the preflight as it is now (blockers stop Approve;
 * each warning is a checkbox to acknowledge), Approve with the fingerprint reviewed,
 * or Reject with a reason. A period changed meanwhile answers 409 with the current
 * preflight: it is read again and shown, to be reviewed again.
 */
export function ReviewDialog({ row, onDone }: { row: QueueRow; onDone: (message: string) => void }) {
  const period = { user_id: row.user_id, from: row.week_start, to: row.week_end };
  const title = `${row.name}, ${weekText(row.week_start, row.week_end)}`;
  return (
    <Dialog title={title}>
      <Review period={period} title={title} onDone={onDone} />
    </Dialog>
  );
}

function Review({ period, title, onDone }: { period: { user_id: string; from: string; to: string }; title: string; onDone: (message: string) => void }) {
  const { data: preflight, error, refetch } = useQuery(preflightQuery(period));
  const [acknowledged, setAcknowledged] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const approve = useApprove();
  const reject = useReject();
  const keyFor = useIdempotencyKey();
  if (error && !preflight) return <Alert>{describeError(error).message}</Alert>;
  if (!preflight) return <p className="text-sm text-stone-600">Reading the period…</p>;
  const codes = [...new Set(preflight.warnings.map((w) => w.code))];
  const allAcknowledged = codes.every((c) => acknowledged.includes(c));
  const failure = approve.error ?? reject.error;

  const onApprove = () => {
    const body = { period, fingerprint: preflight.fingerprint, codes };
    approve.mutate(
      { ...body, key: keyFor({ approve: body }) },
      {
        onSuccess: (r) => onDone(`Approved ${itemsText(r.time_entry_count + r.expense_count)} of ${title}.`),
        onError: () => void refetch().then(() => setAcknowledged([])),
      },
    );
  };
  const onReject = () => {
    const body = { period, reason };
    reject.mutate({ ...body, key: keyFor({ reject: body }) }, { onSuccess: (r) => onDone(`Returned ${itemsText(r.time_entry_count + r.expense_count)} of ${title} for correction.`) });
  };

  return (
    <div className="flex flex-col gap-4 text-sm">
      <p className="text-stone-700">{itemsText(preflight.submitted_count)} submitted.</p>
      {failure && <Alert>{describeError(failure).message}{approve.error ? ' The check below is the current one: review it again.' : ''}</Alert>}
      {preflight.blockers.length > 0 && (
        <Alert title="Cannot be approved yet">
          <ul className="list-disc pl-5">
            {preflight.blockers.map((b) => (
              <li key={b.code}>{b.message}</li>
            ))}
          </ul>
        </Alert>
      )}
      {preflight.warnings.length > 0 ? (
        <fieldset className="flex flex-col gap-2 rounded-md border border-amber-200 bg-amber-50 p-3">
          <legend className="px-1 font-semibold text-amber-900">Warnings to acknowledge</legend>
          {preflight.warnings.map((w) => (
            <Checkbox
              key={w.code}
              isSelected={acknowledged.includes(w.code)}
              onChange={(on) => setAcknowledged((a) => (on ? [...a, w.code] : a.filter((c) => c !== w.code)))}
            >
              {w.message}
            </Checkbox>
          ))}
        </fieldset>
      ) : (
        preflight.blockers.length === 0 && <p className="text-stone-700">No warnings.</p>
      )}
      <Button onPress={onApprove} isPending={approve.isPending} isDisabled={preflight.blockers.length > 0 || preflight.submitted_count === 0 || !allAcknowledged}>
        {codes.length ? 'Acknowledge and approve' : 'Approve'}
      </Button>
      <div className="flex flex-col gap-2 border-t border-stone-200 pt-4">
        <TextArea label="Reason for returning it" description="Sent to the person by e-mail." value={reason} onChange={setReason} maxLength={2000} />
        <Button variant="secondary" onPress={onReject} isPending={reject.isPending} isDisabled={preflight.submitted_count === 0}>
          Reject and return for correction
        </Button>
      </div>
    </div>
  );
}
