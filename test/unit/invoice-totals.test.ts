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

  it('rounds to zero digits for JPY', () => {
    const t = computeTotals([line('1.5', '333')], { tax: '10' }, 'JPY');
    expect(t.subtotal.toString()).toBe('500'); // 499.5 → 500
  });
});
