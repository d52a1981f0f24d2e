import { describe, expect, it } from 'vitest';
import { createFormat } from '../../ui/format.ts';
import { priceText } from './price.ts';

const en = createFormat({ locale: 'en-GB', timeZone: 'UTC', durationStyle: 'clock' });
const de = createFormat({ locale: 'de-DE', timeZone: 'UTC', durationStyle: 'decimal', dateFormat: 'DD.MM.YYYY' });

describe('priceText', () => {
  it('shows at least two and at most six decimals', () => {
    expect(priceText(en, 0.3)).toBe('0.30');
    expect(priceText(en, 2)).toBe('2.00');
    expect(priceText(en, 0.35)).toBe('0.35');
    expect(priceText(en, 0.000015)).toBe('0.000015');
    expect(priceText(en, 1234.5)).toBe('1,234.50');
  });
  it('follows the language’s separators', () => {
    expect(priceText(de, 0.3)).toBe('0,30');
    expect(priceText(de, 2)).toBe('2,00');
    expect(priceText(de, 1234.5)).toBe('1.234,50');
    expect(priceText(de, 0.000015)).toBe('0,000015');
  });
});
