import type { Choice } from './api.ts';

/** How a project and task read in the type-ahead and the grid: "Client - Project (code) - Task". */
export const choiceLabel = (c: Pick<Choice, 'client_name' | 'project_name' | 'project_code' | 'task_name'>) =>
  `${c.client_name} - ${c.project_name}${c.project_code ? ` (${c.project_code})` : ''} - ${c.task_name}`;

export const choiceId = (c: Pick<Choice, 'project_id' | 'task_id'>) => `${c.project_id}/${c.task_id}`;

/** Pairs recently used first (the order of `recent`, most recent first), then the rest as the server sorted them. */
export function recentFirst(choices: Choice[], recent: string[]): Choice[] {
  const rank = new Map(recent.map((id, i) => [id, i]));
  return [...choices].sort((a, b) => (rank.get(choiceId(a)) ?? Infinity) - (rank.get(choiceId(b)) ?? Infinity));
}
