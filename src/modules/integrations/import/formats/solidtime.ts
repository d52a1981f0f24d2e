import {
  RowProblem,
  cell,
  checkSeconds,
  dateText,
  hasColumns,
  nameCell,
  notesCell,
  spanOf,
  statedClock,
  statedHours,
  timeText,
  withDuration,
  yesNo,
  type Record_,
  type StatedDuration,
  type TrackerFormat,
} from '../row.ts';

/**
 * solidtime's detailed time-entry report as CSV: Description, Task, Project, Client, User,
 * Start and End ("YYYY-MM-DD HH:MM:SS" in the exporting person's zone), Duration,
 * Duration (decimal), Billable (Yes/No), Tags. No e-mail and no rates: people are matched
 * by name, and the entries are priced by the project's rates in Sheaf.
 */
const required = [['Description'], ['Project'], ['User'], ['Start'], ['End'], ['Billable']];

function dateTime(text: string, column: string) {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)(?:Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!m) throw new RowProblem('not_a_date_time', { column, value: text });
  return { date: dateText(m[1], column), time: timeText(m[2], column) };
}

/**
 * The duration the row states, when the export has the columns (solidtime computes both from
 * the instants, so they hold across a clock change where Start and End, wall-clock times, do
 * not): Duration (H:MM:SS, exact), else Duration (decimal) (PHP's float: 1.5, 0.3333333333333333).
 */
function statedOf(r: Record_): StatedDuration | null {
  const clock = cell(r, 'Duration');
  if (clock !== '') return statedClock(clock, 'Duration');
  const decimal = cell(r, 'Duration (decimal)');
  return decimal === '' ? null : statedHours(decimal, 'Duration (decimal)');
}

export const solidtime: TrackerFormat = {
  tracker: 'solidtime',
  required,
  matches: hasColumns(required),
  map(r) {
    const start = dateTime(cell(r, 'Start'), 'Start');
    const endText = cell(r, 'End');
    // A running timer has no end yet: it is not completed work.
    if (endText === '') throw new RowProblem('running_timer', { column: 'End' });
    const span = withDuration(spanOf(start, dateTime(endText, 'End')), statedOf(r));
    return {
      client: nameCell(r, 'Client'),
      project: nameCell(r, 'Project'),
      task: nameCell(r, 'Task'),
      person: { name: nameCell(r, 'User'), email: null },
      date: start.date,
      startTime: span.startTime,
      endTime: span.endTime,
      seconds: checkSeconds(span.seconds ?? 0, 'Duration'),
      hours: null,
      notes: notesCell(r, 'Description'),
      billable: yesNo(r, 'Billable'),
      rate: null,
      amount: null,
      currency: null,
    };
  },
};
