import type { Choice, RecentPair } from './api.ts';
import { projectLabel } from '../../ui/labels.ts';

/** How a project and task read in the type-ahead and the grid: "Client - Project (code) - Task". */
export const choiceLabel = (c: Pick<Choice, 'client_name' | 'project_name' | 'project_code' | 'task_name'>) =>
  `${c.client_name} - ${projectLabel({ name: c.project_name, code: c.project_code })} - ${c.task_name}`;

export const choiceId = (c: Pick<Choice, 'project_id' | 'task_id'>) => `${c.project_id}/${c.task_id}`;

/** Pairs recently used first (the order of `recent`, most recent first), then the rest as the server sorted them. */
export function recentFirst(choices: Choice[], recent: RecentPair[]): Choice[] {
  if (recent.length === 0) return choices;
  const rank = new Map(recent.map((pair, i) => [choiceId(pair), i]));
  const first = choices.filter((c) => rank.has(choiceId(c))).sort((a, b) => rank.get(choiceId(a))! - rank.get(choiceId(b))!);
  return first.length ? [...first, ...choices.filter((c) => !rank.has(choiceId(c)))] : choices;
}
