import { isDate } from '../../ui/dates.ts';
import type { SheetFilter } from './api.ts';

/**
 * The list's filters live in the URL (/expenses?from=…&to=…&project_id=…&expense_category_id=…&user=…&page=2; `user` is
 * someone else's list, for managers and administrators),
 * so a filtered list survives a reload and can be shared. Unknown or malformed values are dropped
 * here rather than sent (the server would refuse them with a 400).
 */
const ID = /^[0-9a-f-]{36}$/i;

export function filterOf(params: URLSearchParams): SheetFilter {
  const filter: SheetFilter = {};
  const from = params.get('from');
  const to = params.get('to');
  if (isDate(from)) filter.from = from;
  if (isDate(to) && !(filter.from && to < filter.from)) filter.to = to;
  const project = params.get('project_id');
  if (project && ID.test(project)) filter.project_id = project;
  const user = params.get('user');
  if (user && ID.test(user)) filter.user_id = user;
  const category = params.get('expense_category_id');
  if (category && ID.test(category)) filter.expense_category_id = category;
  const page = Number(params.get('page'));
  if (Number.isInteger(page) && page > 1) filter.page = page;
  return filter;
}

/** The URL query of a filter (page 1 is the default and left out). */
export function searchOf(filter: SheetFilter): string {
  const params = new URLSearchParams();
  for (const name of ['from', 'to', 'project_id', 'expense_category_id'] as const) {
    if (filter[name]) params.set(name, filter[name]);
  }
  if (filter.user_id) params.set('user', filter.user_id);
  if (filter.page && filter.page > 1) params.set('page', String(filter.page));
  const text = params.toString();
  return text ? `?${text}` : '';
}
