import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/money.ts';
import { withMoney } from '../../src/cli/output.ts';

describe('formatMoney', () => {
  it("prints the currency's minor units", () => {
    expect(formatMoney(4812.4, 'EUR')).toBe('4812.40');
    expect(formatMoney('4812.4', 'EUR')).toBe('4812.40');
    expect(formatMoney(0, 'USD')).toBe('0.00');
    expect(formatMoney('1200', 'JPY')).toBe('1200');
    expect(formatMoney('1.5', 'BHD')).toBe('1.500');
    expect(formatMoney('-3', 'EUR')).toBe('-3.00');
  });

  it('keeps digits beyond the minor units instead of rounding them away', () => {
    expect(formatMoney('12.5', 'JPY')).toBe('12.5'); // a rate takes two decimals in any currency
    expect(formatMoney('0.000002', 'USD')).toBe('0.000002'); // a per-token unit price
  });

  it('is exact for amounts a float cannot hold', () => {
    expect(formatMoney('999999999999.99', 'EUR')).toBe('999999999999.99');
    expect(formatMoney('0.1', 'EUR')).toBe('0.10');
  });
});

describe('withMoney', () => {
  it('formats the named amounts of a record and leaves the rest (and empty amounts) alone', () => {
    const record = { name: 'Design', rate: 95.5, budget: 12.5, price: null as number | null };
    expect(withMoney(record, 'EUR', ['rate', 'price'])).toEqual({ name: 'Design', rate: '95.50', budget: 12.5, price: null });
    expect(record.rate).toBe(95.5); // a copy
  });
});
