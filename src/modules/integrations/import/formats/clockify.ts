import {
  RowProblem,
  cell,
  checkSeconds,
  clockDuration,
  currencyOfHeader,
  dateText,
  decimalText,
  emailCell,
  hasColumns,
  hoursToSeconds,
  nameCell,
  notesCell,
  rateCell,
  spanToColumns,
  timeText,
  yesNo,
  type Record_,
  type TrackerFormat,
} from '../row.ts';

/**
 * Clockify's detailed report as CSV: Project, Client, Description, Task, User, Group,
 * Email, Tags, Billable, Start Date, Start Time, End Date, End Time, Duration (h),
 * Duration (decimal), "Billable Rate (CUR)", "Billable Amount (CUR)". Dates follow the
 * exporting person's setting: MM/DD/YYYY (Clockify's default) and YYYY-MM-DD are read;
 * times may be 12-hour (10:23:52 AM) or 24-hour.
 */
const required = [['User'], ['Email'], ['Project'], ['Start Date'], ['Start Time'], ['Duration (decimal)', 'Duration (h)']];

/**
 * The entry's seconds: its start-to-end span when the file has both ends, else Duration
 * (decimal), else Duration (h), whichever the file has (a file may lack the end columns and
 * either duration). Duration (h) is H:MM:SS (or H:MM), and decimal hours when the workspace
 * shows durations as decimals. A row with none of them filled in is a problem: counting it
 * as 0 hours would lose the work without a word.
 */
function secondsOf(r: Record_, span: { seconds: number | null } | null): number {
  if (span && span.seconds !== null) return span.seconds;
  const decimal = cell(r, 'Duration (decimal)');
  if (decimal !== '') return hoursToSeconds(decimalText(decimal, 'Duration (decimal)'), 'Duration (decimal)');
  const clock = cell(r, 'Duration (h)');
  if (clock !== '') return clock.includes(':') ? clockDuration(clock, 'Duration (h)') : hoursToSeconds(decimalText(clock, 'Duration (h)'), 'Duration (h)');
  throw new RowProblem('no_duration');
}

export const clockify: TrackerFormat = {
  tracker: 'clockify',
  required,
  needs: [['Billable']],
  matches: hasColumns(required),
  map(r, header) {
    const date = dateText(cell(r, 'Start Date'), 'Start Date');
    const start = timeText(cell(r, 'Start Time'), 'Start Time');
    const span = spanToColumns(r, { date, time: start }, 'End Date', 'End Time');
    const seconds = checkSeconds(secondsOf(r, span), 'Duration');
    const rateColumn = header.find((h) => h.startsWith('Billable Rate'));
    const billable = yesNo(r, 'Billable');
    const rate = rateColumn && billable ? rateCell(r, rateColumn) : null;
    return {
      client: nameCell(r, 'Client'),
      project: nameCell(r, 'Project'),
      task: nameCell(r, 'Task'),
      person: { name: nameCell(r, 'User'), email: emailCell(r, 'Email') },
      date,
      startTime: span?.startTime ?? null,
      endTime: span?.endTime ?? null,
      seconds,
      hours: null,
      notes: notesCell(r, 'Description'),
      billable,
      // Clockify writes 0.00 when no rate is set: that is no rate, not a free hour.
      rate: rate !== null && Number(rate) > 0 ? rate : null,
      amount: null,
      currency: rateColumn ? currencyOfHeader(rateColumn) : null,
    };
  },
};
