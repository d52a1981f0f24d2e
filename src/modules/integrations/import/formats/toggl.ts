import { Decimal } from 'decimal.js';
import {
  RowProblem,
  cell,
  checkSeconds,
  checkedRate,
  currencyOfHeader,
  dateText,
  emailCell,
  hasColumns,
  nameCell,
  notesCell,
  pick,
  spanToColumns,
  statedClock,
  timeText,
  withDuration,
  yesNo,
  type TrackerFormat,
} from '../row.ts';

/**
 * Toggl Track's detailed report as CSV: User (newer exports: Member), Email, Client,
 * Project, Task, Description, Billable, Start date, Start time, End date, End time,
 * Duration (H:MM:SS), Tags and "Amount (CUR)". Toggl writes the billable amount, not the
 * rate: the rate is amount ÷ hours, to cents, checked as every tracker's rate is (checkedRate),
 * and the import keeps a person's earlier rate when it reproduces the amount, so rounding
 * never invents a rate change.
 */
const required = [['User', 'Member'], ['Email'], ['Project'], ['Start date'], ['Start time'], ['Duration']];

export const toggl: TrackerFormat = {
  tracker: 'toggl',
  required,
  needs: [['Billable']],
  matches: hasColumns(required),
  map(r, header, dates) {
    const date = dateText(cell(r, 'Start date'), 'Start date', dates);
    const start = timeText(cell(r, 'Start time'), 'Start time');
    // Duration is exact to the second and always wins over the clock times (withDuration).
    const span = withDuration(spanToColumns(r, { date, time: start }, 'End date', 'End time', dates), statedClock(cell(r, 'Duration'), 'Duration'));
    const seconds = checkSeconds(span.seconds!, 'Duration');
    const amountColumn = header.find((h) => /^Amount( \(.*\))?$/.test(h));
    const billable = yesNo(r, 'Billable');
    let rate: string | null = null;
    let amount: string | null = null;
    if (amountColumn && cell(r, amountColumn) !== '' && billable && seconds > 0) {
      const text = cell(r, amountColumn);
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw new RowProblem('not_a_number', { column: amountColumn, value: text });
      amount = new Decimal(text).toFixed();
      if (new Decimal(amount).isNegative()) throw new RowProblem('negative', { column: amountColumn, value: text });
      const perHour = new Decimal(amount).mul(3600).div(seconds);
      rate = checkedRate(perHour, { column: amountColumn, value: text }, { duration: cell(r, 'Duration') });
    }
    return {
      client: nameCell(r, 'Client'),
      project: nameCell(r, 'Project'),
      task: nameCell(r, 'Task'),
      person: { name: nameCell(r, pick(header, 'User', 'Member')), email: emailCell(r, 'Email') },
      date,
      startTime: span.startTime,
      endTime: span.endTime,
      seconds,
      hours: null,
      notes: notesCell(r, 'Description'),
      billable,
      rate,
      amount,
      currency: amountColumn ? currencyOfHeader(amountColumn) : null,
    };
  },
};
