import { memo, startTransition, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { addDays } from '../../ui/dates.ts';
import type { Format } from '../../ui/format.ts';
import { cx, focusRingCss } from '../../ui/styles.ts';
import type { Assignment, Schedule } from './api.ts';
import { barGeometry, lanesOf, loadOf, rowKeyOf, shortestResize, template, weeksOfDrag, type Load, type RowKey } from './schedule.ts';
import type { Show } from './filters.ts';
import { usePlanningTexts } from './texts.ts';

/**
 * The schedule (issue 26 item 2): a table (ARIA roles on flex rows) with a row per person,
 * then per placeholder, and a column per week; each cell the week's planned hours against
 * the capacity, coloured by load (over-allocated also marked with an icon and words); under
 * each row, its assignments as bars across the weeks they span.
 *
 * Written for 200 people × 26 weeks (bench/web-planner.ts): plain elements of fixed sizes
 * (no table layout to solve), no component or state per cell or bar; a row's cells (text and
 * colour) are worked out once per schedule and its bars' labels once per assignment; rows are
 * memoised, so a bar's move renders its row again, not the table; rows off screen are neither
 * laid out nor painted (content-visibility). Clicks, keys and drags are handled once, on the
 * table, by the bar's `data-bar` id; a drag moves the bar with a CSS transform (no layout read
 * but the lane's width, once, when it starts).
 */

export interface GridActions {
  /** Opens an assignment (its form, or read-only when not the caller's to change). */
  open: (id: string) => void;
  /** "Add assignment" on a row. */
  add: (row: RowKey) => void;
  addPlaceholder: () => void;
  replace: (placeholderId: string) => void;
  /** A bar moved (both dates) or resized (its end) by whole weeks, by drag or keys. */
  move: (id: string, how: 'move' | 'resize', weeks: number) => void;
}

type Texts = ReturnType<typeof usePlanningTexts>;

/**
 * A week column's width (rem; the cells' and headers' `w-[6rem]` too), a load row's height, a
 * lane's height and the gap above the first (px). The width holds an over-allocated week in the
 * person's duration style, bold and with its marker ("50:00 / 40:00", "50,00 / 40,00").
 */
const WEEK_REM = 6;
const LOAD_ROW = 34;
const LANE = 30;
const PAD = 4;
/**
 * The rows drawn at once when the schedule first shows: more than any screen holds (the
 * region scrolls); the rest follow in a transition right after that first paint, which
 * yields to input, with their height held meanwhile so the scroll bar does not jump.
 */
const FIRST_ROWS = 30;
/** A placeholder's lane row holds Add and Replace, one above the other on a phone. */
const TWO_BUTTONS = 68;
/** How near a bar's right edge (px) a press resizes it instead of moving it. */
const RESIZE_EDGE = 8;

export const CELL: Record<Load, string> = {
  none: 'bg-stone-50 text-stone-500',
  free: 'bg-white text-stone-500',
  under: 'bg-sky-50 text-sky-950',
  full: 'bg-emerald-100 text-emerald-950',
  over: 'bg-red-100 font-semibold text-red-900 shadow-[inset_0_-3px_0_0_var(--color-red-600)]',
};

const cellBase = 'w-[6rem] shrink-0 border-t border-l border-stone-200 px-0.5 text-center text-xs leading-[33px] whitespace-nowrap tabular-nums';
/** Each load's whole class string, made once (5,200 cells share 5 strings). */
const CELL_CLASS = Object.fromEntries(Object.entries(CELL).map(([load, c]) => [load, `${cellBase} ${c}`])) as Record<Load, string>;
/** Rows off screen skip layout and paint; their heights are fixed, so the scroll height stays right. */
const offscreen = '[content-visibility:auto]';

interface Row {
  key: RowKey;
  id: string;
  name: string;
  placeholder: boolean;
  /** A person who left (or an agent) or an archived placeholder, shown while plans name them: no new plans. */
  gone: boolean;
  cells: { text: string; load: Load }[];
}

function rowsOf(people: Schedule['people'], placeholders: Schedule['placeholders'], format: Format, t: Texts): Row[] {
  // Hours repeat (0, 8, 40…): each is formatted once. In the person's duration style, as Home
  // writes planned hours ("22:30" or "22.50"); without the unit, as Home's week table writes its
  // days: the cells are dense, and the legend says they are hours.
  const known = new Map<number, string>();
  const n = (hours: number) => {
    let s = known.get(hours);
    if (s === undefined) known.set(hours, (s = format.hours(hours)));
    return s;
  };
  const cells = (list: { planned_hours: number; capacity_hours: number }[]) =>
    list.map((c) => ({ text: `${n(c.planned_hours)} / ${n(c.capacity_hours)}`, load: loadOf(c.planned_hours, c.capacity_hours) }));
  // Someone who left, or a placeholder archived, is named so (their rows show only while plans name them).
  const row = (placeholder: boolean, id: string, r: { name: string; is_active: boolean; cells: Schedule['people'][number]['cells'] }): Row => ({
    key: `${placeholder ? 'placeholder' : 'user'}:${id}` as RowKey,
    id,
    name: r.is_active ? r.name : t(placeholder ? 'grid.archived' : 'grid.deactivated', { name: r.name }),
    placeholder,
    gone: !r.is_active,
    cells: cells(r.cells),
  });
  return [...people.map((p) => row(false, p.user_id, p)), ...placeholders.map((p) => row(true, p.id, p))];
}

/** Each row's bars; a row whose bars are the same objects as before keeps its array (its memoised row skips rendering). */
function useBarsByRow(assignments: Assignment[]): Map<RowKey, Assignment[]> {
  const last = useRef(new Map<RowKey, Assignment[]>());
  return useMemo(() => {
    const next = new Map<RowKey, Assignment[]>();
    for (const a of assignments) {
      const key = rowKeyOf(a);
      const list = next.get(key);
      if (list) list.push(a);
      else next.set(key, [a]);
    }
    for (const [key, list] of next) {
      const before = last.current.get(key);
      if (before && before.length === list.length && before.every((a, i) => a === list[i])) next.set(key, before);
    }
    last.current = next;
    return next;
  }, [assignments]);
}

/** A bar's words: its accessible name, its short hours, its tooltip. */
interface BarText {
  name: string;
  short: string;
  title: string;
}

/** The rows' texts that name the row, as templates. */
function rowTexts(t: Texts) {
  return { addFor: template((v) => t('grid.addFor', v), ['name']), replaceFor: template((v) => t('grid.replaceFor', v), ['name']), assignmentsOf: template((v) => t('grid.assignmentsOf', v), ['name']) };
}
type RowTexts = ReturnType<typeof rowTexts>;

/** Bars' words, worked out once per assignment object (a moved bar is a new object), in the page's language. */
function barTexts(format: Format, t: Texts) {
  const cache = new WeakMap<Assignment, BarText>();
  const ranges = new Map<string, string>();
  const range = (from: string, to: string) => {
    const key = `${from}|${to}`;
    let s = ranges.get(key);
    if (s === undefined) ranges.set(key, (s = format.dayRange(from, to)));
    return s;
  };
  const named = template((v) => t('bar.name', v), ['project', 'client', 'range', 'hours']);
  const perDay = template((v) => t('bar.perDay', v), ['hours']);
  const total = template((v) => t('bar.total', v), ['hours']);
  const perDayShort = template((v) => t('bar.perDayShort', v), ['hours']);
  const totalShort = template((v) => t('bar.totalShort', v), ['hours']);
  const locked = t('bar.locked');
  return (a: Assignment): BarText => {
    let text = cache.get(a);
    if (text) return text;
    const hours = format.hours(a.hours_per_day ?? a.total_hours ?? 0);
    const daily = a.hours_per_day !== null;
    const name = named(a.project.name ?? '', a.project.client_name ?? '', range(a.starts_on, a.ends_on), daily ? perDay(hours) : total(hours));
    text = { name, short: daily ? perDayShort(hours) : totalShort(hours), title: a.may_change ? name : `${name}. ${locked}` };
    cache.set(a, text);
    return text;
  };
}

const NO_BARS: Assignment[] = [];
export const KEYS_HINT_ID = 'planner-bar-keys';

interface GridProps {
  schedule: Schedule;
  today: string;
  format: Format;
  actions: GridActions;
  /** The rows the filters keep (filters.ts); null or absent: every row. */
  visible?: ReadonlySet<RowKey> | null;
  /** The kinds of rows shown (the filters'): people only hides the placeholders' part, placeholders only the people's. */
  kinds?: Show;
  /** The chosen projects: their bars stand out, the others' are pale. Null: every bar as usual. */
  highlight?: ReadonlySet<string> | null;
}

export function ScheduleGrid({ schedule, today, format, actions, visible = null, kinds = 'all', highlight = null }: GridProps) {
  const t = usePlanningTexts();
  const weeks = schedule.weeks;
  const from = weeks[0] ?? today;
  // The cells change with a new schedule's people and placeholders, not with an optimistic bar (which keeps both arrays).
  const { people: peopleData, placeholders: placeholderData } = schedule;
  const allRows = useMemo(() => rowsOf(peopleData, placeholderData, format, t), [peopleData, placeholderData, format, t]);
  // Filtering picks from the same row objects: a row that stays keeps its memoised rendering and its bars.
  const rows = useMemo(() => (visible ? allRows.filter((r) => visible.has(r.key)) : allRows), [allRows, visible]);
  const bars = useBarsByRow(schedule.assignments);
  const texts = useMemo(() => barTexts(format, t), [format, t]);
  const names = useMemo(() => rowTexts(t), [t]);
  const byId = useMemo(() => new Map(schedule.assignments.map((a) => [a.id, a])), [schedule.assignments]);
  // Each column is a workspace week: its header names the week's first day with its weekday ("Sun 7 Jun" where weeks start on Sunday).
  const heads = useMemo(() => weeks.map((w) => ({ date: w, label: format.weekday(w), now: w <= today && today < addDays(w, 7) })), [weeks, today, format]);
  const [drawnAll, setDrawnAll] = useState(false);
  const complete = drawnAll || rows.length <= FIRST_ROWS;
  useEffect(() => {
    if (complete) return;
    // After the frame with the first rows (rAF, then a task), the rest at a lower priority.
    let timer = 0;
    const frame = requestAnimationFrame(() => (timer = window.setTimeout(() => startTransition(() => setDrawnAll(true)))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [complete]);
  const drawn = complete ? rows : rows.slice(0, FIRST_ROWS);
  const people = drawn.filter((r) => !r.placeholder);
  const placeholders = drawn.filter((r) => r.placeholder);
  const waiting = complete ? 0 : rows.slice(FIRST_ROWS).reduce((h, r) => h + rowHeight(r, bars.get(r.key) ?? NO_BARS), 0);
  const range = weeks.length ? format.dayRange(from, lastDay(weeks)) : '';

  // ---- one set of handlers for every bar and row action (event delegation) ----
  const drag = useRef<{ id: string; how: 'move' | 'resize'; x0: number; weekPx: number; el: HTMLElement; width: string; min: number; delta: number; moved: boolean } | null>(null);
  const swallowClick = useRef(false);
  const barOf = (target: EventTarget) => (target instanceof Element ? target.closest<HTMLElement>('[data-bar]') : null);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (swallowClick.current) {
      swallowClick.current = false;
      return;
    }
    const target = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-bar],[data-add],[data-replace],[data-add-placeholder]') : null;
    if (!target) return;
    const { bar, add, replace } = target.dataset;
    if (bar) actions.open(bar);
    else if (add) actions.add(add as RowKey);
    else if (replace) actions.replace(replace);
    else actions.addPlaceholder();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!e.altKey || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    const el = barOf(e.target);
    if (!el?.dataset.bar) return;
    e.preventDefault();
    actions.move(el.dataset.bar, e.shiftKey ? 'resize' : 'move', e.key === 'ArrowRight' ? 1 : -1);
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    // A finger scrolls the schedule sideways (a tap still opens the bar); a mouse or pen drags.
    if (e.button !== 0 || e.pointerType === 'touch') return;
    const el = barOf(e.target);
    const a = el?.dataset.bar ? byId.get(el.dataset.bar) : undefined;
    if (!el || !a?.may_change || !el.parentElement) return;
    const how = el.dataset.resizable !== undefined && e.clientX >= el.getBoundingClientRect().right - RESIZE_EDGE ? 'resize' : 'move';
    drag.current = { id: a.id, how, x0: e.clientX, weekPx: el.parentElement.clientWidth / weeks.length, el, width: el.style.width, min: how === 'resize' ? shortestResize(a) : -Infinity, delta: 0, moved: false };
    el.setPointerCapture(e.pointerId);
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x0;
    if (Math.abs(dx) > 3) d.moved = true;
    const delta = Math.max(d.min, weeksOfDrag(dx, d.weekPx));
    if (delta === d.delta) return;
    d.delta = delta;
    if (d.how === 'move') d.el.style.transform = delta ? `translateX(${delta * d.weekPx}px)` : '';
    else d.el.style.width = `calc(${d.width} + ${delta * d.weekPx}px)`;
  };

  const endDrag = (commit: boolean) => {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    d.el.style.transform = '';
    d.el.style.width = d.width;
    if (d.moved) {
      // The click that follows this release is the drag's end, not a press; none may follow.
      swallowClick.current = true;
      setTimeout(() => (swallowClick.current = false), 0);
    }
    if (commit && d.delta) actions.move(d.id, d.how, d.delta);
  };

  return (
    <div
      role="region"
      aria-label={t('grid.region')}
      tabIndex={0}
      className={cx('relative overflow-auto rounded-lg border border-stone-200 bg-white shadow-xs sm:max-h-[calc(100vh-14rem)]', focusRingCss)}
    >
      <div
        role="table"
        aria-label={t('grid.caption', { range })}
        data-planner-grid=""
        data-complete={complete || undefined}
        className="text-sm [--name-col:8.5rem] sm:[--name-col:12rem]"
        style={{ width: `calc(var(--name-col) + ${weeks.length * WEEK_REM}rem)` }}
        onClick={onClick}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => endDrag(true)}
        onPointerCancel={() => endDrag(false)}
      >
        <div role="rowgroup" className="sticky top-0 z-20">
          <div role="row" className="flex border-b border-stone-200 bg-white">
            <div role="columnheader" className="sticky left-0 z-10 w-(--name-col) shrink-0 bg-white px-3 py-2 text-left text-xs font-semibold text-stone-600 uppercase">
              {t('grid.person')}
            </div>
            {heads.map((h) => (
              <div
                key={h.date}
                role="columnheader"
                aria-label={h.now ? `${t('grid.weekOf', { day: h.label })}, ${t('grid.thisWeek')}` : t('grid.weekOf', { day: h.label })}
                className={cx('w-[6rem] shrink-0 border-l border-stone-200 px-1 py-2 text-center text-xs font-semibold whitespace-nowrap', h.now ? 'bg-teal-50 text-teal-900' : 'text-stone-600')}
              >
                {h.label}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup">
          {people.length === 0 && kinds !== 'placeholders' && (
            <div role="row" className="flex">
              <div role="cell" className="px-3 py-6 text-stone-600">
                {visible && peopleData.length > 0 ? t('filters.noPersonMatches') : t('grid.noPeople')}
              </div>
            </div>
          )}
          {people.map((r) => (
            <ScheduleRow key={r.key} row={r} bars={bars.get(r.key) ?? NO_BARS} from={from} weeks={weeks.length} texts={texts} names={names} t={t} highlight={highlight} />
          ))}
          {waiting > 0 && <div aria-hidden="true" style={{ height: waiting }} />}
        </div>
        {complete && kinds !== 'people' && (
        <div role="rowgroup" aria-label={t('grid.placeholders')}>
          <div role="row" className="flex border-t-2 border-stone-200 bg-stone-50">
            <div role="rowheader" className="sticky left-0 z-10 w-(--name-col) shrink-0 bg-stone-50 px-3 py-2">
              <span className="block text-xs font-semibold text-stone-700 uppercase">{t('grid.placeholders')}</span>
              <button type="button" data-add-placeholder="" className={cx(smallButton, 'mt-1.5')}>
                + {t('grid.addPlaceholder')}
              </button>
            </div>
            <div role="cell" className="px-3 py-2 text-sm text-stone-600">
              {placeholders.length === 0 && (visible && placeholderData.length > 0 ? t('filters.noPlaceholderMatches') : t('grid.noPlaceholders'))}
            </div>
          </div>
          {placeholders.map((r) => (
            <ScheduleRow key={r.key} row={r} bars={bars.get(r.key) ?? NO_BARS} from={from} weeks={weeks.length} texts={texts} names={names} t={t} highlight={highlight} />
          ))}
        </div>
        )}
      </div>
    </div>
  );
}

const lastDay = (weeks: string[]) => addDays(weeks[weeks.length - 1]!, 6);

const smallButton = cx(
  'inline-flex min-h-7 items-center rounded-md border border-stone-300 bg-white px-2 text-xs font-medium text-stone-800 shadow-xs hover:bg-stone-50 active:bg-stone-100',
  focusRingCss,
);

/** A person's two rows' height: the load row, and the lanes of their bars. */
const laneHeight = (row: Row, lanes: number) => Math.max(lanes * LANE + 2 * PAD + 4, row.placeholder ? TWO_BUTTONS : 0);
const rowHeight = (row: Row, bars: Assignment[]) => LOAD_ROW + laneHeight(row, lanesOf(bars).count);

interface RowProps {
  row: Row;
  bars: Assignment[];
  from: string;
  weeks: number;
  texts: (a: Assignment) => BarText;
  names: RowTexts;
  t: Texts;
  highlight: ReadonlySet<string> | null;
}

/** A person's (or placeholder's) two rows: the weeks' load, then the assignments' bars. */
const ScheduleRow = memo(function ScheduleRow({ row, bars, from, weeks, texts, names, t, highlight }: RowProps) {
  const { lane, count } = lanesOf(bars);
  return (
    <>
      <div role="row" className={cx('flex', offscreen)} style={{ height: LOAD_ROW }}>
        <div role="rowheader" className="sticky left-0 z-10 w-(--name-col) shrink-0 truncate border-t border-stone-200 bg-white px-3 leading-[33px] font-medium text-stone-900">
          {row.name}
        </div>
        {row.cells.map((c, i) =>
          c.load === 'over' ? (
            <div key={i} role="cell" className={CELL_CLASS.over}>
              <OverIcon />
              {c.text}
              <span className="sr-only">, {t('grid.over')}</span>
            </div>
          ) : (
            <div key={i} role="cell" className={CELL_CLASS[c.load]}>
              {c.text}
            </div>
          ),
        )}
      </div>
      <div role="row" className={cx('flex', offscreen)} style={{ height: laneHeight(row, count) }}>
        <div role="cell" className="sticky left-0 z-10 flex w-(--name-col) shrink-0 flex-wrap content-start gap-1 bg-white px-3 pt-1">
          {!row.gone && (
            <button type="button" data-add={row.key} aria-label={names.addFor(row.name)} className={smallButton}>
              + {t('grid.add')}
            </button>
          )}
          {row.placeholder && (
            <button type="button" data-replace={row.id} aria-label={names.replaceFor(row.name)} className={smallButton}>
              {t('grid.replace')}
            </button>
          )}
        </div>
        <div role="cell" aria-label={names.assignmentsOf(row.name)} className="relative shrink-0" style={{ width: `${weeks * WEEK_REM}rem` }}>
          {bars.map((a) => (
            <Bar key={a.id} a={a} lane={lane.get(a.id) ?? 0} from={from} weeks={weeks} text={texts(a)} pale={highlight !== null && !highlight.has(a.project.id)} />
          ))}
        </div>
      </div>
    </>
  );
});

const BAR = {
  // A resizable bar's right edge (its last 8 px) shows the resize cursor; a press there resizes (onPointerDown).
  base: "@container absolute flex data-resizable:after:absolute data-resizable:after:inset-y-0 data-resizable:after:right-0 data-resizable:after:w-2 data-resizable:after:cursor-ew-resize data-resizable:after:content-[''] h-[26px] min-w-0 touch-pan-y items-center gap-1 overflow-hidden rounded-md px-1.5 text-left text-xs whitespace-nowrap select-none outline-hidden focus-visible:z-[5] focus-visible:outline-2 focus-visible:outline-solid focus-visible:outline-offset-1 focus-visible:outline-stone-900",
  person: 'cursor-grab border border-teal-800 bg-teal-700 text-white hover:bg-teal-800 active:cursor-grabbing',
  placeholder: 'cursor-grab border border-amber-800 bg-amber-700 text-white hover:bg-amber-800 active:cursor-grabbing',
  locked: 'cursor-pointer border border-dashed border-stone-400 bg-stone-100 text-stone-800',
  // Another project's bar while projects are filtered: pale, yet its text keeps a readable contrast (no opacity).
  pale: 'cursor-grab border border-stone-300 bg-stone-50 text-stone-600 hover:bg-stone-100 active:cursor-grabbing',
};

function Bar({ a, lane, from, weeks, text, pale }: { a: Assignment; lane: number; from: string; weeks: number; text: BarText; pale: boolean }) {
  const g = barGeometry(a, from, weeks);
  if (!g) return null;
  return (
    <button
      type="button"
      data-bar={a.id}
      aria-label={text.name}
      aria-describedby={KEYS_HINT_ID}
      title={text.title}
      data-resizable={(a.may_change && !g.clippedEnd) || undefined}
      className={cx(BAR.base, !a.may_change ? BAR.locked : pale ? BAR.pale : a.placeholder_id ? BAR.placeholder : BAR.person, g.clippedStart && 'rounded-l-none border-l-0', g.clippedEnd && 'rounded-r-none border-r-0')}
      style={{ left: `${g.left * 100}%`, width: `calc(${g.width * 100}% - 2px)`, top: lane * LANE + PAD }}
    >
      {/* The project, then its client (cut off first); the hours where the bar is wide enough (a container query on its width). */}
      <span className="min-w-0 truncate">
        {g.clippedStart && '‹ '}
        <b>{a.project.name}</b> · {a.project.client_name}
      </span>
      <span className="ml-auto hidden shrink-0 tabular-nums @min-[7.5rem]:inline">
        {text.short}
        {g.clippedEnd && ' ›'}
      </span>
    </button>
  );
}

/** The over-allocated cells' marker (besides their colour and the words read out). */
export function OverIcon() {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" className="mr-0.5 -mt-0.5 inline size-3 fill-current">
      <path d="M8 1.5 15 14H1zM7.25 6v4h1.5V6zm0 5.25v1.5h1.5v-1.5z" fillRule="evenodd" />
    </svg>
  );
}
