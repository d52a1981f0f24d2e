import { RowProblem, cell, checkSeconds, dateText, hasColumns, nameCell, notesCell, spanOf, timeText, yesNo, type TrackerFormat } from '../row.ts';

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

export const solidtime: TrackerFormat = {
  tracker: 'solidtime',
  required,
  matches: hasColumns(required),
  map(r) {
    const start = dateTime(cell(r, 'Start'), 'Start');
    const endText = cell(r, 'End');
    // A running timer has no end yet: it is not completed work.
    if (endText === '') throw new RowProblem('running_timer', { column: 'End' });
    const span = spanOf(start, dateTime(endText, 'End'));
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
