import type { GroupBy } from './api.ts';

/** The time report's grouping in the URL (?group_by=project|task|person|client), project by default; names in texts.ts (`groups.*`). */
export const GROUPS: readonly GroupBy[] = ['project', 'task', 'person', 'client'];

export function groupByOf(search: URLSearchParams): GroupBy {
  const value = search.get('group_by');
  return GROUPS.find((g) => g === value) ?? 'project';
}

/** The budget report's project filter (?active=true|false|all): active projects by default, as the API's is_active. */
export function activeOf(search: URLSearchParams): 'true' | 'false' | undefined {
  const value = search.get('active') ?? 'true';
  return value === 'all' ? undefined : value === 'false' ? 'false' : 'true';
}
