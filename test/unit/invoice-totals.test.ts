import { describe, expect, it } from 'vitest';
import { minorUnitDigits } from '../../src/money.ts';
import { computeTotals } from '../../src/modules/billing/invoices/totals.ts';

const line = (quantity: string, unit_price: string, extra: Partial<{ effect: 'charge' | 'credit'; taxed: boolean; taxed2: boolean }> = {}) => ({
  quantity,
  unit_price,
  effect: 'charge' as const,
  taxed: false,
  taxed2: false,
  ...extra,
});

describe('invoice totals', () => {
  it('knows currency minor units', () => {
    expect(minorUnitDigits('EUR')).toBe(2);
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(minorUnitDigits('BHD')).toBe(3);
  });

  it('rounds each line half up to the minor unit and sums exactly (no float drift)', () => {
    const t = computeTotals([line('0.1', '0.2'), line('0.1', '0.2'), line('1.005', '1')], {}, 'USD');
    expect(t.lineAmounts.map(String)).toEqual(['0.02', '0.02', '1.01']);
    expect(t.subtotal.toString()).toBe('1.05');
    expect(t.amount.toString()).toBe('1.05');
  });

  it('applies discount, then each tax to the discounted sum of its flagged lines; credits subtract', () => {
    const t = computeTotals(
      [line('10', '100', { taxed: true }), line('2', '50', { taxed2: true }), line('1', '100', { effect: 'credit', taxed: true })],
      { discount: '10', tax: '20', tax2: '5' },
      'EUR',
      '100',
    );
    // subtotal 1000 + 100 − 100 = 1000; discount 100
    expect(t.subtotal.toString()).toBe('1000');
    expect(t.discountAmount.toString()).toBe('100');
    // tax: (1000 − 100) × 0.9 × 0.2 = 162; tax2: 100 × 0.9 × 0.05 = 4.5
    expect(t.taxAmount.toString()).toBe('162');
    expect(t.tax2Amount.toString()).toBe('4.5');
    expect(t.amount.toString()).toBe('1066.5');
    expect(t.dueAmount.toString()).toBe('966.5');
  });

  it('taxes the discounted base as printed: the flagged lines less their rounded share of the discount', () => {
    // 101.26 − 10 % = 91.134 unrounded; the document prints the discount 10.13 and the net 91.13.
    const t = computeTotals([line('1', '101.26', { taxed: true })], { discount: '10', tax: '19' }, 'EUR');
    expect(t.discountAmount.toString()).toBe('10.13');
    expect(t.taxBase.toString()).toBe('91.13');
    expect(t.taxAmount.toString()).toBe('17.31'); // 19 % of 91.13 = 17.3147; of 91.134 it was 17.32
    expect(t.amount.toString()).toBe('108.44');
    // USD, two taxes, 5 % off 969.10: both bases are the printed net 920.64 (it printed 920.65).
    const usd = computeTotals([line('1', '969.10', { taxed: true, taxed2: true })], { discount: '5', tax: '8.25', tax2: '1.5' }, 'USD');
    expect(usd.discountAmount.toString()).toBe('48.46');
    expect([usd.taxBase.toString(), usd.tax2Base.toString()]).toEqual(['920.64', '920.64']);
    // Only some lines taxed: their own sum less their own rounded share (33.33 − 3.33).
    const some = computeTotals([line('1', '33.33', { taxed: true }), line('1', '66.67')], { discount: '10', tax: '10' }, 'EUR');
    expect(some.taxBase.toString()).toBe('30');
    expect(some.taxAmount.toString()).toBe('3');
  });

  it('keeps the unrounded base for invoices made before (their totals never change)', () => {
    const t = computeTotals([line('1', '101.26', { taxed: true })], { discount: '10', tax: '19', roundedTaxBase: false }, 'EUR');
    expect(t.taxBase.toString()).toBe('91.134');
    expect(t.taxAmount.toString()).toBe('17.32');
    expect(t.amount.toString()).toBe('108.45');
  });

  it('rounds to zero digits for JPY', () => {
    const t = computeTotals([line('1.5', '333')], { tax: '10' }, 'JPY');
    expect(t.subtotal.toString()).toBe('500'); // 499.5 → 500
  });
});
