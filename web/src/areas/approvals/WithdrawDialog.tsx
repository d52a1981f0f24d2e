import { useState } from 'react';
import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { useWithdraw, type LockedWeek, type QueueRow } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { useApprovalTexts } from './texts.ts';

/**
 * Withdrawing an approval (web app only): the week's approved time goes back to
 * submitted and the week unlocks. Refused, with the reason, where billed work
 * depends on it; a week still held by approved time the approver does not reach
 * says so.
 */
export function WithdrawDialog({ row, onDone }: { row: QueueRow; onDone: (message: string) => void }) {
  const t = useApprovalTexts();
  const format = useFormat();
  const week = format.dayRange(row.week_start, row.week_end);
  const title = t('withdraw.title', { name: row.name, week });
  const [reason, setReason] = useState('');
  const [stillLocked, setStillLocked] = useState<LockedWeek[]>([]);
  const withdraw = useWithdraw();
  const refused = withdraw.error instanceof HttpError ? withdraw.error : null;

  const onWithdraw = () =>
    withdraw.mutate(
      { period: { user_id: row.user_id, from: row.week_start, to: row.week_end }, reason },
      {
        onSuccess: (r) => {
          if (r.still_locked_weeks.length === 0) onDone(t('withdraw.done', { count: r.time_entry_count + r.expense_count, name: row.name, week }));
          else setStillLocked(r.still_locked_weeks);
        },
      },
    );

  return (
    <Dialog title={title}>
      <div className="flex flex-col gap-4 text-sm">
        <p className="text-stone-700">
          {t('withdraw.explained')}
        </p>
        {refused && (
          <Alert title={refused.code === 'approval_withdrawal_billed' ? t('withdraw.billed') : undefined}>
            {describeError(refused).message}
          </Alert>
        )}
        {stillLocked.length > 0 && (
          <Alert tone="info" title={t('withdraw.stillLocked')}>
            <ul className="list-disc pl-5">
              {stillLocked.flatMap((w) => w.held_by.map((h) => <li key={`${w.week_start}/${h.reason}`}>{h.message}</li>))}
            </ul>
          </Alert>
        )}
        <TextArea label={t('withdraw.reason')} description={t('withdraw.reasonHint')} value={reason} onChange={setReason} maxLength={2000} />
        <Button variant="danger" onPress={onWithdraw} isPending={withdraw.isPending}>
          {t('withdraw.withdraw')}
        </Button>
      </div>
    </Dialog>
  );
}
