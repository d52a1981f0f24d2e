import { describe, expect, it } from 'vitest';
import type { Project } from './api.ts';
import { changedTermsBody, createBody, newTermsBody, patchBody, rateChanged, valuesOf } from './values.ts';

const all = { set_commercial: true, see_internal_costs: true };
const none = { set_commercial: false, see_internal_costs: false };

const project: Project = {
  id: 'p1',
  name: 'Website',
  code: 'WEB',
  notes: null,
  is_active: true,
  client: { id: 'c1', name: 'Acme', currency: 'EUR' },
  owner_id: null,
  owner: null,
  is_billable: true,
  bill_by: 'project',
  is_fixed_fee: false,
  budget_by: 'project',
  budget_is_monthly: false,
  show_budget_to_all: false,
  notify_when_over_budget: false,
  over_budget_notification_percentage: 80,
  starts_on: null,
  ends_on: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  hourly_rate: 100,
  hourly_rate_effective_from: null,
  fee: null,
  cost_budget: null,
  budget: 120,
};

describe('a new project', () => {
  it('sends what is filled in, with billing and budget only for those who may set them', () => {
    const values = { ...valuesOf(), client_id: 'c1', name: 'Website', hourly_rate: 90, budget_by: 'project' as const, budget: 10 };
    expect(createBody(values, none)).toEqual({ client_id: 'c1', name: 'Website' });
    expect(createBody(values, all)).toEqual({
      client_id: 'c1',
      name: 'Website',
      is_billable: true,
      bill_by: 'project',
      hourly_rate: 90,
      is_fixed_fee: false,
      budget_by: 'project',
      budget: 10,
      budget_is_monthly: false,
      show_budget_to_all: false,
    });
  });

  it('sends no rate for a project not billed by the hour, and the date only when given', () => {
    const values = { ...valuesOf(), client_id: 'c1', name: 'X', bill_by: 'none' as const, is_billable: false, hourly_rate: 90 };
    expect(createBody(values, all)).not.toHaveProperty('hourly_rate');
    const dated = { ...valuesOf(), client_id: 'c1', name: 'X', hourly_rate: 90, hourly_rate_effective_from: '2026-03-01' };
    expect(createBody(dated, all)).toMatchObject({ hourly_rate: 90, hourly_rate_effective_from: '2026-03-01' });
  });
});

describe('a change', () => {
  it('sends only the changed fields', () => {
    expect(patchBody(valuesOf(project), project, all)).toEqual({});
    expect(patchBody({ ...valuesOf(project), name: 'Web', code: '' }, project, all)).toEqual({ name: 'Web', code: null });
  });

  it('sends a new rate with the date it applies from', () => {
    const values = { ...valuesOf(project), hourly_rate: 137.5, hourly_rate_effective_from: '2026-05-01' };
    expect(rateChanged(values, project)).toBe(true);
    expect(patchBody(values, project, all)).toEqual({ hourly_rate: 137.5, hourly_rate_effective_from: '2026-05-01' });
  });

  it('sends the budget alert and its share only when they change; a new project sends them when the alert is on', () => {
    expect(patchBody({ ...valuesOf(project), notify_when_over_budget: true }, project, all)).toEqual({ notify_when_over_budget: true });
    expect(patchBody({ ...valuesOf(project), notify_when_over_budget: true, over_budget_notification_percentage: 90 }, project, all)).toEqual({
      notify_when_over_budget: true,
      over_budget_notification_percentage: 90,
    });
    expect(patchBody({ ...valuesOf(project), over_budget_notification_percentage: NaN }, project, all)).toEqual({});
    expect(patchBody({ ...valuesOf(project), notify_when_over_budget: true }, project, none)).toEqual({});
    const fresh = { ...valuesOf(), client_id: 'c1', name: 'X', budget_by: 'project' as const, budget: 10 };
    expect(createBody(fresh, all)).not.toHaveProperty('notify_when_over_budget');
    expect(createBody({ ...fresh, notify_when_over_budget: true, over_budget_notification_percentage: 75 }, all)).toMatchObject({ notify_when_over_budget: true, over_budget_notification_percentage: 75 });
  });

  it('never sends billing or budget fields for a caller who may not set them', () => {
    const values = { ...valuesOf(project), hourly_rate: 1, budget: 5, name: 'Renamed' };
    expect(patchBody(values, project, none)).toEqual({ name: 'Renamed' });
  });

  it('turning fixed fee off sends the flag, not the fee; a budget leaves with its project-level mode', () => {
    const fixed = { ...project, is_fixed_fee: true, fee: 5000 };
    expect(patchBody({ ...valuesOf(fixed), is_fixed_fee: false }, fixed, all)).toEqual({ is_fixed_fee: false });
    expect(patchBody({ ...valuesOf(project), budget_by: 'task' }, project, all)).toEqual({ budget_by: 'task' });
  });
});

describe("an assignment's budget and rate", () => {
  const can = { budget: true, rate: true };
  it('a new one sends what is set and may be set', () => {
    expect(newTermsBody({ budget: 12, rate: 90, from: '2026-11-01' }, can)).toEqual({ budget: 12, hourly_rate: 90, hourly_rate_effective_from: '2026-11-01' });
    expect(newTermsBody({ budget: NaN, rate: 90, from: null }, can)).toEqual({ hourly_rate: 90 });
    expect(newTermsBody({ budget: 12, rate: 90, from: null }, { budget: false, rate: false })).toEqual({});
  });
  it('a change sends only what changed: a cleared budget as null, a new rate from its date or today', () => {
    const before = { budget: 12, hourly_rate: 90 };
    expect(changedTermsBody({ budget: 12, rate: 90, from: null }, can, before, '2026-11-24')).toEqual({});
    expect(changedTermsBody({ budget: NaN, rate: 95, from: null }, can, before, '2026-11-24')).toEqual({ budget: null, hourly_rate: 95, hourly_rate_effective_from: '2026-11-24' });
    expect(changedTermsBody({ budget: 12, rate: 95, from: '2026-12-01' }, can, before, '2026-11-24')).toEqual({ hourly_rate: 95, hourly_rate_effective_from: '2026-12-01' });
    expect(changedTermsBody({ budget: 3, rate: 95, from: null }, { budget: false, rate: false }, before, '2026-11-24')).toEqual({});
  });
});
