import { describe, expect, it } from 'vitest';
import { onlyFiltersChanged } from './filter-params.ts';
import { filterIndex, isFiltered, matchRows, NO_FILTER, plannerFilterOf, withPlannerFilter, type PlannerFilter } from './filters.ts';

const WEBSITE = '01900000-0000-7000-8000-00000000000a';
const SHOP = '01900000-0000-7000-8000-00000000000b';

describe('the planner’s filters in the URL', () => {
  it('are read with malformed values dropped', () => {
    expect(plannerFilterOf(new URLSearchParams(''))).toEqual(NO_FILTER);
    expect(plannerFilterOf(new URLSearchParams(`search=%20ann%20&project=${WEBSITE}&project=nope&project=${SHOP}&project=${WEBSITE}&show=placeholders&over=true`))).toEqual({
      search: 'ann',
      projects: [WEBSITE, SHOP],
      show: 'placeholders',
      over: true,
    });
    expect(plannerFilterOf(new URLSearchParams('show=everyone&over=yes'))).toEqual(NO_FILTER);
  });

  it('are written beside the weeks, which stay; the defaults are left out', () => {
    const params = new URLSearchParams('from=2026-04-13&weeks=26&search=old');
    expect(withPlannerFilter(params, { search: ' mia ', projects: [WEBSITE, SHOP], show: 'people', over: true }).toString()).toBe(
      `from=2026-04-13&weeks=26&search=mia&project=${WEBSITE}&project=${SHOP}&show=people&over=true`,
    );
    expect(withPlannerFilter(params, NO_FILTER).toString()).toBe('from=2026-04-13&weeks=26');
    const filter: PlannerFilter = { search: 'Zoë', projects: [SHOP], show: 'placeholders', over: false };
    expect(plannerFilterOf(withPlannerFilter(params, filter))).toEqual(filter);
  });

  it('changing only them does not ask for the schedule again; other weeks do', () => {
    const a = new URLSearchParams('from=2026-04-13&weeks=26');
    expect(onlyFiltersChanged(a, new URLSearchParams(`weeks=26&search=mia&from=2026-04-13&project=${SHOP}`))).toBe(true);
    expect(onlyFiltersChanged(a, new URLSearchParams('from=2026-04-20&weeks=26&search=mia'))).toBe(false);
    expect(onlyFiltersChanged(a, new URLSearchParams('from=2026-04-13'))).toBe(false);
  });

  it('count as a filter only when one narrows', () => {
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered({ ...NO_FILTER, search: '  ' })).toBe(false);
    expect(isFiltered({ ...NO_FILTER, over: true })).toBe(true);
  });
});

describe('the rows a filter keeps', () => {
  const cells = (...planned: number[]) => planned.map((p) => ({ planned_hours: p, capacity_hours: 40 }));
  const people = [
    { user_id: 'u1', name: 'Zoë Adler', cells: cells(10, 0) },
    { user_id: 'u2', name: 'Ben Brandt', cells: cells(40, 48) },
    { user_id: 'u3', name: 'Chloé Zoeller', cells: cells(0, 0) },
  ];
  const placeholders = [{ id: 'p1', name: 'Senior designer', cells: cells(50, 0) }];
  const index = filterIndex(people, placeholders);
  const plan = (row: { user_id?: string; placeholder_id?: string }, project: string, starts_on: string, ends_on: string) => ({
    user_id: row.user_id ?? null,
    placeholder_id: row.placeholder_id ?? null,
    project: { id: project },
    starts_on,
    ends_on,
  });
  // Two weeks shown: 2026-04-13 to 2026-04-26.
  const assignments = [
    plan({ user_id: 'u1' }, WEBSITE, '2026-04-13', '2026-04-17'),
    plan({ user_id: 'u2' }, SHOP, '2026-04-20', '2026-04-24'),
    // Before and after the weeks shown: they do not count.
    plan({ user_id: 'u3' }, WEBSITE, '2026-04-06', '2026-04-12'),
    plan({ user_id: 'u3' }, SHOP, '2026-04-27', '2026-05-01'),
    // Across the first day shown: it counts.
    plan({ placeholder_id: 'p1' }, WEBSITE, '2026-04-01', '2026-04-13'),
  ];
  const keys = (filter: Partial<PlannerFilter>) => [...(matchRows(index, assignments, { ...NO_FILTER, ...filter }, '2026-04-13', 2).keys ?? ['all'])];

  it('every row without a filter, and the totals per kind', () => {
    expect(matchRows(index, assignments, NO_FILTER, '2026-04-13', 2)).toEqual({ keys: null, shown: { people: 3, placeholders: 1 }, total: { people: 3, placeholders: 1 } });
  });

  it('by name: every word, in any order, ignoring case and accents', () => {
    expect(keys({ search: 'zoe' })).toEqual(['user:u1', 'user:u3']);
    expect(keys({ search: 'ADLER zoë' })).toEqual(['user:u1']);
    expect(keys({ search: 'chloe' })).toEqual(['user:u3']);
    expect(keys({ search: 'design' })).toEqual(['placeholder:p1']);
    expect(keys({ search: 'nobody' })).toEqual([]);
  });

  it('by project: a plan on one of them in the weeks shown', () => {
    expect(keys({ projects: [WEBSITE] })).toEqual(['user:u1', 'placeholder:p1']);
    expect(keys({ projects: [SHOP] })).toEqual(['user:u2']);
    expect(keys({ projects: [WEBSITE, SHOP] })).toEqual(['user:u1', 'user:u2', 'placeholder:p1']);
  });

  it('people, placeholders, over-allocated, and all of them together', () => {
    expect(keys({ show: 'people' })).toEqual(['user:u1', 'user:u2', 'user:u3']);
    expect(keys({ show: 'placeholders' })).toEqual(['placeholder:p1']);
    expect(keys({ over: true })).toEqual(['user:u2', 'placeholder:p1']);
    expect(keys({ over: true, show: 'people', projects: [SHOP, WEBSITE] })).toEqual(['user:u2']);
    expect(matchRows(index, assignments, { ...NO_FILTER, projects: [WEBSITE], search: 'e' }, '2026-04-13', 2)).toMatchObject({
      shown: { people: 1, placeholders: 1 },
      total: { people: 3, placeholders: 1 },
    });
  });
});
