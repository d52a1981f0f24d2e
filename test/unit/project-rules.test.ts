import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import {
  applyProjectInput,
  archiveTransition,
  changedColumns,
  commercialFieldsIn,
  newProjectState,
} from '../../src/modules/catalog/projects/rules.ts';
import type { ProjectInput } from '../../src/modules/catalog/projects/schemas.ts';
import { FROM_THE_START, shownEffectiveFrom } from '../../src/modules/catalog/rates/rules.ts';

const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).statusCode).toBe(400);
    return (err as ApiError).extras.field;
  }
  throw new Error('expected a 400');
};

const create = (input: ProjectInput) => applyProjectInput({ ...newProjectState(input), client_id: 'c' }, { name: 'P', ...input });

describe('project rules', () => {
  it('keeps amounts exact (decimal strings, never floats)', () => {
    const { state, rate } = create({ hourly_rate: 0.1, is_fixed_fee: true, fee: 1234567.89, budget_by: 'project', budget: 0.3 });
    expect(rate).toEqual({ hourlyRate: '0.1' });
    expect(state).toMatchObject({ fee: '1234567.89', budget: '0.3' });
  });

  it('derives bill_by from is_billable on create', () => {
    expect(create({}).state.bill_by).toBe('project');
    expect(create({ is_billable: false }).state.bill_by).toBe('none');
  });

  it('names the field of each inconsistency', () => {
    expect(fieldOf(() => create({ bill_by: 'none', hourly_rate: 1 }))).toBe('hourly_rate');
    expect(fieldOf(() => create({ fee: 1 }))).toBe('fee');
    expect(fieldOf(() => create({ is_fixed_fee: true }))).toBe('fee');
    expect(fieldOf(() => create({ budget: 1 }))).toBe('budget');
    expect(fieldOf(() => create({ budget_by: 'project_cost' }))).toBe('budget');
    expect(fieldOf(() => create({ budget_by: 'task_fees', budget: 1 }))).toBe('budget');
    expect(fieldOf(() => create({ budget_is_monthly: true }))).toBe('budget_is_monthly');
    expect(fieldOf(() => create({ starts_on: '2024-01-02', ends_on: '2024-01-01' }))).toBe('ends_on');
    expect(fieldOf(() => create({ hourly_rate: 1.005 }))).toBe('hourly_rate');
    expect(fieldOf(() => create({ cost_budget: 1e12 }))).toBe('cost_budget');
    expect(fieldOf(() => create({ hourly_rate_effective_from: '2024-01-01' }))).toBe('hourly_rate_effective_from');
  });

  it('clears values a mode change makes inapplicable, and keeps explicit conflicts a 400', () => {
    const { state: fixed } = create({ is_fixed_fee: true, fee: 10, budget_by: 'project', budget: 5, budget_is_monthly: true });
    const { state } = applyProjectInput(fixed, { is_fixed_fee: false, budget_by: 'none' });
    expect(state).toMatchObject({ fee: null, budget: null, budget_is_monthly: false });
    expect(fieldOf(() => applyProjectInput(fixed, { is_fixed_fee: false, fee: 3 }))).toBe('fee');
  });

  it('compares decimals by value, so an equal amount is no change', () => {
    const { state } = create({ is_fixed_fee: true, fee: 10 });
    const stored = { ...state, fee: '10.00' };
    expect(changedColumns(stored, applyProjectInput(stored, { fee: 10 }).state)).toEqual({});
    expect(changedColumns(stored, applyProjectInput(stored, { fee: 10.5 }).state)).toEqual({ fee: '10.5' });
  });

  it('trims names and codes, keeps notes, and blanks optional text to null', () => {
    const { state } = create({ name: '  X  ', code: '  ', notes: '  keep  ' });
    expect(state).toMatchObject({ name: 'X', code: null, notes: '  keep  ' });
  });

  it('lists the commercial properties a body sends', () => {
    expect(commercialFieldsIn({ name: 'x', fee: 1, budget: null })).toEqual(['fee', 'budget']);
  });

  it('writes a new project’s rates from the start (before every date), shown as no date (issue 13)', () => {
    expect(FROM_THE_START).toBe('-infinity');
    expect(shownEffectiveFrom(FROM_THE_START)).toBeNull();
    expect(shownEffectiveFrom('2025-06-01')).toBe('2025-06-01');
    expect(shownEffectiveFrom(null)).toBeNull();
  });

  it('reads is_active changes as archive or restore', () => {
    expect(archiveTransition(true, false)).toBe('archive');
    expect(archiveTransition(false, true)).toBe('restore');
    expect(archiveTransition(true, true)).toBeNull();
  });
});
