import {
  RowProblem,
  cell,
  checkSeconds,
  currencyOfHeader,
  dateText,
  decimalText,
  emailCell,
  hasColumns,
  nameCell,
  notesCell,
  rateCell,
  spanToColumns,
  statedClock,
  statedHours,
  timeText,
  withDuration,
  yesNo,
  type DateOrder,
  type Record_,
  type Span,
  type StatedDuration,
  type TrackerFormat,
} from '../row.ts';

/**
 * Clockify's detailed report as CSV: Project, Client, Description, Task, User, Group,
 * Email, Tags, Billable, Start Date, Start Time, End Date, End Time, Duration (h),
 * Duration (decimal), "Billable Rate (CUR)", "Billable Amount (CUR)". Dates follow the
 * exporting person's setting: MM/DD/YYYY (Clockify's default), DD/MM/YYYY, the same with
 * dashes, DD.MM.YYYY and YYYY-MM-DD are read (dateText, in the file's order);
 * times may be 12-hour (10:23:52 AM) or 24-hour.
 */
const required = [['User'], ['Email'], ['Project'], ['Start Date'], ['Start Time'], ['Duration (decimal)', 'Duration (h)']];

/**
 * The duration the row states: Duration (decimal), else Duration (h), whichever the file has.
 * Duration (h) is H:MM:SS (or H:MM), and decimal hours when the workspace shows durations as
 * decimals. Null when neither is filled in.
 */
function statedOf(r: Record_): StatedDuration | null {
  const decimal = cell(r, 'Duration (decimal)');
  if (decimal !== '') return statedHours(decimal, 'Duration (decimal)');
  const clock = cell(r, 'Duration (h)');
  if (clock !== '') return clock.includes(':') ? statedClock(clock, 'Duration (h)') : statedHours(clock, 'Duration (h)');
  return null;
}

/**
 * The entry's times and seconds: its Duration columns, its start-to-end span where it agrees
 * with them (withDuration: the span is off by an hour on the nights the clocks change). A file
 * may lack the end columns and either duration; a row with none of them filled in is a
 * problem: counting it as 0 hours would lose the work without a word.
 */
function timesOf(r: Record_, date: string, start: { hhmm: string; seconds: number }, dates: DateOrder): Span & { seconds: number } {
  const span = withDuration(spanToColumns(r, { date, time: start }, 'End Date', 'End Time', dates), statedOf(r));
  if (span.seconds === null) throw new RowProblem('no_duration');
  return { ...span, seconds: span.seconds };
}

/**
 * Whether Clockify billed a billable row at 0: its rate reads 0.00 (Clockify writes that when
 * no rate is set) and its amount is 0 too. Sheaf's entry has no rate of its own: a billable
 * entry is priced by the rates of its project, person and date, so kept billable it would be
 * billed at the rate of the person's other work (and repricing rewrites any rate stored on it);
 * a rate of 0 in the timeline would price that other work at 0 as well. Not billable is the
 * only way the entry keeps the 0 the old tracker billed, in every report and invoice.
 */
function billedAtZero(r: Record_, header: string[], rate: string | null): boolean {
  if (rate === null || Number(rate) !== 0) return false;
  const amountColumn = header.find((h) => h.startsWith('Billable Amount'));
  const amount = amountColumn ? cell(r, amountColumn) : '';
  return amount === '' || Number(decimalText(amount, amountColumn!)) === 0;
}

export const clockify: TrackerFormat = {
  tracker: 'clockify',
  required,
  needs: [['Billable']],
  matches: hasColumns(required),
  map(r, header, dates) {
    const date = dateText(cell(r, 'Start Date'), 'Start Date', dates);
    const start = timeText(cell(r, 'Start Time'), 'Start Time');
    const span = timesOf(r, date, start, dates);
    const seconds = checkSeconds(span.seconds, 'Duration');
    const rateColumn = header.find((h) => h.startsWith('Billable Rate'));
    const fileBillable = yesNo(r, 'Billable');
    const rate = rateColumn && fileBillable ? rateCell(r, rateColumn) : null;
    const billable = fileBillable && !billedAtZero(r, header, rate);
    return {
      client: nameCell(r, 'Client'),
      project: nameCell(r, 'Project'),
      task: nameCell(r, 'Task'),
      person: { name: nameCell(r, 'User'), email: emailCell(r, 'Email') },
      date,
      startTime: span.startTime,
      endTime: span.endTime,
      seconds,
      hours: null,
      notes: notesCell(r, 'Description'),
      billable,
      ...(billable !== fileBillable ? { fileBillable } : {}),
      // 0.00 is not a rate to keep: such a row is billed at 0 and imported as not billable (billedAtZero).
      rate: billable && rate !== null && Number(rate) > 0 ? rate : null,
      amount: null,
      currency: rateColumn ? currencyOfHeader(rateColumn) : null,
    };
  },
};
