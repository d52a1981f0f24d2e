import { describe, expect, it } from 'vitest';
import { definitionOf, hrefOf, type ShownReport } from './definition.ts';

const MAY = { from: '2026-05-01', to: '2026-05-31' };

describe('saving what a report page shows', () => {
  const time: ShownReport = { report: 'time', range: MAY, preset: 'last_month', group_by: 'task' };

  it('keeps a named period by its name, or its dates', () => {
    expect(definitionOf(time, 'named')).toEqual({ report: 'time', period: 'last_month', group_by: 'task' });
    expect(definitionOf(time, 'dates')).toEqual({ report: 'time', period: 'custom', from: '2026-05-01', to: '2026-05-31', group_by: 'task' });
  });

  it('keeps dates picked by hand as dates, whatever was chosen', () => {
    const picked: ShownReport = { report: 'team', range: { from: '2026-05-04', to: '2026-05-17' }, preset: null };
    expect(definitionOf(picked, 'named')).toEqual({ report: 'team', period: 'custom', from: '2026-05-04', to: '2026-05-17' });
  });

  it('groups only the time report (by project unless told)', () => {
    expect(definitionOf({ report: 'uninvoiced', range: MAY, preset: 'this_month', group_by: 'task' }, 'named')).toEqual({ report: 'uninvoiced', period: 'this_month' });
    expect(definitionOf({ report: 'time', range: MAY, preset: 'this_month' }, 'named')).toEqual({ report: 'time', period: 'this_month', group_by: 'project' });
  });

  it('keeps planned vs tracked by its period, without grouping or filter', () => {
    const planned: ShownReport = { report: 'planned_vs_tracked', range: MAY, preset: 'last_month' };
    expect(definitionOf(planned, 'named')).toEqual({ report: 'planned_vs_tracked', period: 'last_month' });
    expect(definitionOf(planned, 'dates')).toEqual({ report: 'planned_vs_tracked', period: 'custom', from: '2026-05-01', to: '2026-05-31' });
  });

  it('gives the project budget its project filter and no period', () => {
    expect(definitionOf({ report: 'project_budget', range: null, preset: null, is_active: false }, 'named')).toEqual({ report: 'project_budget', is_active: false });
    expect(definitionOf({ report: 'project_budget', range: null, preset: null, is_active: null }, 'dates')).toEqual({ report: 'project_budget', is_active: null });
  });
});

describe('opening a saved report', () => {
  it('goes to its page with the server’s dates and its grouping', () => {
    expect(hrefOf({ report: 'time', range: MAY, group_by: 'task', is_active: null })).toBe('/reports/time?from=2026-05-01&to=2026-05-31&group_by=task');
    expect(hrefOf({ report: 'time', range: MAY, group_by: null, is_active: null })).toBe('/reports/time?from=2026-05-01&to=2026-05-31&group_by=project');
    expect(hrefOf({ report: 'team', range: MAY, group_by: null, is_active: null })).toBe('/reports/team?from=2026-05-01&to=2026-05-31');
    expect(hrefOf({ report: 'uninvoiced', range: MAY, group_by: null, is_active: null })).toBe('/reports/uninvoiced?from=2026-05-01&to=2026-05-31');
    expect(hrefOf({ report: 'planned_vs_tracked', range: MAY, group_by: null, is_active: null })).toBe('/reports/planned?from=2026-05-01&to=2026-05-31');
  });

  it('gives the project budget its filter: active, archived or all', () => {
    expect(hrefOf({ report: 'project_budget', range: null, group_by: null, is_active: true })).toBe('/reports/budget?active=true');
    expect(hrefOf({ report: 'project_budget', range: null, group_by: null, is_active: false })).toBe('/reports/budget?active=false');
    expect(hrefOf({ report: 'project_budget', range: null, group_by: null, is_active: null })).toBe('/reports/budget?active=all');
  });
});
