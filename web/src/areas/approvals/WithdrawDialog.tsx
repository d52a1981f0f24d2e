import { useState } from 'react';
import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { useWithdraw, type LockedWeek, type QueueRow } from './api.ts';
import { itemsText, weekText } from './format.ts';

/**
 * Withdrawing an approval (web app only): the week's approved time goes back to
 * submitted and the week unlocks. Refused, with the reason, where billed work
 * depends on it; a week still held by approved time the approver does not reach
 * says so.
 */
export function WithdrawDialog({ row, onDone }: { row: QueueRow; onDone: (message: string) => void }) {
  const title = `Withdraw approval: ${row.name}, ${weekText(row.week_start, row.week_end)}`;
  const [reason, setReason] = useState('');
  const [stillLocked, setStillLocked] = useState<LockedWeek[]>([]);
  const withdraw = useWithdraw();
  const refused = withdraw.error instanceof HttpError ? withdraw.error : null;

  const onWithdraw = () =>
    withdraw.mutate(
      { period: { user_id: row.user_id, from: row.week_start, to: row.week_end }, reason },
      {
        onSuccess: (r) => {
          const moved = `${itemsText(r.time_entry_count + r.expense_count)} of ${row.name} went back to submitted`;
          if (r.still_locked_weeks.length === 0) onDone(`Approval withdrawn: ${moved}; the week of ${weekText(row.week_start, row.week_end)} is unlocked.`);
          else setStillLocked(r.still_locked_weeks);
        },
      },
    );

  return (
    <Dialog title={title}>
      <div className="flex flex-col gap-4 text-sm">
        <p className="text-stone-700">
          The approved time and expenses of this week go back to submitted, so the week can be changed again; it then needs approving again.
        </p>
        {refused && (
          <Alert title={refused.code === 'approval_withdrawal_billed' ? 'Cannot withdraw: billed work depends on this approval' : undefined}>
            {describeError(refused).message}
          </Alert>
        )}
        {stillLocked.length > 0 && (
          <Alert tone="info" title="Withdrawn, but the week stays locked">
            <ul className="list-disc pl-5">
              {stillLocked.flatMap((w) => w.held_by.map((h) => <li key={`${w.week_start}/${h.reason}`}>{h.message}</li>))}
            </ul>
          </Alert>
        )}
        <TextArea label="Reason (optional)" description="Kept in the audit log." value={reason} onChange={setReason} maxLength={2000} />
        <Button variant="danger" onPress={onWithdraw} isPending={withdraw.isPending}>
          Withdraw approval
        </Button>
      </div>
    </Dialog>
  );
}
