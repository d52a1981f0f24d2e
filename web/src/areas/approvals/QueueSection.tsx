import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { queueQuery, type QueueRow } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { useApprovalTexts } from './texts.ts';
import { ReviewDialog } from './ReviewDialog.tsx';
import { WithdrawDialog } from './WithdrawDialog.tsx';

/** The approver's queue: weeks submitted to them (review), and weeks approved lately (withdraw). */
export function QueueSection() {
  const { data: queue, error } = useQuery(queueQuery);
  const [done, setDone] = useState<string | null>(null);
  const t = useApprovalTexts();
  const format = useFormat();
  if (error && !queue) return <Alert>{describeError(error).message}</Alert>;
  if (!queue) return null;
  return (
    <>
      {done && <Alert tone="success">{done}</Alert>}
      <QueueTable
        id="to-approve"
        title={t('queue.toApprove')}
        empty={t('queue.toApproveEmpty')}
        rows={queue.submitted}
        action={(row) => (
          <DialogTrigger>
            <Button variant="secondary" aria-label={t('queue.reviewNamed', { name: row.name, week: format.dayRange(row.week_start, row.week_end) })}>
              {t('queue.review')}
            </Button>
            <ReviewDialog row={row} onDone={setDone} />
          </DialogTrigger>
        )}
      />
      <QueueTable
        id="approved"
        title={t('queue.approved')}
        empty={t('queue.approvedEmpty')}
        rows={queue.approved}
        action={(row) => (
          <DialogTrigger>
            <Button variant="secondary" aria-label={t('queue.withdrawNamed', { name: row.name, week: format.dayRange(row.week_start, row.week_end) })}>
              {t('queue.withdraw')}
            </Button>
            <WithdrawDialog row={row} onDone={setDone} />
          </DialogTrigger>
        )}
      />
    </>
  );
}

function QueueTable({ id, title, empty, rows, action }: { id: string; title: string; empty: string; rows: QueueRow[]; action: (row: QueueRow) => React.ReactNode }) {
  const t = useApprovalTexts();
  const format = useFormat();
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold text-stone-900">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-stone-600">{empty}</p>
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
          <table data-stack className="w-full min-w-[34rem] border-collapse text-sm">
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">{t('queue.person')}</th>
                <th scope="col" className="px-3 py-2">{t('queue.week')}</th>
                <th scope="col" className="px-3 py-2 text-right">{t('queue.items')}</th>
                <th scope="col" className="px-3 py-2 text-right">{t('queue.hours')}</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">{t('queue.action')}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((row) => (
                <tr key={`${row.user_id}/${row.week_start}`}>
                  <th scope="row" className="px-3 py-2 text-left font-medium text-stone-900">
                    {row.name}
                    <span className="block text-xs font-normal text-stone-600">{row.email}</span>
                  </th>
                  <td className="px-3 py-2 whitespace-nowrap text-stone-800">{format.dayRange(row.week_start, row.week_end)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{format.number(row.item_count)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{format.duration(row.seconds)}</td>
                  <td className="px-3 py-2 text-right">{action(row)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
