import { UsageError } from '../output.ts';
import { ApiRefusal, type ApiClient } from './http.ts';

/**
 * Records named the way a person names them: a project by id, code or name, a
 * task by id or name among the project's tasks, a client or an expense
 * category by id or name. Names match case-insensitively, exactly or as the
 * only record that starts with what was typed; more than one match is a usage
 * error listing them. Lookups read the lists the key may see, so they never
 * reach further than the API does.
 */

interface Named {
  id: string;
  name: string;
  code?: string | null;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "project" → "projects", "expense category" → "expense categories". */
const plural = (noun: string) => (/[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`);

/** A name as it is matched: without case or accents ("cafe" finds "Café Zürich", as the web app's pickers do). */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function pick<T extends Named>(items: T[], typed: string, what: string, option: string): T {
  const needle = folded(typed.trim());
  const byId = items.find((i) => i.id === typed);
  if (byId) return byId;
  const exact = items.filter((i) => folded(i.name) === needle || (i.code != null && folded(i.code) === needle));
  if (exact.length === 1) return exact[0];
  const prefix = exact.length ? exact : items.filter((i) => folded(i.name).startsWith(needle) || (i.code != null && folded(i.code).startsWith(needle)));
  if (prefix.length === 1) return prefix[0];
  const label = (i: T) => `${i.code ? `[${i.code}] ` : ''}${i.name} (${i.id})`;
  if (prefix.length > 1) throw new UsageError(`${option} '${typed}' matches ${prefix.length} ${plural(what)}: ${prefix.slice(0, 8).map(label).join('; ')}. Give more of the name, the code or the id.`);
  // Not found (exit 3), as the same record's id and an unknown person are; several matches above are bad input (exit 2).
  throw new ApiRefusal(404, 'not_found', `No ${what} '${typed}' that you can see${items.length ? ` (there are: ${items.slice(0, 8).map(label).join('; ')}${items.length > 8 ? '; …' : ''})` : ''}.`);
}

export interface Me {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  roles: string[];
  user_type?: string;
  company?: { id: string; name: string };
}

export const me = (api: ApiClient) => api.get<Me>('/api/v2/users/me');

/**
 * A person as --user names them: an id as it is, an e-mail address (any case)
 * as the member who has it, the way the admin commands take ID|EMAIL. The key's
 * own address is answered by users/me; others come from the users list, which
 * shows e-mail addresses to owners, administrators and managers only (members
 * see their own entries only anyway). Nobody with it is exit 3.
 */
export const isUserRef = (typed: string) => ID.test(typed) || /^[^\s@]+@[^\s@]+$/.test(typed.trim());

export async function findUserId(api: ApiClient, typed: string, option: string): Promise<string> {
  if (ID.test(typed)) return typed;
  const email = typed.trim().toLowerCase();
  const self = await me(api);
  if (self.email.toLowerCase() === email) return self.id;
  const users = await api.all<{ id: string; email?: string }>('/api/v2/users', 'users');
  const found = users.find((u) => u.email?.toLowerCase() === email);
  if (!found) throw new ApiRefusal(404, 'not_found', `${option}: nobody with the e-mail address '${typed}' in this workspace that you can see.`);
  return found.id;
}

export interface Project extends Named {
  client?: { id: string; name: string; currency?: string | null } | null;
  is_active: boolean;
}

/** An active project by id (any the key can read, also archived), code or name. */
export async function findProject(api: ApiClient, typed: string): Promise<Project> {
  if (ID.test(typed)) return api.get<Project>(`/api/v2/projects/${typed}`);
  return pick(await api.all<Project>('/api/v2/projects', 'projects', { is_active: true }), typed, 'project', '--project');
}

/** The task to book on: the one named, or the project's only task. */
export async function findTask(api: ApiClient, projectId: string, typed: string | undefined): Promise<Named> {
  const tasks = await api.all<Named>('/api/v2/tasks', 'tasks', { project_id: projectId, is_active: true });
  if (typed) return pick(tasks, typed, 'task', '--task');
  if (tasks.length === 1) return tasks[0];
  throw new UsageError(
    tasks.length ? `--task is required: the project has ${tasks.length} tasks (${tasks.map((t) => t.name).join(', ')}).` : 'The project has no active tasks to book time on.',
  );
}

export async function findClient(api: ApiClient, typed: string): Promise<Named & { currency?: string }> {
  if (ID.test(typed)) return api.get(`/api/v2/clients/${typed}`);
  return pick(await api.all<Named>('/api/v2/clients', 'clients', { is_active: true }), typed, 'client', '--client');
}

export async function findCategory(api: ApiClient, typed: string): Promise<Named> {
  return pick(await api.all<Named>('/api/v2/expense_categories', 'expense_categories', { is_active: true }), typed, 'expense category', '--category');
}
