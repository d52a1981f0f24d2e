import {
  RowProblem,
  cell,
  checkSeconds,
  clockDuration,
  currencyCell,
  dateText,
  eitherSeparatorDecimal,
  emailCell,
  hasColumns,
  hoursToSeconds,
  nameCell,
  notesCell,
  pick,
  rateCell,
  spanOf,
  timeText,
  yesNo,
  type TrackerFormat,
} from '../row.ts';

/**
 * Kimai's timesheet export as CSV (the default template): Date, From, To, Duration (H:MM, or
 * decimal hours when the person exports decimals), Currency, Price, Internal price, Hourly
 * price, Fixed price, Name (the display name), User (the user name), E-mail, Staff number,
 * Customer, Project, Activity, Description, Billable, Tags, Type, category… Kimai's activity is
 * Sheaf's task; Hourly price is the rate. Billable is written as 1, and 0 or empty. The
 * separator may be ',' or ';' (a template option).
 *
 * Kimai writes the header in the exporting person's language: the English and German texts
 * below are Kimai's translations (translations/messages.{en,de}.xlf) of the columns of
 * src/Export/ColumnConverter.php in kimai/kimai. Kimai writes dates as YYYY-MM-DD and numbers
 * with a '.' in every language; a spreadsheet in German settings that re-saved the file writes
 * 03.06.2024, 1,5 and 85,00, which are read too (a number that could be either is refused).
 */
const COLUMNS = {
  Date: ['Date', 'Datum'],
  From: ['From', 'Von'],
  To: ['To', 'Bis'],
  Duration: ['Duration', 'Dauer'],
  Currency: ['Currency', 'Währung'],
  'Hourly price': ['Hourly price', 'Preis pro Stunde'],
  Name: ['Name'],
  User: ['User', 'Benutzer'],
  'E-mail': ['E-mail', 'E-Mail'],
  Customer: ['Customer', 'Kunde'],
  Project: ['Project', 'Projekt'],
  Activity: ['Activity', 'Tätigkeit'],
  Description: ['Description', 'Beschreibung'],
  Billable: ['Billable', 'Abrechenbar'],
};
type Column = keyof typeof COLUMNS;

const required = (['Date', 'From', 'To', 'Duration', 'Customer', 'Project', 'Activity'] as const).map((c) => COLUMNS[c]);

export const kimai: TrackerFormat = {
  tracker: 'kimai',
  required,
  matches: hasColumns(required),
  map(r, header, dates) {
    /** The file's own name of a column (the English one when the file lacks it), and whether it has it. */
    const col = (c: Column) => pick(header, ...COLUMNS[c]);
    const has = (c: Column) => COLUMNS[c].some((name) => header.includes(name));
    const date = dateText(cell(r, col('Date')), col('Date'), dates);
    const from = cell(r, col('From'));
    const to = cell(r, col('To'));
    const start = from === '' ? null : timeText(from, col('From'));
    if (to === '') throw new RowProblem('running_timer', { column: col('To') });
    const end = timeText(to, col('To'));
    const duration = cell(r, col('Duration'));
    const seconds = /^\d+:\d{2}(:\d{2})?$/.test(duration)
      ? clockDuration(duration, col('Duration'))
      : hoursToSeconds(eitherSeparatorDecimal(duration, col('Duration')), col('Duration'));
    // From and To are times of one day; an entry past midnight ends "earlier" and keeps its duration only.
    const sameDay = start !== null && end.seconds >= start.seconds;
    const span = sameDay ? spanOf({ date, time: start }, { date, time: end }) : null;
    const billable = has('Billable') ? yesNo(r, col('Billable'), false) : true;
    const rate = billable && has('Hourly price') ? rateCell(r, col('Hourly price'), eitherSeparatorDecimal) : null;
    const nameColumn = has('Name') ? col('Name') : col('User');
    return {
      client: nameCell(r, col('Customer')),
      project: nameCell(r, col('Project')),
      task: nameCell(r, col('Activity')),
      person: { name: nameCell(r, nameColumn) ?? nameCell(r, col('User')), email: has('E-mail') ? emailCell(r, col('E-mail')) : null },
      date,
      startTime: span?.startTime ?? null,
      endTime: span?.endTime ?? null,
      seconds: checkSeconds(seconds, col('Duration')),
      hours: null,
      notes: notesCell(r, col('Description')),
      billable,
      rate: rate !== null && Number(rate) > 0 ? rate : null,
      amount: null,
      currency: has('Currency') ? currencyCell(r, col('Currency')) : null,
    };
  },
};
