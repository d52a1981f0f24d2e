import { fromAbsolute, toCalendarDate } from '@internationalized/date';
import { utcDay } from './dates.ts';

/**
 * One way to show dates, durations and money (issue 21 item 11). Every page, report
 * and export of the web app formats through a `Format` made from three settings:
 *
 * - `locale`: the person's (their language), for month names, separators and the
 *   12/24-hour clock;
 * - `timeZone`: the workspace's IANA zone, the one the API's calendar days and
 *   wall-clock times (`spent_date`, `started_time`) are in. Instants (`created_at`,
 *   `timer_started_at`) are shown in it, never in the browser's zone, so a person
 *   abroad sees the same day as the office;
 * - `durationStyle`: the person's choice of `clock` (`34:15`) or `decimal` (`34.25`);
 * - `dateFormat`: the person's numeric date pattern (`YYYY-MM-DD`, `DD.MM.YYYY`,
 *   `DD/MM/YYYY`, `MM/DD/YYYY`) for full dates; without one, the locale's medium style.
 *
 * Calendar days (`YYYY-MM-DD`) are never passed through a time zone at all: they are
 * formatted as UTC dates, so no zone can move them to the day before. Formatters are
 * made once per setting and kept (Intl constructors are slow).
 */

export type DurationStyle = 'clock' | 'decimal';

export type DateFormat = 'YYYY-MM-DD' | 'DD.MM.YYYY' | 'DD/MM/YYYY' | 'MM/DD/YYYY';

export interface FormatSettings {
  locale: string;
  timeZone: string;
  durationStyle: DurationStyle;
  dateFormat?: DateFormat;
}

export interface Format {
  readonly settings: FormatSettings;
  /** A calendar day: the person's pattern ("12.01.2026"), else the locale's medium style ("12 Jan 2026"). */
  day(date: string): string;
  /** A calendar day with its weekday: "Mon 12 Jan". */
  weekday(date: string): string;
  /** A day's short weekday alone: "Mon". */
  weekdayShort(date: string): string;
  /** A range of calendar days: "12–18 Jan 2026". */
  dayRange(from: string, to: string): string;
  /** An instant (ISO 8601) as a date and time in the workspace zone. */
  dateTime(iso: string): string;
  /** A wall-clock `HH:mm` time as the locale writes it ("09:30", "9:30 AM"). */
  time(hhmm: string): string;
  /** Whole seconds as hours, in the person's style: "1:30" or "1.50". */
  duration(seconds: number): string;
  /** Decimal hours (the API's `hours`) as duration() shows them. */
  hours(hours: number): string;
  /** An amount in its own currency (JPY without decimals), a negative one with a minus sign (−), as the totals' credits write it. Never adds amounts. */
  money(amount: number, currency: string): string;
  /** A unit price in its currency with every digit it has (0.000015 per token), at least the currency's. */
  unitPrice(amount: number, currency: string): string;
  /** A plain number with up to `maxDigits` decimals and at least `minDigits` (a rate without its currency: `120.00`). */
  number(value: number, maxDigits?: number, minDigits?: number): string;
  /** An invoice line's quantity with every decimal it is stored with (six: an imported time line keeps its entries' exact hours). */
  quantity(value: number): string;
  /** The calendar day (YYYY-MM-DD) an instant falls on in the workspace zone. */
  dayOf(instant: string | number): string;
  /** Names joined as the language joins them: "Ada, Max and Mia", „Ada, Max und Mia“. */
  list(items: readonly string[]): string;
}

/** `invoice_line_items.quantity` is numeric(18, 6) (migration 0109). */
const QUANTITY_DIGITS = 6;

const cache = new Map<string, Format>();

/** The formatter for these settings (made once, then shared). */
export function createFormat(settings: FormatSettings): Format {
  const key = `${settings.locale}|${settings.timeZone}|${settings.durationStyle}|${settings.dateFormat ?? ''}`;
  let format = cache.get(key);
  if (!format) cache.set(key, (format = build(settings)));
  return format;
}

/** A calendar day in a numeric pattern. */
function patterned(date: string, pattern: DateFormat): string {
  const [y, m, d] = date.split('-');
  return pattern.replace('YYYY', y!).replace('MM', m!).replace('DD', d!);
}

function build(settings: FormatSettings): Format {
  const { locale, timeZone, durationStyle, dateFormat } = settings;
  const dayFormat = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const weekdayFormat = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const weekdayShort = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const timeFormat = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' });
  // The workspace zone's wall clock as numbers, for the person's date pattern.
  const zonedParts = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone });
  const decimalHours = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const listFormat = new Intl.ListFormat(locale, { type: 'conjunction' });
  const money = new Map<string, Intl.NumberFormat>();
  const numbers = new Map<string, Intl.NumberFormat>();
  const number = (value: number, maxDigits = 2, minDigits = 0) => {
    const key = `${maxDigits}|${minDigits}`;
    let f = numbers.get(key);
    if (!f) numbers.set(key, (f = new Intl.NumberFormat(locale, { minimumFractionDigits: minDigits, maximumFractionDigits: Math.max(minDigits, maxDigits) })));
    return f.format(value);
  };
  const moneyFormat = (currency: string, digits?: number) => {
    const key = `${currency}|${digits ?? ''}`;
    let f = money.get(key);
    if (!f) {
      const options: Intl.NumberFormatOptions = { style: 'currency', currency };
      if (digits !== undefined) Object.assign(options, { minimumFractionDigits: digits, maximumFractionDigits: digits });
      money.set(key, (f = new Intl.NumberFormat(locale, options)));
    }
    return f;
  };

  const duration = (seconds: number) => {
    if (durationStyle === 'decimal') return decimalHours.format(Math.round(seconds / 36) / 100);
    const minutes = Math.round(seconds / 60);
    const sign = minutes < 0 ? '-' : '';
    const abs = Math.abs(minutes);
    return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
  };

  const time = (hhmm: string) => {
    const [h, m] = hhmm.split(':').map(Number);
    return timeFormat.format(new Date(Date.UTC(2000, 0, 1, h, m)));
  };

  return {
    settings,
    day: (date) => (dateFormat ? patterned(date, dateFormat) : dayFormat.format(utcDay(date))),
    weekday: (date) => weekdayFormat.format(utcDay(date)),
    weekdayShort: (date) => weekdayShort.format(utcDay(date)),
    dayRange: (from, to) =>
      dateFormat ? `${patterned(from, dateFormat)} – ${patterned(to, dateFormat)}` : dayFormat.formatRange(utcDay(from), utcDay(to)),
    dateTime: (iso) => {
      if (!dateFormat) return dateTimeFormat.format(new Date(iso));
      const p = Object.fromEntries(zonedParts.formatToParts(new Date(iso)).map(({ type, value }) => [type, value]));
      return `${patterned(`${p.year}-${p.month}-${p.day}`, dateFormat)} ${time(`${p.hour}:${p.minute}`)}`;
    },
    time,
    duration,
    // Through whole seconds, as the browser sums hours (never a float sum of hours).
    hours: (hours) => duration(Math.round(hours * 3600)),
    // Intl writes a hyphen; the totals write their credits with the minus sign, and one page showed both.
    money: (amount, currency) => (amount < 0 ? moneyFormat(currency).format(amount).replace('-', '\u2212') : moneyFormat(currency).format(amount)),
    unitPrice: (amount, currency) => {
      const own = moneyFormat(currency);
      // The digits the number has as written (the API's decimals come as numbers: 0.000015).
      const digits = Math.min(20, (String(amount).split('.')[1] ?? '').length);
      return digits <= own.resolvedOptions().minimumFractionDigits! ? own.format(amount) : moneyFormat(currency, digits).format(amount);
    },
    number,
    quantity: (value) => number(value, QUANTITY_DIGITS),
    dayOf: (instant) => {
      const ms = typeof instant === 'number' ? instant : Date.parse(instant);
      return toCalendarDate(fromAbsolute(ms, timeZone)).toString();
    },
    list: (items) => listFormat.format(items),
  };
}

