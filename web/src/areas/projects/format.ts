/** Money and dates as people read them (formatting only: amounts are never added up here). */
export { formatMoney } from '../../ui/money.ts';

const dates = new Map<string, Intl.DateTimeFormat>();

/** A YYYY-MM-DD date, read as a calendar day (never through the browser's time zone). */
export function formatDay(date: string, locale?: string): string {
  const key = locale ?? '';
  let format = dates.get(key);
  if (!format) dates.set(key, (format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })));
  return format.format(new Date(`${date}T00:00:00Z`));
}

export const BILL_BY_LABEL: Record<string, string> = {
  project: 'Project hourly rate',
  tasks: 'Task hourly rates',
  people: "People's hourly rates",
  none: 'Not billed by the hour',
};

export const BUDGET_BY_LABEL: Record<string, string> = {
  none: 'No budget',
  project: 'Total project hours',
  project_cost: 'Total project cost (internal)',
  task: 'Hours per task',
  task_fees: 'Fees per task',
  person: 'Hours per person',
};
