import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useFormat } from '../../api/format.ts';
import { describeError } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { parseDuration } from '../../ui/duration.ts';
import { addDays, weekDays } from '../../ui/dates.ts';
import type { Format } from '../../ui/format.ts';
import { Link } from '../../ui/Link.tsx';
import { cx } from '../../ui/styles.ts';
import { fetchChoices, sheetQuery, useSaveCell, type Choice, type WebEntry } from './api.ts';
import { choiceId } from './choices.ts';
import { CellEntries } from './EntryEditDialog.tsx';
import { lockOf, weekApproved } from './locks.ts';
import { WeekLocked } from './WeekLocked.tsx';
import { ReturnedWeek } from './ReturnedWeek.tsx';
import { usePairOptions } from './pair-options.ts';
import { PersonPicker } from './PersonPicker.tsx';
import { useTimeTexts } from './texts.ts';
import { TimeHeader } from './TimeHeader.tsx';
import { useServerNow } from '../../api/server-clock.ts';
import { buildGrid, roundedSecondsOf, secondsOf, type GridRow } from './week.ts';

/**
 * The week (Harvest's timesheet): a row per project and task, a column per day; typing
 * a duration into a cell creates or changes that day's entry (one request per commit).
 */
export function WeekPage() {
  const [params] = useSearchParams();
  const start = params.get('start') ?? undefined;
  const user = params.get('user') ?? undefined;
  const queryClient = useQueryClient();
  const session = useSession();
  const t = useTimeTexts();
  const format = useFormat();
  const { data: sheet, error } = useQuery(sheetQuery(start, user));
  const [added, setAdded] = useState<Choice[]>([]);
  const [copyNote, setCopyNote] = useState('');
  const hasRunning = sheet?.entries.some((e) => e.is_running) ?? false;
  const now = useServerNow(hasRunning);

  // Keeps the same (empty) array when nothing was added: a new one would render the whole grid again.
  useEffect(() => setAdded((a) => (a.length ? [] : a)), [sheet?.from]);

  const rows = useMemo(() => buildGrid(sheet?.entries ?? [], added), [sheet?.entries, added]);
  if (error && !sheet) return <Alert>{describeError(error).message}</Alert>;
  if (!sheet) return <TimeHeader view="week" />;
  const days = weekDays(sheet.from);
  const rounding = sheet.settings.rounding !== 'none';
  // Someone else's week is read here, not typed into: a cell's create would record the caller's time.
  const own = sheet.user.id === session.user.id;
  const who = own ? '' : `&user=${sheet.user.id}`;
  // An approved week refuses every change to the person's time in it: its cells are read, not typed into, and say why.
  const locked = weekApproved(sheet.entries);
  const typing = own && !locked;

  const copyLastWeek = async () => {
    const [last, choices] = await Promise.all([queryClient.fetchQuery(sheetQuery(addDays(sheet.from, -7))), fetchChoices(queryClient)]);
    const have = new Set(rows.map((r) => r.id));
    const open = new Set(choices.map(choiceId));
    const fresh = buildGrid(last.entries, []).filter((r) => !have.has(r.id) && open.has(r.id));
    setAdded((a) => [...a, ...fresh.map((r) => r.choice)]);
    setCopyNote(fresh.length ? t('grid.copied', { count: fresh.length }) : t('grid.nothingToCopy'));
  };

  return (
    <div className="flex flex-col gap-6">
      <TimeHeader view="week" from={sheet.from} today={sheet.today} user={own ? undefined : sheet.user.id} person={own ? undefined : sheet.user.name} />
      <PersonPicker from={sheet.from} person={sheet.user} />
      {own && locked && <WeekLocked text={t('lock.week')} />}
      {own && <ReturnedWeek from={sheet.from} entries={sheet.entries} />}
      <div className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs">
        <table data-stack className="w-full min-w-[52rem] border-collapse text-sm">
          <caption className="sr-only">{t('grid.caption', { day: format.weekday(sheet.from) })}</caption>
          <thead className="border-b border-stone-200 text-stone-600">
            <tr>
              <th scope="col" className="sticky left-0 z-10 bg-white px-3 py-2 text-left text-xs font-semibold uppercase">
                {t('projectAndTask')}
              </th>
              {days.map((d) => (
                <th key={d} scope="col" className={cx('px-1 py-2 text-center text-xs font-semibold', d === sheet.today && 'text-teal-800')}>
                  <Link href={`/time/day?date=${d}${who}`} aria-label={t('grid.openDay', { day: format.weekday(d) })} className="no-underline">
                    {format.weekday(d)}
                  </Link>
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right text-xs font-semibold uppercase">
                {t('total')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {rows.length === 0 && (
              <tr>
                <td colSpan={9} className="px-3 py-6 text-center text-stone-600">
                  {own ? t('grid.emptyOwn') : t('grid.emptyOther', { name: sheet.user.name })}
                </td>
              </tr>
            )}
            {rows.map((row, r) => (
              <tr key={row.id}>
                <th scope="row" className="sticky left-0 z-10 max-w-56 bg-white px-3 py-2 text-left font-normal">
                  <span className="block truncate font-medium text-stone-900">{row.choice.project_name}</span>
                  <span className="block truncate text-xs text-stone-600">
                    {row.choice.client_name} · {row.choice.task_name}
                  </span>
                </th>
                {days.map((d, c) => (
                  <td key={d} className="px-1 py-1.5 text-center align-top">
                    {own ? <GridCell locked={locked} row={r} col={c} name={cellName(format, row, d)} week={start} choice={row.choice} entries={row.cells[d] ?? []} date={d} now={now} format={format} t={t} /> : <span className="block px-1 py-1.5 tabular-nums">{row.cells[d]?.length ? format.duration(secondsOf(row.cells[d], now)) : ''}</span>}
                  </td>
                ))}
                <td className="px-3 py-2 text-right font-medium tabular-nums text-stone-900">{format.duration(secondsOf(Object.values(row.cells).flat(), now))}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t border-stone-200 bg-stone-50 text-stone-900">
            <tr>
              <th scope="row" className="sticky left-0 z-10 bg-stone-50 px-3 py-2 text-left font-semibold">
                {t('total')}
              </th>
              {days.map((d) => (
                <td key={d} className="px-1 py-2 text-center font-medium tabular-nums">
                  {format.duration(secondsOf(sheet.entries.filter((e) => e.spent_date === d), now))}
                </td>
              ))}
              <td className="px-3 py-2 text-right font-semibold tabular-nums">{format.duration(secondsOf(sheet.entries, now))}</td>
            </tr>
            {rounding && (
              <tr className="text-stone-600">
                <th scope="row" className="sticky left-0 z-10 bg-stone-50 px-3 py-2 text-left font-normal">
                  {t(`grid.rounded.${sheet.settings.rounding as 'up' | 'down' | 'nearest'}`, { minutes: sheet.settings.rounding_minutes })}
                </th>
                {days.map((d) => (
                  <td key={d} className="px-1 py-2 text-center tabular-nums">
                    {format.duration(roundedSecondsOf(sheet.entries.filter((e) => e.spent_date === d)))}
                  </td>
                ))}
                <td className="px-3 py-2 text-right tabular-nums">{format.duration(roundedSecondsOf(sheet.entries))}</td>
              </tr>
            )}
          </tfoot>
        </table>
      </div>
      {typing && <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <AddRow have={rows} onAdd={(c) => setAdded((a) => [...a, c])} />
        <Button variant="secondary" onPress={() => void copyLastWeek()}>
          {t('grid.copyRows')}
        </Button>
      </div>}
      <p role="status" className="text-sm text-stone-600">
        {copyNote}
      </p>
    </div>
  );
}

const cellName = (format: Format, row: GridRow, date: string) => `${row.choice.project_name}, ${row.choice.task_name}, ${format.weekday(date)}`;

function AddRow({ have, onAdd }: { have: GridRow[]; onAdd: (c: Choice) => void }) {
  // The pairs are asked for and built when the field is first focused, not with the week.
  const t = useTimeTexts();
  const taken = useMemo(() => new Set(have.map((r) => r.id)), [have]);
  const pairs = usePairOptions(taken);
  return (
    <ComboBox
      label={t('grid.addRow')}
      className="sm:w-96"
      options={pairs.options}
      onFocus={pairs.want}
      selectedKey={null}
      emptyText={pairs.isPending ? t('loadingProjects') : t('grid.noPairWithoutRow')}
      onSelectionChange={(key) => {
        const choice = pairs.find(key);
        if (choice) onAdd(choice);
      }}
    />
  );
}

interface GridCellProps {
  row: number;
  col: number;
  name: string;
  week: string | undefined;
  choice: Choice;
  date: string;
  entries: WebEntry[];
  now: number;
  /** The page's formatter and texts, handed down: each is a hook (a session query observer, an i18n subscription) that 210 cells would otherwise each hold. */
  format: Format;
  t: ReturnType<typeof useTimeTexts>;
  /** The person's week is approved: no cell takes typing. */
  locked: boolean;
}

/** One day of one row: typed into when it holds no entry or one; otherwise says why it cannot be. */
function GridCell({ row, col, name, week, choice, date, entries, now, format, t, locked }: GridCellProps) {
  const save = useSaveCell(week, { choice, date });
  const seconds = secondsOf(entries, now);
  const shown = entries.length ? format.duration(seconds) : '';
  // The typed text until committed; a ref too, so Enter's commit and the blur that follows
  // (focus moves down) see the same state and commit once.
  const [draft, setDraftState] = useState<string | null>(null);
  const draftRef = useRef<string | null>(null);
  const setDraft = (value: string | null) => {
    draftRef.current = value;
    setDraftState(value);
  };
  const [problem, setProblem] = useState('');
  const only = entries[0];

  // An approved week takes no new time: an empty cell has nothing to type into (the note above the grid says why).
  if (locked && !only) return <span className="block px-1 py-1.5" />;
  const readOnly = entries.length > 1 ? 'several' : only?.is_running ? 'running' : only?.is_locked || locked ? 'locked' : null;
  if (readOnly === 'several') return <CellEntries name={name} week={week} date={date} entries={entries} total={format.duration(seconds)} />;
  if (readOnly) {
    const hours = format.duration(seconds);
    const label =
      readOnly === 'running' ? t('grid.runningCell', { name, hours }) : t('grid.lockedCell', { name, hours, lock: lockOf(only, locked)?.short ?? t('grid.lockedShort') });
    return (
      <Link href={`/time/day?date=${date}`} aria-label={label} className="block rounded px-1 py-1.5 tabular-nums no-underline">
        {hours}
        <span aria-hidden="true" className="block text-[11px] leading-tight text-stone-600">
          {readOnly === 'running' ? t('grid.runningShort') : t('grid.lockedShort')}
        </span>
      </Link>
    );
  }

  const finish = () => {
    const text = draftRef.current;
    if (text === null) return;
    const parsed = parseDuration(text);
    if ('error' in parsed) {
      setProblem(parsed.error);
      return;
    }
    setProblem('');
    setDraft(null);
    if (parsed.seconds === (only ? seconds : 0)) return;
    save.mutate({ seconds: parsed.seconds, key: crypto.randomUUID() });
  };
  const refused = save.error ? describeError(save.error).message : '';
  const message = problem || refused;
  const move = (dRow: number, dCol = 0) => document.querySelector<HTMLInputElement>(`[data-cell="${row + dRow}:${col + dCol}"]`)?.focus();
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      finish();
      move(1);
    } else if (e.key === 'Escape') {
      setDraft(null);
      setProblem('');
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      // Along the row as in a spreadsheet, once the caret is at that edge of the text (or all of it is selected).
      const { selectionStart: from, selectionEnd: to, value } = e.currentTarget;
      const all = from === 0 && to === value.length;
      const atEdge = e.key === 'ArrowLeft' ? from === 0 && (to === 0 || all) : to === value.length && (from === value.length || all);
      if (!atEdge) return;
      e.preventDefault();
      move(0, e.key === 'ArrowRight' ? 1 : -1);
    }
  };
  const messageId = `cell-message-${row}-${col}`;
  return (
    <div>
      <input
        data-cell={`${row}:${col}`}
        aria-label={name}
        aria-invalid={Boolean(message) || undefined}
        aria-describedby={message ? messageId : undefined}
        inputMode="decimal"
        autoComplete="off"
        value={draft ?? shown}
        onChange={(e) => {
          setDraft(e.target.value);
          if (save.isError) save.reset();
        }}
        onFocus={(e) => e.target.select()}
        onBlur={finish}
        onKeyDown={onKeyDown}
        className={cx(
          'w-16 rounded-md border bg-white px-1.5 py-1.5 text-center tabular-nums text-stone-900 outline-none',
          'focus:border-teal-600 focus:ring-2 focus:ring-teal-600/25',
          message ? 'border-red-600' : 'border-stone-300',
        )}
      />
      {/* In the cell's flow, as wide as the cell: a floating bubble overlapped the next cell's and was cut off by the table's scroll box. */}
      {message ? (
        <span id={messageId} role="alert" className="mx-auto mt-1 block w-full max-w-24 text-left text-[11px] leading-tight break-words text-red-700">
          {message}
        </span>
      ) : (
        <span className="block h-3 text-[11px] leading-tight text-stone-600">{save.isPending ? t('grid.saving') : save.isSuccess ? t('grid.saved') : ''}</span>
      )}
    </div>
  );
}
