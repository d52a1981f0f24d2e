/**
 * The planner's row filters (filters.test.ts), pure: which people and placeholders the schedule
 * shows at agency size. All of it runs in the browser over the schedule the page already has
 * (300 rows × 26 weeks: well under a millisecond a keystroke), so the schedule route stays as it is.
 *
 * The filters live in the URL beside the weeks (/planning?from=…&weeks=26&search=ann&project=…&
 * project=…&show=people&over=true), as the other list pages keep theirs (projects/filters.ts), so
 * a filtered planner survives a reload, Earlier and Later, and can be shared. Malformed values
 * are dropped, not refused: the URL is typed by people.
 */
import { search, searchIndex, type SearchIndex } from '../../ui/match.ts';
import { addDays } from '../../ui/dates.ts';
import { FILTER_PARAMS } from './filter-params.ts';
import { loadOf, rowKeyOf, type RowKey } from './schedule.ts';

/** Which kinds of rows are shown. */
export type Show = 'all' | 'people' | 'placeholders';

export interface PlannerFilter {
  /** Words of a person's or placeholder's name (any order, ignoring case and accents). */
  search: string;
  /** Project ids: rows with a plan on any of them in the weeks shown. Empty: any. */
  projects: string[];
  show: Show;
  /** Only rows over their capacity in at least one week shown. */
  over: boolean;
}

export const NO_FILTER: PlannerFilter = { search: '', projects: [], show: 'all', over: false };

const ID = /^[0-9a-f-]{36}$/i;
/** More projects than anyone picks by hand; a longer URL is cut, not refused. */
const MAX_PROJECTS = 50;

export function plannerFilterOf(params: URLSearchParams): PlannerFilter {
  const show = params.get('show');
  return {
    search: (params.get('search') ?? '').trim().slice(0, 255),
    projects: [...new Set(params.getAll('project').filter((id) => ID.test(id)))].slice(0, MAX_PROJECTS),
    show: show === 'people' || show === 'placeholders' ? show : 'all',
    over: params.get('over') === 'true',
  };
}

/** `params` with the filter's parameters replaced (defaults left out); the schedule's own (from, weeks) stay. */
export function withPlannerFilter(params: URLSearchParams, filter: PlannerFilter): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of FILTER_PARAMS) next.delete(name);
  const words = filter.search.trim();
  if (words) next.set('search', words);
  for (const id of filter.projects) next.append('project', id);
  if (filter.show !== 'all') next.set('show', filter.show);
  if (filter.over) next.set('over', 'true');
  return next;
}

export const isFiltered = (f: PlannerFilter) => f.search.trim() !== '' || f.projects.length > 0 || f.show !== 'all' || f.over;

interface Cells {
  cells: readonly { planned_hours: number; capacity_hours: number }[];
}

/** A row as the filters see it. */
export interface FilterRow {
  key: RowKey;
  placeholder: boolean;
  name: string;
  /** Over its capacity in at least one week shown. */
  over: boolean;
}

/**
 * The rows of a schedule with their names folded once (ui/match.ts), so a keystroke in the
 * search is one `includes` per word and row. Built again only with a new schedule's people or
 * placeholders, not with a moved bar.
 */
export function filterIndex(people: readonly ({ user_id: string; name: string } & Cells)[], placeholders: readonly ({ id: string; name: string } & Cells)[]): SearchIndex<FilterRow> {
  const over = (r: Cells) => r.cells.some((c) => loadOf(c.planned_hours, c.capacity_hours) === 'over');
  const rows: FilterRow[] = [
    ...people.map((p) => ({ key: `user:${p.user_id}` as RowKey, placeholder: false, name: p.name, over: over(p) })),
    ...placeholders.map((p) => ({ key: `placeholder:${p.id}` as RowKey, placeholder: true, name: p.name, over: over(p) })),
  ];
  return searchIndex(rows, (r) => r.name);
}

export interface Planned {
  user_id: string | null;
  placeholder_id: string | null;
  project: { id: string };
  starts_on: string;
  ends_on: string;
}

export interface Matches {
  /** The rows to show; null: every row (no filter). */
  keys: ReadonlySet<RowKey> | null;
  shown: { people: number; placeholders: number };
  total: { people: number; placeholders: number };
}

/**
 * The rows the filter keeps: every condition holds (name, kind, over-allocated, and a plan on one
 * of the chosen projects overlapping the weeks shown, `from` for `weeks` weeks).
 */
export function matchRows(index: SearchIndex<FilterRow>, assignments: readonly Planned[], filter: PlannerFilter, from: string, weeks: number): Matches {
  const total = { people: 0, placeholders: 0 };
  for (const r of index.items) total[r.placeholder ? 'placeholders' : 'people']++;
  if (!isFiltered(filter)) return { keys: null, shown: total, total };
  let onProjects: Set<RowKey> | null = null;
  if (filter.projects.length > 0) {
    const chosen = new Set(filter.projects);
    const last = addDays(from, weeks * 7 - 1);
    onProjects = new Set();
    for (const a of assignments) if (chosen.has(a.project.id) && a.starts_on <= last && a.ends_on >= from) onProjects.add(rowKeyOf(a));
  }
  const keys = new Set<RowKey>();
  const shown = { people: 0, placeholders: 0 };
  for (const r of search(index, filter.search)) {
    if (filter.show === 'people' ? r.placeholder : filter.show === 'placeholders' ? !r.placeholder : false) continue;
    if (filter.over && !r.over) continue;
    if (onProjects && !onProjects.has(r.key)) continue;
    keys.add(r.key);
    shown[r.placeholder ? 'placeholders' : 'people']++;
  }
  return { keys, shown, total };
}
