import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useFormat } from '../../api/format.ts';
import { describeError } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { weekDays } from '../../ui/dates.ts';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { minutesOf, timeOf } from '../../ui/time-of-day.ts';
import { sheetQuery, useUpdateEntry, type WebEntry } from './api.ts';
import { layoutDay, dragSpan, nextSlot, resizedEnd, DAY_MINUTES, SNAP_MINUTES, type Block } from './calendar.ts';
import { EntryDialog } from './EntryEditDialog.tsx';
import { lockOf, weekApproved } from './locks.ts';
import { useTimeTexts } from './texts.ts';
import { TimeHeader } from './TimeHeader.tsx';
import { useServerNow } from '../../api/server-clock.ts';
import { entrySummary, longDayLabel, secondsOf } from './week.ts';
import { useDeletedEntry } from './deleted.tsx';

/** Pixels per hour of the timeline (a quarter hour is 12 px: a block of 15 minutes still takes a click). */
const HOUR_PX = 48;
const MINUTE_PX = HOUR_PX / 60;
/** Where the timeline opens scrolled to: the working morning, not midnight. */
const FIRST_HOUR_SHOWN = 7;

type Editing = { entry: WebEntry } | { date: string; times: { started_time: string; ended_time: string } };

/**
 * /time/calendar?start=YYYY-MM-DD (issue 21 item 10): the week as day columns (from the
 * workspace's week_start, as the sheet gives it), entries as blocks by their start and end,
 * entries without times listed at the top of their day. A block opens the entry editor; a
 * drag over empty space (or a click, or "New entry") proposes a new entry; a drag of a
 * block's bottom edge, Alt+Arrow or +/- changes its end by quarter hours. At 390 px one
 * day shows at a time, with buttons to the previous and next day.
 */
export function CalendarPage() {
  const [params] = useSearchParams();
  const start = params.get('start') ?? undefined;
  const user = params.get('user') ?? undefined;
  const session = useSession();
  const t = useTimeTexts();
  const format = useFormat();
  const { data: sheet, error } = useQuery(sheetQuery(start, user));
  const now = useServerNow(sheet?.entries.some((e) => e.is_running) ?? false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const deleted = useDeletedEntry(scroller);
  const resize = useUpdateEntry();
  const loaded = Boolean(sheet);
  useEffect(() => {
    if (loaded && scroller.current) scroller.current.scrollTop = FIRST_HOUR_SHOWN * HOUR_PX - 12; // its hour's label whole
  }, [loaded]);
  useEffect(() => setPicked(null), [sheet?.from]);

  if (error && !sheet) return <Alert>{describeError(error).message}</Alert>;
  if (!sheet) return <TimeHeader view="calendar" />;
  const own = sheet.user.id === session.user.id;
  const days = weekDays(sheet.from);
  const todayIndex = days.indexOf(sheet.today);
  // The one day shown at 390 px: the one picked, else today when in this week, else the first.
  const shown = picked ?? Math.max(0, todayIndex);
  const locked = weekApproved(sheet.entries);
  const layouts = days.map((d) => layoutDay(sheet.entries.filter((e) => e.spent_date === d), now));
  const resizeTo = (block: Block, end: number) => {
    const ended_time = resizedEnd(block.start, end);
    if (ended_time !== block.entry.ended_time) resize.mutate({ id: block.entry.id, body: { ended_time } });
  };
  const editingEntry = editing && 'entry' in editing ? (sheet.entries.find((e) => e.id === editing.entry.id) ?? editing.entry) : null;

  return (
    <div className="flex flex-col gap-4">
      <TimeHeader view="calendar" from={sheet.from} today={sheet.today} user={own ? undefined : sheet.user.id} person={own ? undefined : sheet.user.name} />
      <nav aria-label={t('cal.dayShown')} className="flex items-center justify-between gap-2 sm:hidden">
        <Button variant="secondary" isDisabled={shown === 0} onPress={() => setPicked(shown - 1)} aria-label={shown > 0 ? t('previousDayNamed', { day: format.weekday(days[shown - 1]) }) : t('previousDay')}>
          {t('previousDay')}
        </Button>
        <span className="text-sm font-medium text-stone-900">{format.weekday(days[shown])}</span>
        <Button variant="secondary" isDisabled={shown === 6} onPress={() => setPicked(shown + 1)} aria-label={shown < 6 ? t('nextDayNamed', { day: format.weekday(days[shown + 1]) }) : t('nextDay')}>
          {t('nextDay')}
        </Button>
      </nav>
      {resize.error && <Alert>{describeError(resize.error).message}</Alert>}
      <div className="overflow-hidden rounded-lg border border-stone-200 bg-white shadow-xs">
        {/* Days and their untimed entries; the same columns as the timeline below (the gutter keeps the scrollbar's width). */}
        <div className="flex overflow-hidden border-b border-stone-200 [scrollbar-gutter:stable]">
          <div className="w-14 shrink-0" />
          {days.map((d, i) => (
            <section key={d} aria-label={longDayLabel(format, d)} className={cx('min-w-0 flex-1 flex-col gap-1.5 border-l border-stone-100 p-1.5', i === shown ? 'flex' : 'hidden sm:flex')}>
              <h2 className={cx('text-center text-xs font-semibold', d === sheet.today ? 'text-teal-800' : 'text-stone-700')}>
                {format.weekday(d)}
                <span className="block font-normal text-stone-600 tabular-nums">{format.duration(secondsOf(sheet.entries.filter((e) => e.spent_date === d), now))}</span>
              </h2>
              {own && (
                <Button variant="quiet" className="min-h-8 px-1 text-xs" aria-label={t('cal.newEntryOn', { day: format.weekday(d) })} onPress={() => setEditing({ date: d, times: nextSlot(layouts[i].blocks) })}>
                  {t('cal.newEntry')}
                </Button>
              )}
              {layouts[i].untimed.length > 0 && (
                <ul aria-label={t('cal.withoutTimes')} className="flex flex-col gap-1">
                  {layouts[i].untimed.map((e) => (
                    <li key={e.id}>
                      <button type="button" onClick={() => setEditing({ entry: e })} aria-label={`${e.project.name}, ${e.task?.name ?? ''}: ${entrySummary(format, e)}`} className={cx('block w-full truncate rounded border-l-4 px-1.5 py-1 text-left text-xs', blockTone(e), focusRingCss)}>
                        <span className="font-medium">{e.project.name}</span> <span className="tabular-nums">{format.duration(secondsOf([e], now))}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
        {/* Focusable: it scrolls, and a week without timed entries has nothing else to focus to scroll it by keyboard. */}
        <div ref={scroller} tabIndex={0} role="region" aria-label={t('cal.byTime')} className="flex max-h-[65vh] overflow-y-auto [scrollbar-gutter:stable] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-teal-600">
          <div aria-hidden="true" className="relative w-14 shrink-0" style={{ height: DAY_MINUTES * MINUTE_PX }}>
            {Array.from({ length: 23 }, (_, h) => (
              <span key={h} className="absolute right-1.5 -translate-y-1/2 text-[11px] text-stone-500 tabular-nums" style={{ top: (h + 1) * HOUR_PX }}>
                {format.time(timeOf((h + 1) * 60))}
              </span>
            ))}
          </div>
          {days.map((d, i) => (
            <DayTimeline
              key={d}
              date={d}
              hidden={i !== shown}
              blocks={layouts[i].blocks}
              creatable={own}
              locked={locked}
              onOpen={(entry) => setEditing({ entry })}
              onCreate={(times) => setEditing({ date: d, times })}
              onResize={resizeTo}
            />
          ))}
        </div>
      </div>
      {editing && (
        <EntryDialog
          title={editingEntry ? t('editEntry') : t('cal.newEntryTitle', { day: format.weekday('date' in editing ? editing.date : sheet.today) })}
          isOpen
          onOpenChange={(open) => !open && setEditing(null)}
          entry={editingEntry ?? undefined}
          date={editingEntry?.spent_date ?? ('date' in editing ? editing.date : sheet.today)}
          initialTimes={'times' in editing ? editing.times : undefined}
          lock={editingEntry ? lockOf(editingEntry, locked) : null}
          today={sheet.today}
          own={own}
          onDeleted={deleted.onDeleted}
        />
      )}
      {deleted.status}
    </div>
  );
}

const blockTone = (e: WebEntry) =>
  e.is_locked ? 'border-stone-400 bg-stone-100 text-stone-800' : e.is_running ? 'border-amber-500 bg-amber-50 text-amber-950' : 'border-teal-600 bg-teal-50 text-teal-950';

interface DayTimelineProps {
  date: string;
  hidden: boolean;
  blocks: Block[];
  creatable: boolean;
  locked: boolean;
  onOpen: (entry: WebEntry) => void;
  onCreate: (times: { started_time: string; ended_time: string }) => void;
  onResize: (block: Block, end: number) => void;
}

/**
 * One day's timeline. Pointer events (no drag library: React Aria's useMove reports
 * deltas, and a drag here needs where it began in the day): a drag over empty space
 * proposes an entry, a drag of a block's bottom edge moves its end; both snap to 15 min.
 */
function DayTimeline({ date, hidden, blocks, creatable, locked, onOpen, onCreate, onResize }: DayTimelineProps) {
  const t = useTimeTexts();
  const format = useFormat();
  const area = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const [stretch, setStretch] = useState<{ id: string; end: number } | null>(null);
  const minuteAt = (clientY: number) => (clientY - (area.current?.getBoundingClientRect().top ?? 0)) / MINUTE_PX;

  const down = (e: PointerEvent<HTMLDivElement>) => {
    // Only empty space: a block or its edge handles its own pointer.
    if (!creatable || e.button !== 0 || e.target !== e.currentTarget) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const m = minuteAt(e.clientY);
    setDrag({ from: m, to: m });
  };
  const preview = drag && dragSpan(drag.from, drag.to);

  return (
    <div
      ref={area}
      role="group"
      aria-label={t('cal.dayByTime', { day: longDayLabel(format, date) })}
      data-testid={`timeline-${date}`}
      className={cx('relative min-w-0 flex-1 border-l border-stone-100 select-none', hidden && 'hidden sm:block', creatable && 'cursor-crosshair')}
      style={{ height: DAY_MINUTES * MINUTE_PX }}
      onPointerDown={down}
      onPointerMove={(e) => drag && setDrag({ ...drag, to: minuteAt(e.clientY) })}
      onPointerUp={() => {
        if (!drag) return;
        setDrag(null);
        onCreate(dragSpan(drag.from, drag.to));
      }}
      onPointerCancel={() => setDrag(null)}
    >
      {Array.from({ length: 23 }, (_, h) => (
        <div key={h} aria-hidden="true" className="pointer-events-none absolute inset-x-0 border-t border-stone-100" style={{ top: (h + 1) * HOUR_PX }} />
      ))}
      {blocks.map((b) => {
        const end = stretch?.id === b.entry.id ? Math.max(b.start + SNAP_MINUTES, stretch.end) : b.end;
        return (
          <EntryBlock
            key={b.entry.id}
            block={{ ...b, end }}
            editable={!lockOf(b.entry, locked) && !b.entry.is_running}
            onOpen={() => onOpen(b.entry)}
            onResizeBy={(minutes) => onResize(b, b.end + minutes)}
            onStretch={(clientY) => setStretch({ id: b.entry.id, end: minuteAt(clientY) })}
            onStretchEnd={(clientY) => {
              setStretch(null);
              onResize(b, minuteAt(clientY));
            }}
          />
        );
      })}
      {preview && (
        <div aria-hidden="true" className="pointer-events-none absolute inset-x-0.5 rounded border-2 border-dashed border-teal-600 bg-teal-50/70 px-1 text-xs text-teal-900 tabular-nums" style={{ top: minutesOf(preview.started_time) * MINUTE_PX, height: (minutesOf(preview.ended_time) - minutesOf(preview.started_time)) * MINUTE_PX }}>
          {format.time(preview.started_time)} – {format.time(preview.ended_time)}
        </div>
      )}
    </div>
  );
}

interface EntryBlockProps {
  block: Block;
  editable: boolean;
  onOpen: () => void;
  onResizeBy: (minutes: number) => void;
  onStretch: (clientY: number) => void;
  onStretchEnd: (clientY: number) => void;
}

/** A block: a button (Enter or a click opens the editor; Alt+Arrow Up/Down or -/+ change its end by 15 min) and its bottom edge to drag. */
function EntryBlock({ block, editable, onOpen, onResizeBy, onStretch, onStretchEnd }: EntryBlockProps) {
  const { entry, start, end, lane, lanes } = block;
  const t = useTimeTexts();
  const format = useFormat();
  const [dragging, setDragging] = useState(false);
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (!editable) return;
    const longer = (e.altKey && e.key === 'ArrowDown') || e.key === '+' || e.key === '=';
    const shorter = (e.altKey && e.key === 'ArrowUp') || e.key === '-';
    if (!longer && !shorter) return;
    e.preventDefault();
    onResizeBy(longer ? SNAP_MINUTES : -SNAP_MINUTES);
  };
  const times = `${format.time(timeOf(start))} – ${entry.is_running ? t('running') : format.time(timeOf(Math.min(end, DAY_MINUTES - 1)))}`;
  return (
    <div className="absolute p-px" style={{ top: start * MINUTE_PX, height: Math.max(end - start, 1) * MINUTE_PX, left: `${(lane / lanes) * 100}%`, width: `${100 / lanes}%` }}>
      <button
        type="button"
        onClick={onOpen}
        onKeyDown={onKeyDown}
        aria-label={`${entry.project.name}, ${entry.task?.name ?? ''}, ${times}${entry.notes ? `, ${entry.notes}` : ''}`}
        aria-description={editable ? t('cal.resizeHint') : undefined}
        className={cx('flex h-full w-full flex-col overflow-hidden rounded border-l-4 px-1 text-left text-xs leading-tight', blockTone(entry), focusRingCss)}
      >
        <span className="truncate font-medium">{entry.project.name}</span>
        <span className="truncate tabular-nums">{times}</span>
        {entry.notes && <span className="truncate">{entry.notes}</span>}
      </button>
      {editable && (
        <div
          aria-hidden="true"
          data-testid={`resize-${entry.id}`}
          className="absolute inset-x-1 -bottom-1 h-2.5 cursor-ns-resize touch-none"
          onPointerDown={(e) => {
            if (e.button !== 0) return;
            e.stopPropagation();
            e.currentTarget.setPointerCapture(e.pointerId);
            setDragging(true);
          }}
          onPointerMove={(e) => dragging && onStretch(e.clientY)}
          onPointerUp={(e) => {
            if (!dragging) return;
            setDragging(false);
            onStretchEnd(e.clientY);
          }}
          onPointerCancel={() => setDragging(false)}
        />
      )}
    </div>
  );
}
