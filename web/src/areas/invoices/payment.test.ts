import { describe, expect, it } from 'vitest';
import { paymentProblem } from './payment.ts';

describe('paymentProblem', () => {
  it('takes any amount above 0 up to the amount due', () => {
    expect(paymentProblem(4217.78, 4217.78, 'EUR')).toBeNull();
    expect(paymentProblem(0.01, 4217.78, 'EUR')).toBeNull();
    expect(paymentProblem(0.1 + 0.2, 0.3, 'EUR')).toBeNull(); // 0.30000000000000004 is 30 cents
  });

  it('refuses more than is due, in the currency’s minor units', () => {
    expect(paymentProblem(5000, 4217.78, 'EUR')).toBe('aboveDue');
    expect(paymentProblem(4217.79, 4217.78, 'EUR')).toBe('aboveDue');
    expect(paymentProblem(20001, 20000, 'JPY')).toBe('aboveDue');
  });

  it('refuses nothing or less', () => {
    expect(paymentProblem(0, 100, 'EUR')).toBe('notPositive');
    expect(paymentProblem(-5, 100, 'EUR')).toBe('notPositive');
    expect(paymentProblem(Number.NaN, 100, 'EUR')).toBe('notPositive');
    expect(paymentProblem(0.004, 100, 'EUR')).toBe('notPositive');
  });
});
