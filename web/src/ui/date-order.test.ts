import { describe, expect, it } from 'vitest';
import { dateFieldLocale } from './date-order.ts';
import type { DateFormat } from './format.ts';

const numeric = (locale: string) =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 0, 31)));

describe('dateFieldLocale', () => {
  it('gives English fields the order and separators of the person’s pattern', () => {
    const written: Record<DateFormat, string> = { 'YYYY-MM-DD': '2026-01-31', 'DD.MM.YYYY': '31.01.2026', 'DD/MM/YYYY': '31/01/2026', 'MM/DD/YYYY': '01/31/2026' };
    for (const [pattern, text] of Object.entries(written) as [DateFormat, string][]) {
      const locale = dateFieldLocale('en-GB', pattern);
      expect(locale.startsWith('en-'), pattern).toBe(true); // English placeholders and labels
      expect(numeric(locale), pattern).toBe(text);
    }
  });
  it('keeps the language’s own order where it has no locale for the pattern, and without a pattern', () => {
    expect(dateFieldLocale('de-DE', 'YYYY-MM-DD')).toBe('de-DE');
    expect(dateFieldLocale('de-DE', 'DD.MM.YYYY')).toBe('de-DE');
    expect(dateFieldLocale('en-GB', undefined)).toBe('en-GB');
  });
});
