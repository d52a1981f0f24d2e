import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isAdministrator } from '../../api/access.ts';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { serverNow } from '../../api/server-clock.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { addDays } from '../../ui/dates.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { cx } from '../../ui/styles.ts';
import type { Format } from '../../ui/format.ts';
import { cachedAssignment, scheduleQuery, useUpdateAssignment, type Schedule } from './api.ts';
import { FilterBar } from './FilterBar.tsx';
import { filterIndex, isFiltered, matchRows, NO_FILTER, plannerFilterOf, withPlannerFilter, type Matches, type PlannerFilter, type Show } from './filters.ts';
import type { Open } from './PlanningDialogs.tsx';
import { CELL, KEYS_HINT_ID, OverIcon, ScheduleGrid, type GridActions } from './ScheduleGrid.tsx';
import { movedByWeeks, newAssignmentDates, plannedWithoutCapacity, resizedByWeeks, scheduleParams, STEP_WEEKS, WEEK_CHOICES } from './schedule.ts';
import { usePlanningTexts } from './texts.ts';

/** The forms (date pickers, type-aheads: most of the page's code) load when one is first opened, or once the browser is idle. */
const loadDialogs = () => import('./PlanningDialogs.tsx');
const PlanningDialog = lazy(() => loadDialogs().then((m) => ({ default: m.PlanningDialog })));

/**
 * Planning (issue 26 item 2): the schedule of people and placeholders over 12 weeks (or 26,
 * or any 1–52 from the URL), from this week or the week in `?from=`; Earlier and Later move it.
 * Bars are added, opened, dragged and moved with the keyboard (ScheduleGrid); each move is
 * said in a polite live region, written straight into the DOM so the table is not rendered
 * again for it. The filter bar narrows the rows (filters.ts, in the URL); the count of rows
 * shown is said in the same region when a filter changes.
 */
export function PlanningPage() {
  const t = usePlanningTexts();
  const format = useFormat();
  const today = format.dayOf(serverNow());
  const { week_start: weekStart } = useWorkspaceSession().workspace;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const range = scheduleParams(params, today, weekStart);
  const { data, error, isPlaceholderData } = useQuery(scheduleQuery(range));
  const queryClient = useQueryClient();
  const live = useRef<HTMLParagraphElement>(null);
  const announce = useCallback((message: string) => {
    if (live.current) live.current.textContent = message;
  }, []);
  const [open, setOpen] = useState<Open | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { mutate } = useUpdateAssignment({
    onFailed: (e, before) => {
      const message = t('announce.failed', { project: before?.project.name ?? '', message: describeError(e).message });
      setProblem(message);
    },
  });

  const actions: GridActions = useMemo(
    () => ({
      open: (id) => {
        const assignment = cachedAssignment(queryClient, id);
        if (assignment) setOpen({ kind: 'assignment', assignment });
      },
      add: (row) => setOpen({ kind: 'assignment', row }),
      addPlaceholder: () => setOpen({ kind: 'placeholder' }),
      replace: (placeholderId) => setOpen({ kind: 'replace', placeholderId }),
      move: (id, how, weeks) => {
        const a = cachedAssignment(queryClient, id);
        if (!a) return;
        const project = a.project.name ?? '';
        if (!a.may_change) return announce(t('announce.locked', { project }));
        const next = how === 'move' ? movedByWeeks(a, weeks) : resizedByWeeks(a, weeks);
        if (!next) return announce(t('announce.tooShort', { project }));
        setProblem(null);
        mutate({ id, body: next });
        announce(how === 'move' ? t('announce.moved', { project, range: format.dayRange(next.starts_on, next.ends_on) }) : t('announce.resized', { project, day: format.day(next.ends_on) }));
      },
    }),
    [queryClient, mutate, announce, t, format],
  );

  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 2000));
    idle(() => void loadDialogs());
  }, []);

  // The filters, read once per URL; the chosen projects as one Set per choice (not per keystroke
  // in the search), so the rows whose bars it marks render again only when it changes.
  const filter = useMemo(() => plannerFilterOf(params), [params]);
  const projectsKey = filter.projects.join(',');
  const highlight = useMemo(() => (projectsKey ? new Set(projectsKey.split(',')) : null), [projectsKey]);
  const index = useMemo(() => (data ? filterIndex(data.people, data.placeholders) : null), [data?.people, data?.placeholders]);
  const matches = useMemo(
    () => (data && index ? matchRows(index, data.assignments, filter, data.weeks[0] ?? range.from, data.weeks.length) : null),
    [data, index, filter, range.from],
  );
  const count = matches ? countText(t, matches, filter.show, isFiltered(filter)) : '';
  const filterKey = withPlannerFilter(new URLSearchParams(), filter).toString();
  const announcedFilter = useRef(filterKey);
  useEffect(() => {
    if (announcedFilter.current === filterKey || !count) return;
    announcedFilter.current = filterKey;
    announce(count);
  }, [filterKey, count, announce]);
  const setFilter = useCallback((next: PlannerFilter) => navigate({ search: `?${withPlannerFilter(params, next)}` }, { replace: true }), [navigate, params]);

  const go = (changes: { from?: string | null; weeks?: number }) => {
    const next = new URLSearchParams(params);
    if (changes.from === null) next.delete('from');
    else if (changes.from) next.set('from', changes.from);
    if (changes.weeks) next.set('weeks', String(changes.weeks));
    navigate({ search: `?${next}` });
  };
  const done = (message: string) => {
    setOpen(null);
    announce(message);
  };
  const weekOptions = [...new Set([...WEEK_CHOICES, range.weeks])].sort((a, b) => a - b).map((n) => ({ id: String(n), label: t('weeksOption', { count: n }) }));
  const lastDay = addDays(range.from, range.weeks * 7 - 1);

  return (
    <div className="flex min-w-0 flex-col gap-5">
      <div>
        <PageHeading>{t('heading')}</PageHeading>
        <p className="mt-1 max-w-3xl text-sm text-stone-600">{t('intro')}</p>
      </div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="secondary" onPress={() => go({ from: addDays(range.from, -7 * STEP_WEEKS) })}>
            <span aria-hidden="true">‹</span> {t('earlier')}
          </Button>
          <Button variant="secondary" onPress={() => go({ from: null })}>
            {t('thisWeek')}
          </Button>
          <Button variant="secondary" onPress={() => go({ from: addDays(range.from, 7 * STEP_WEEKS) })}>
            {t('later')} <span aria-hidden="true">›</span>
          </Button>
          <p className="text-sm font-medium text-stone-800" aria-live="polite">
            {t('shown', { range: format.dayRange(range.from, lastDay) })}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <Select className="w-36" label={t('weeksShown')} options={weekOptions} selectedKey={String(range.weeks)} onSelectionChange={(key) => key && go({ weeks: Number(key) })} />
          <Button onPress={() => setOpen({ kind: 'assignment' })}>{t('addAssignment')}</Button>
        </div>
      </div>
      {data && <FilterBar filter={filter} onChange={setFilter} assignments={data.assignments} count={count} />}
      <Legend />
      {problem && <Alert>{problem}</Alert>}
      {error && !data && <Alert>{describeError(error).message}</Alert>}
      {!data && !error && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {data && matches?.keys?.size === 0 && (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">
          <p>{t('filters.empty')}</p>
          <Button variant="secondary" onPress={() => setFilter(NO_FILTER)}>
            {t('filters.clear')}
          </Button>
        </div>
      )}
      {data && matches?.keys?.size !== 0 && (
        <div aria-busy={isPlaceholderData} className={cx('flex flex-col gap-2', isPlaceholderData && 'opacity-70')}>
          <NoCapacityNote people={data.people} format={format} />
          <ScheduleGrid schedule={data} today={today} format={format} actions={actions} visible={matches?.keys} kinds={filter.show} highlight={highlight} />
          <p id={KEYS_HINT_ID} className="text-xs text-stone-600">
            {t('hint')}
          </p>
        </div>
      )}
      <p ref={live} role="status" aria-live="polite" className="sr-only" />
      {data && open && (
        <Suspense fallback={null}>
          <PlanningDialog open={open} schedule={data} dates={newAssignmentDates(range.from, range.weeks, today, weekStart)} onClose={() => setOpen(null)} onDone={done} />
        </Suspense>
      )}
    </div>
  );
}

/** "12 of 48 people, 2 of 5 placeholders" (the kinds shown); unfiltered, "48 people, 5 placeholders". */
function countText(t: ReturnType<typeof usePlanningTexts>, m: Matches, kinds: Show, filtered: boolean): string {
  const parts: string[] = [];
  if (kinds !== 'placeholders') parts.push(filtered ? t('filters.peopleOf', { shown: m.shown.people, count: m.total.people }) : t('filters.people', { count: m.total.people }));
  if (kinds !== 'people') parts.push(filtered ? t('filters.placeholdersOf', { shown: m.shown.placeholders, count: m.total.placeholders }) : t('filters.placeholders', { count: m.total.placeholders }));
  return parts.join(', ');
}

/** Why someone without working hours is over-allocated from their first planned hour, and where that is set. */
function NoCapacityNote({ people, format }: { people: Schedule['people']; format: Format }) {
  const t = usePlanningTexts();
  const { workspace } = useWorkspaceSession();
  const names = useMemo(() => plannedWithoutCapacity(people).map((p) => p.name), [people]);
  if (names.length === 0) return null;
  return (
    <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {t('noCapacity.text', { count: names.length, names: format.list(names) })}{' '}
      {isAdministrator(workspace) ? <Link href="/settings/members">{t('noCapacity.setPatterns')}</Link> : t('noCapacity.askAdmin')}
    </p>
  );
}

/** What the cells' colours and marker mean. */
function Legend() {
  const t = usePlanningTexts();
  const items = [
    { load: 'free', text: t('legend.free') },
    { load: 'under', text: t('legend.under') },
    { load: 'full', text: t('legend.full') },
    { load: 'over', text: t('legend.over') },
  ] as const;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-xs text-stone-700">
      <span className="font-medium text-stone-800">{t('legend.title')}:</span>
      <ul className="flex flex-wrap gap-x-4 gap-y-2">
        {items.map((i) => (
          <li key={i.load} className="flex items-center gap-1.5">
            <span aria-hidden="true" className={cx('inline-flex h-5 w-9 items-center justify-center rounded-sm border border-stone-300 text-[10px]', CELL[i.load])}>
              {i.load === 'over' && <OverIcon />}
            </span>
            {i.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
