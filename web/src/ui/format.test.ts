import { describe, expect, it } from 'vitest';
import { createFormat } from './format.ts';

const berlin = (locale = 'en-GB', durationStyle: 'clock' | 'decimal' = 'clock') => createFormat({ locale, timeZone: 'Europe/Berlin', durationStyle });

describe('calendar days', () => {
  it('are never moved by a time zone, whatever the workspace zone', () => {
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC', 'America/Los_Angeles']) {
      const f = createFormat({ locale: 'en-GB', timeZone, durationStyle: 'clock' });
      expect(f.day('2026-01-01')).toBe('1 Jan 2026');
      expect(f.weekday('2026-03-29')).toBe('Sun 29 Mar');
    }
  });

  it('follow the locale', () => {
    expect(berlin('de-DE').day('2026-03-05')).toBe('5. März 2026');
    expect(berlin('en-US').day('2026-03-05')).toBe('Mar 5, 2026');
    expect(berlin('de-DE').weekdayShort('2026-03-02')).toBe('Mo');
    expect(berlin('en-GB').dayRange('2026-03-02', '2026-03-08')).toMatch(/^2\s?–\s?8 Mar 2026$/);
    expect(berlin('de-DE').dayRange('2026-03-30', '2026-04-05')).toMatch(/^30\. März\s?–\s?5\. Apr\. 2026$/);
  });
});

describe('instants', () => {
  it('are shown in the workspace zone, not the browser zone', () => {
    // 23:30 UTC on 28 Mar is 00:30 on 29 Mar in Berlin (CET, +1).
    expect(berlin().dayOf('2026-03-28T23:30:00Z')).toBe('2026-03-29');
    expect(createFormat({ locale: 'en-GB', timeZone: 'America/New_York', durationStyle: 'clock' }).dayOf('2026-03-28T23:30:00Z')).toBe('2026-03-28');
    expect(berlin().dateTime('2026-03-28T23:30:00Z')).toBe('29 Mar 2026, 00:30');
  });

  it('cross the DST switch with the zone’s offset', () => {
    // Berlin moves to CEST (+2) at 01:00 UTC on 29 Mar 2026 and back at 01:00 UTC on 25 Oct 2026.
    expect(berlin().dateTime('2026-03-29T00:59:00Z')).toBe('29 Mar 2026, 01:59');
    expect(berlin().dateTime('2026-03-29T01:00:00Z')).toBe('29 Mar 2026, 03:00');
    expect(berlin().dateTime('2026-10-25T00:30:00Z')).toBe('25 Oct 2026, 02:30');
    expect(berlin().dateTime('2026-10-25T01:30:00Z')).toBe('25 Oct 2026, 02:30');
    expect(berlin().dayOf('2026-10-25T22:59:00Z')).toBe('2026-10-25');
    expect(berlin().dayOf('2026-10-25T23:00:00Z')).toBe('2026-10-26');
  });
});

describe('durations', () => {
  it('read h:mm or decimal hours, by the person’s choice', () => {
    expect(berlin('en-GB', 'clock').duration(123_300)).toBe('34:15');
    expect(berlin('en-GB', 'decimal').duration(123_300)).toBe('34.25');
    expect(berlin('de-DE', 'decimal').duration(123_300)).toBe('34,25');
    expect(berlin('en-GB', 'clock').hours(1.5)).toBe('1:30');
    expect(berlin('en-GB', 'decimal').hours(0.1)).toBe('0.10');
    expect(berlin('en-GB', 'clock').duration(0)).toBe('0:00');
    expect(berlin('en-GB', 'clock').duration(59)).toBe('0:01');
  });

  it('of decimal hours go through whole seconds (no float drift)', () => {
    // 0.1 + 0.2 hours is 1,080 s exactly, shown 0:18 (and 0.30), not 0.30000000000000004.
    expect(berlin('en-GB', 'clock').hours(0.1 + 0.2)).toBe('0:18');
    expect(berlin('en-GB', 'decimal').hours(0.1 + 0.2)).toBe('0.30');
  });
});

describe('times of day, money and numbers', () => {
  it('follow the locale', () => {
    expect(berlin('en-GB').time('09:30')).toBe('09:30');
    expect(berlin('en-US').time('21:05')).toBe('9:05 PM');
    expect(berlin('de-DE').time('21:05')).toBe('21:05');
    expect(berlin('en-GB').money(1234.5, 'EUR')).toBe('€1,234.50');
    expect(berlin('de-DE').money(1234.5, 'EUR')).toBe('1.234,50\u00a0€');
    expect(berlin('en-GB').money(1234, 'JPY')).toBe('JP¥1,234');
    // A negative amount with the minus sign, as the totals write their credits: one sign on every page.
    expect(berlin('en-GB').money(-250, 'EUR')).toBe('\u2212€250.00');
    expect(berlin('de-DE').money(-500, 'EUR')).toBe('\u2212500,00\u00a0€');
    expect(berlin('de-DE').number(1234.567)).toBe('1.234,57');
  });
});

describe('the person’s date pattern', () => {
  const f = (dateFormat: 'YYYY-MM-DD' | 'DD.MM.YYYY' | 'DD/MM/YYYY' | 'MM/DD/YYYY', locale = 'en-GB') =>
    createFormat({ locale, timeZone: 'Europe/Berlin', durationStyle: 'clock', dateFormat });

  it('writes full dates, ranges and instants in it, whatever the locale', () => {
    expect(f('DD.MM.YYYY').day('2026-03-05')).toBe('05.03.2026');
    expect(f('MM/DD/YYYY', 'de-DE').day('2026-03-05')).toBe('03/05/2026');
    expect(f('YYYY-MM-DD').dayRange('2026-03-02', '2026-03-08')).toBe('2026-03-02 – 2026-03-08');
    // The instant's day and time are the workspace zone's (23:30 UTC is 00:30 next day in Berlin).
    expect(f('DD/MM/YYYY').dateTime('2026-03-28T23:30:00Z')).toBe('29/03/2026 00:30');
  });

  it('leaves weekday labels to the locale', () => {
    expect(f('DD.MM.YYYY', 'de-DE').weekdayShort('2026-03-02')).toBe('Mo');
  });
});

describe('unit prices', () => {
  const en = createFormat({ locale: 'en-GB', timeZone: 'UTC', durationStyle: 'clock' });
  const de = createFormat({ locale: 'de-DE', timeZone: 'UTC', durationStyle: 'decimal' });

  it("shows at least the currency's own decimals", () => {
    expect(en.unitPrice(0.3, 'EUR')).toBe('€0.30');
    expect(en.unitPrice(1234.5, 'EUR')).toBe('€1,234.50');
    expect(de.unitPrice(0.35, 'EUR')).toBe('0,35\u00a0€');
    expect(en.unitPrice(5, 'JPY')).toBe('JP¥5');
  });

  it('keeps every digit of a unit price, with the currency where the locale puts it', () => {
    expect(en.unitPrice(0.000015, 'USD')).toBe('US$0.000015');
    expect(en.unitPrice(0.000015, 'EUR')).toBe('€0.000015');
    expect(de.unitPrice(0.000015, 'EUR')).toBe('0,000015\u00a0€');
    expect(de.unitPrice(1234.125, 'EUR')).toBe('1.234,125\u00a0€');
    expect(en.unitPrice(0.5, 'JPY')).toBe('JP¥0.5');
  });
});

describe('numbers without a currency', () => {
  it('keep at least the decimals asked for', () => {
    const en = createFormat({ locale: 'en-GB', timeZone: 'UTC', durationStyle: 'clock' });
    const de = createFormat({ locale: 'de-DE', timeZone: 'UTC', durationStyle: 'clock' });
    expect(en.number(120, 2, 2)).toBe('120.00');
    expect(de.number(1234.5, 2, 2)).toBe('1.234,50');
    expect(en.number(1.005, 2)).toBe('1.01');
    expect(en.number(3)).toBe('3');
  });

  it('show a stored unit price with two to six decimals, in the language’s separators', () => {
    const en = createFormat({ locale: 'en-GB', timeZone: 'UTC', durationStyle: 'clock' });
    const de = createFormat({ locale: 'de-DE', timeZone: 'UTC', durationStyle: 'decimal' });
    for (const [value, english, german] of [
      [0.3, '0.30', '0,30'],
      [2, '2.00', '2,00'],
      [0.35, '0.35', '0,35'],
      [0.000015, '0.000015', '0,000015'],
      [1234.5, '1,234.50', '1.234,50'],
    ] as const) {
      expect(en.number(value, 6, 2)).toBe(english);
      expect(de.number(value, 6, 2)).toBe(german);
    }
  });

  it('show an invoice line’s quantity with all six stored decimals and no padding', () => {
    const en = createFormat({ locale: 'en-GB', timeZone: 'UTC', durationStyle: 'clock' });
    const de = createFormat({ locale: 'de-DE', timeZone: 'UTC', durationStyle: 'clock' });
    expect(en.quantity(0.333333)).toBe('0.333333');
    expect(de.quantity(1234.5)).toBe('1.234,5');
    expect(en.quantity(3)).toBe('3');
  });
});

describe('lists of names', () => {
  it('are joined as the language joins them', () => {
    expect(berlin('en-GB').list(['Ada', 'Max', 'Mia'])).toBe('Ada, Max and Mia');
    expect(berlin('en-US').list(['Ada', 'Max', 'Mia'])).toBe('Ada, Max, and Mia');
    expect(berlin('de-DE').list(['Ada', 'Max', 'Mia'])).toBe('Ada, Max und Mia');
    expect(berlin('de-DE').list(['Ada'])).toBe('Ada');
  });
});
