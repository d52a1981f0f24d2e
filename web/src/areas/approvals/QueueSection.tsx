import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { queueQuery, type QueueRow } from './api.ts';
import { hoursText, weekText } from './format.ts';
import { ReviewDialog } from './ReviewDialog.tsx';
import { WithdrawDialog } from './WithdrawDialog.tsx';

/** The approver's queue: weeks submitted to them (review), and weeks approved lately (withdraw). */
export function QueueSection() {
  const { data: queue, error } = useQuery(queueQuery);
  const [done, setDone] = useState<string | null>(null);
  if (error && !queue) return <Alert>{describeError(error).message}</Alert>;
  if (!queue) return null;
  return (
    <>
      {done && <Alert tone="success">{done}</Alert>}
      <QueueTable
        id="to-approve"
        title="Waiting for your approval"
        empty="Nothing is waiting for your approval."
        rows={queue.submitted}
        action={(row) => (
          <DialogTrigger>
            <Button variant="secondary" aria-label={`Review ${row.name}, ${weekText(row.week_start, row.week_end)}`}>
              Review
            </Button>
            <ReviewDialog row={row} onDone={setDone} />
          </DialogTrigger>
        )}
      />
      <QueueTable
        id="approved"
        title="Approved lately"
        empty="No approved weeks in the last six months."
        rows={queue.approved}
        action={(row) => (
          <DialogTrigger>
            <Button variant="secondary" aria-label={`Withdraw approval of ${row.name}, ${weekText(row.week_start, row.week_end)}`}>
              Withdraw approval
            </Button>
            <WithdrawDialog row={row} onDone={setDone} />
          </DialogTrigger>
        )}
      />
    </>
  );
}

function QueueTable({ id, title, empty, rows, action }: { id: string; title: string; empty: string; rows: QueueRow[]; action: (row: QueueRow) => React.ReactNode }) {
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
                <th scope="col" className="px-3 py-2">Person</th>
                <th scope="col" className="px-3 py-2">Week</th>
                <th scope="col" className="px-3 py-2 text-right">Items</th>
                <th scope="col" className="px-3 py-2 text-right">Hours</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">Action</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((row) => (
                <tr key={`${row.user_id}/${row.week_start}`}>
                  <th scope="row" className="px-3 py-2 text-left font-medium text-stone-900">
                    {row.name}
                    <span className="block text-xs font-normal text-stone-600">{row.email}</span>
                  </th>
                  <td className="px-3 py-2 whitespace-nowrap text-stone-800">{weekText(row.week_start, row.week_end)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{row.item_count}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{hoursText(row.seconds)}</td>
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
