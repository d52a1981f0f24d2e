import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { badRequest } from '../../../errors.ts';
import type { HolidayInput } from './rules.ts';

/**
 * Public holidays from an iCalendar file (ical.js parses it): each all-day event of the
 * year, its summary as the name; a yearly recurring one, its occurrence in that year; a
 * multi-day one, its days (DTEND is exclusive). Events with a time of day are not
 * holidays and are left out. A file that does not parse is a 400 naming `calendar`.
 */
export function holidaysFromICal(text: string, year: number): { holidays: HolidayInput[]; skipped: number } {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch (err) {
    throw badRequest(`calendar is not an iCalendar file (${(err as Error).message.slice(0, 200)}).`, { field: 'calendar' });
  }
  if (root.name !== 'vcalendar') throw badRequest('calendar is not an iCalendar file (no VCALENDAR).', { field: 'calendar' });
  const holidays: HolidayInput[] = [];
  let skipped = 0;
  const inYear = (iso: string) => iso.startsWith(`${year}-`);
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    if (!event.startDate || !event.startDate.isDate) {
      skipped++;
      continue;
    }
    const name = (event.summary || 'Holiday').trim().slice(0, 200);
    const length = event.endDate ? Math.max(1, event.endDate.subtractDate(event.startDate).toSeconds() / 86_400) : 1;
    const starts: string[] = [];
    if (event.isRecurring()) {
      const it = event.iterator();
      for (let next = it.next(), guard = 0; next && guard < 1000; next = it.next(), guard++) {
        const iso = next.toString().slice(0, 10);
        if (Number(iso.slice(0, 4)) > year) break;
        if (inYear(iso)) starts.push(iso);
      }
    } else if (inYear(event.startDate.toString().slice(0, 10))) {
      starts.push(event.startDate.toString().slice(0, 10));
    }
    if (starts.length === 0) skipped++;
    for (const start of starts) {
      const end = DateTime.fromISO(start, { zone: 'UTC' }).plus({ days: length - 1 }).toISODate()!;
      holidays.push({ name, starts_on: start, ends_on: end });
    }
  }
  return { holidays, skipped };
}
