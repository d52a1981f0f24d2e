import { useId, type ReactNode } from 'react';
import { useFormat } from '../../api/format.ts';
import { cx } from '../../ui/styles.ts';
import type { ImportReport } from './api.ts';
import { useImportTexts } from './texts.ts';

/**
 * The parts of an import's report (the server's ImportReportSchema): what it creates, lines
 * with a reason (skipped rows, warnings, a refused file's problems), and how the file's
 * people, clients, projects, tasks and rates map. Numbers, days and money go through the
 * person's formatter; the tables stack on a phone (data-stack, ui/stacked-tables.ts).
 */

const COUNTS = ['time_entries', 'clients', 'projects', 'tasks', 'people', 'invitations', 'rates'] as const;

export function Counts({ id, title, created }: { id: string; title: string; created: ImportReport['created'] }) {
  const t = useImportTexts();
  const format = useFormat();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="text-sm font-semibold text-stone-900">
        {title}
      </h3>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4 lg:grid-cols-7">
        {COUNTS.map((key) => (
          <div key={key} className={cx('rounded-md border px-3 py-2', created[key] > 0 ? 'border-teal-200 bg-teal-50' : 'border-stone-200 bg-stone-50')}>
            <dt className="text-xs font-medium text-stone-700">{t(`counts.${key}`)}</dt>
            <dd className="text-xl font-semibold text-stone-900 tabular-nums">{format.number(created[key], 0)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Lines of the file with what is said about them ("Line 2: imported before (the same entry is in the workspace)"); `heading` makes the label an h3. */
export function ItemList({ label, items, heading }: { label: string; items: { line: number | null; message: string }[]; heading?: boolean }) {
  const t = useImportTexts();
  const format = useFormat();
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      {heading ? (
        <h3 id={id} className="text-sm font-semibold text-stone-900">
          {label}
        </h3>
      ) : (
        <p id={id} className="font-medium">
          {label}
        </p>
      )}
      <ul aria-labelledby={id} className="flex flex-col gap-0.5 text-sm">
        {items.map((item, i) => (
          <li key={`${item.line ?? ''}-${i}`} className="break-words">
            {item.line !== null && <span className="font-medium tabular-nums">{t('line', { line: format.number(item.line, 0) })}: </span>}
            {item.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function StatusBadge({ tone, children }: { tone: 'new' | 'existing' | 'invite'; children: ReactNode }) {
  const tones = {
    new: 'bg-teal-50 text-teal-900 ring-teal-700/20',
    existing: 'bg-stone-100 text-stone-800 ring-stone-500/20',
    invite: 'bg-amber-50 text-amber-900 ring-amber-700/20',
  };
  return <span className={cx('inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', tones[tone])}>{children}</span>;
}

interface Column {
  label: string;
  numeric?: boolean;
}

/** One mapping table: a heading, then a table whose first cell of each row names it. */
function MapTable({ id, title, caption, columns, rows }: { id: string; title: string; caption: string; columns: Column[]; rows: { key: string; cells: ReactNode[] }[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} className="text-sm font-semibold text-stone-900">
        {title}
      </h3>
      <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
        <table data-stack className="w-full border-collapse text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
            <tr>
              {columns.map((c) => (
                <th key={c.label} scope="col" className={cx('px-3 py-2', c.numeric && 'text-right')}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {rows.map((row) => (
              <tr key={row.key} className="align-top">
                {row.cells.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="px-3 py-2 text-left font-medium break-words text-stone-900">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className={cx('px-3 py-2 text-stone-800', columns[i]?.numeric && 'text-right tabular-nums')}>
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** How the file's people, clients, projects, tasks and rates map onto the workspace. */
export function MappingTables({ report }: { report: ImportReport }) {
  const t = useImportTexts();
  const format = useFormat();
  const count = (n: number) => format.number(n, 0);
  const status = (s: 'existing' | 'new') => <StatusBadge tone={s}>{t(`status.${s}`)}</StatusBadge>;
  return (
    <div className="flex flex-col gap-6">
      <MapTable
        id="import-people"
        title={t('people.title')}
        caption={t('people.caption')}
        columns={[{ label: t('people.name') }, { label: t('people.email') }, { label: t('people.match') }, { label: t('people.rows'), numeric: true }]}
        rows={report.people.map((p, i) => ({
          key: `${p.email ?? p.name ?? ''}-${i}`,
          cells: [
            p.name ?? p.email ?? '',
            p.email ?? '',
            p.status === 'member' ? <StatusBadge tone="existing">{t('people.member')}</StatusBadge> : <StatusBadge tone="invite">{t('people.invite')}</StatusBadge>,
            count(p.rows),
          ],
        }))}
      />
      <MapTable
        id="import-clients"
        title={t('clients.title')}
        caption={t('clients.caption')}
        columns={[{ label: t('clients.name') }, { label: t('clients.status') }, { label: t('clients.rows'), numeric: true }]}
        rows={report.clients.map((c) => ({ key: c.name, cells: [c.name, status(c.status), count(c.rows)] }))}
      />
      <MapTable
        id="import-projects"
        title={t('projects.title')}
        caption={t('projects.caption')}
        columns={[{ label: t('projects.name') }, { label: t('projects.client') }, { label: t('projects.status') }, { label: t('projects.rows'), numeric: true }]}
        rows={report.projects.map((p) => ({ key: `${p.client}\u0000${p.name}`, cells: [p.name, p.client, status(p.status), count(p.rows)] }))}
      />
      <MapTable
        id="import-tasks"
        title={t('tasks.title')}
        caption={t('tasks.caption')}
        columns={[{ label: t('tasks.name') }, { label: t('tasks.status') }, { label: t('tasks.rows'), numeric: true }]}
        rows={report.tasks.map((task) => ({ key: task.name, cells: [task.name, status(task.status), count(task.rows)] }))}
      />
      <MapTable
        id="import-rates"
        title={t('rates.title')}
        caption={t('rates.caption')}
        columns={[{ label: t('rates.project') }, { label: t('rates.person') }, { label: t('rates.from') }, { label: t('rates.status') }, { label: t('rates.rate'), numeric: true }]}
        rows={report.rates.map((r, i) => ({
          key: `${r.project}-${r.person}-${r.effective_from}-${i}`,
          cells: [
            r.project,
            r.person,
            <time key="from" dateTime={r.effective_from}>
              {format.day(r.effective_from)}
            </time>,
            // Existing: in force from that day already (an earlier import), so not counted as created.
            status(r.status),
            // The file's rate as written (a decimal string); without a currency, the number alone.
            r.currency ? format.money(Number(r.hourly_rate), r.currency) : format.number(Number(r.hourly_rate), 2, 2),
          ],
        }))}
      />
    </div>
  );
}
