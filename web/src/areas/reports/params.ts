import type { GroupBy } from './api.ts';

/** The time report's grouping in the URL (?group_by=project|task|person|client), project by default. */
export const GROUPS: Array<{ id: GroupBy; label: string }> = [
  { id: 'project', label: 'Project' },
  { id: 'task', label: 'Task' },
  { id: 'person', label: 'Person' },
  { id: 'client', label: 'Client' },
];

export function groupByOf(search: URLSearchParams): GroupBy {
  const value = search.get('group_by');
  return GROUPS.find((g) => g.id === value)?.id ?? 'project';
}

/** The budget report's project filter (?active=true|false|all): active projects by default, as the API's is_active. */
export function activeOf(search: URLSearchParams): 'true' | 'false' | undefined {
  const value = search.get('active') ?? 'true';
  return value === 'all' ? undefined : value === 'false' ? 'false' : 'true';
}
