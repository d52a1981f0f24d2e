import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { applyClientInput, archiveTransition, changedColumns, EMPTY_CLIENT, percentage } from '../../src/modules/catalog/clients/rules.ts';
import { contactValues } from '../../src/modules/catalog/contacts/rules.ts';

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

const base = { ...EMPTY_CLIENT, name: 'Acme' };

describe('client rules', () => {
  it('keeps percentages exact, at most four decimal places, 0..100', () => {
    expect(percentage('tax', 8.25)).toBe('8.25');
    expect(percentage('tax', 0)).toBe('0');
    expect(percentage('tax', 100)).toBe('100');
    expect(percentage('tax', 12.3456)).toBe('12.3456');
    expect(percentage('tax', 1e-4)).toBe('0.0001');
    expect(percentage('tax', null)).toBeNull();
    expect(fieldOf(() => percentage('tax', 0.1 + 0.2))).toBe('tax');
    expect(fieldOf(() => percentage('tax2', 100.0001))).toBe('tax2');
    expect(fieldOf(() => percentage('discount', -0.5))).toBe('discount');
    expect(fieldOf(() => percentage('tax', Number.NaN))).toBe('tax');
  });

  it('applies the payment-terms rule to the merged state', () => {
    expect(applyClientInput(base, { payment_terms: 'custom', payment_days: 0 })).toMatchObject({ payment_terms: 'custom', payment_days: 0 });
    expect(fieldOf(() => applyClientInput(base, { payment_terms: 'custom' }))).toBe('payment_days');
    expect(fieldOf(() => applyClientInput(base, { payment_terms: 'net_30', payment_days: 3 }))).toBe('payment_days');
    expect(fieldOf(() => applyClientInput(base, { payment_days: 3 }))).toBe('payment_days');
    expect(fieldOf(() => applyClientInput(base, { payment_terms: 'custom', payment_days: 366 }))).toBe('payment_days');
    const custom = applyClientInput(base, { payment_terms: 'custom', payment_days: 10 });
    expect(applyClientInput(custom, { payment_days: 30 }).payment_days).toBe(30);
    expect(applyClientInput(custom, { payment_terms: 'net_15' })).toMatchObject({ payment_terms: 'net_15', payment_days: null });
    expect(applyClientInput(custom, { payment_terms: null })).toMatchObject({ payment_terms: null, payment_days: null });
    expect(fieldOf(() => applyClientInput(custom, { payment_days: null }))).toBe('payment_days');
  });

  it('trims names, refuses blank ones and unknown currencies', () => {
    expect(applyClientInput(base, { name: '  Beta ' }).name).toBe('Beta');
    expect(fieldOf(() => applyClientInput(base, { name: '  ' }))).toBe('name');
    expect(applyClientInput(base, { currency: 'JPY' }).currency).toBe('JPY');
    expect(applyClientInput({ ...base, currency: 'JPY' }, { currency: null }).currency).toBeNull();
    expect(fieldOf(() => applyClientInput(base, { currency: 'XXY' }))).toBe('currency');
  });

  it('reports only real changes, comparing decimals by value', () => {
    const stored = { ...base, tax: '8.2500' };
    expect(changedColumns(stored, applyClientInput(stored, { tax: 8.25, name: 'Acme' }))).toEqual({});
    expect(changedColumns(stored, applyClientInput(stored, { tax: 8.3 }))).toEqual({ tax: '8.3' });
    expect(changedColumns(stored, applyClientInput(stored, { tax: null }))).toEqual({ tax: null });
  });

  it('names archive and restore', () => {
    expect(archiveTransition(true, false)).toBe('archive');
    expect(archiveTransition(false, true)).toBe('restore');
    expect(archiveTransition(true, true)).toBeNull();
  });
});

describe('contact rules', () => {
  it('trims, defaults and validates', () => {
    expect(contactValues({ client_id: 'x', first_name: ' Ann ', email: ' ann@example.com ', fax: '' })).toEqual({
      first_name: 'Ann',
      last_name: '',
      title: null,
      email: 'ann@example.com',
      phone_office: null,
      phone_mobile: null,
      fax: null,
    });
    expect(fieldOf(() => contactValues({ client_id: 'x', first_name: ' ' }))).toBe('first_name');
    expect(fieldOf(() => contactValues({ client_id: 'x', first_name: 'A', email: 'nope' }))).toBe('email');
  });
});
