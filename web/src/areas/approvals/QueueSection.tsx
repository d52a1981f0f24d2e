import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { search, searchIndex } from '../../ui/match.ts';
import { Pager } from '../../ui/Pager.tsx';
import { pageOfRows } from '../../ui/pages.ts';
import { TextField } from '../../ui/TextField.tsx';
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

/**
 * Rows shown at a time. An agency's administrator has thousands of approved weeks in the last
 * six months (300 people × 26 weeks): all of them, each with its button, took the browser
 * tens of seconds to draw, so the list is paged here (the answer is small) and can be narrowed
 * to a person.
 */
const PAGE_ROWS = 50;

function QueueTable({ id, title, empty, rows, action }: { id: string; title: string; empty: string; rows: QueueRow[]; action: (row: QueueRow) => React.ReactNode }) {
  const t = useApprovalTexts();
  const format = useFormat();
  const [query, setQuery] = useState('');
  const [wanted, setPage] = useState(1);
  const index = useMemo(() => searchIndex(rows, (r) => `${r.name} ${r.email}`), [rows]);
  const found = query.trim() ? search(index, query) : rows;
  // A review or withdrawal shortens the list: it stays on its last page rather than an empty one.
  const { shown, page, pages } = pageOfRows(found, wanted, PAGE_ROWS);
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold text-stone-900">
        {title}
      </h2>
      {rows.length > PAGE_ROWS && (
        <div className="flex flex-col gap-1">
          <TextField
            label={t('queue.find')}
            description={t('queue.findHint')}
            type="search"
            value={query}
            onChange={(value) => {
              setQuery(value);
              setPage(1);
            }}
            className="max-w-sm"
          />
          {query.trim() && (
            <p role="status" className="text-sm text-stone-600">
              {t('queue.found', { count: found.length, query: query.trim() })}
            </p>
          )}
        </div>
      )}
      {found.length === 0 ? (
        // A search that found nobody says so in its status line; the list itself is not empty.
        rows.length === 0 && <p className="text-sm text-stone-600">{empty}</p>
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
              {shown.map((row) => (
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
      {pages > 1 && <Pager list={{ page, total_pages: pages, total_entries: found.length }} noun={t('queue.weeksNoun')} onPage={setPage} />}
    </section>
  );
}
