import {
  cell,
  currencyCell,
  dateText,
  decimalText,
  hasColumns,
  hoursToSeconds,
  nameCell,
  notesCell,
  rateCell,
  yesNo,
  type TrackerFormat,
} from '../row.ts';

/**
 * Harvest's detailed time report as CSV: Date, Client, Project, Project Code, Task, Notes,
 * Hours, Billable?, Invoiced?, Approved?, First Name, Last Name, Roles, Employee?,
 * Billable Rate, Billable Amount, Cost Rate, Cost Amount, Currency ("Euro - EUR"),
 * External Reference URL. No e-mail: people are matched by name. Hours are decimal and
 * may carry a decimal comma (2.000,0 in German settings); they are kept exactly.
 */
const required = [['Date'], ['Project'], ['Hours'], ['First Name'], ['Last Name'], ['Billable?']];

export const harvest: TrackerFormat = {
  tracker: 'harvest',
  required,
  matches: hasColumns(required),
  map(r, header, dates) {
    const hours = decimalText(cell(r, 'Hours'), 'Hours');
    const billable = yesNo(r, 'Billable?');
    const name = [cell(r, 'First Name'), cell(r, 'Last Name')].filter(Boolean).join(' ');
    const rate = billable && header.includes('Billable Rate') ? rateCell(r, 'Billable Rate') : null;
    return {
      client: nameCell(r, 'Client'),
      project: nameCell(r, 'Project'),
      task: nameCell(r, 'Task'),
      person: { name: name === '' ? null : name, email: null },
      date: dateText(cell(r, 'Date'), 'Date', dates),
      startTime: null,
      endTime: null,
      seconds: hoursToSeconds(hours, 'Hours'),
      hours,
      notes: notesCell(r, 'Notes'),
      billable,
      billedElsewhere: billable && header.includes('Invoiced?') && yesNo(r, 'Invoiced?'),
      rate: rate !== null && Number(rate) > 0 ? rate : null,
      amount: null,
      currency: header.includes('Currency') ? currencyCell(r, 'Currency') : null,
    };
  },
};
