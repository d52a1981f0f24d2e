import { str } from '../command.ts';
import type { ClientCommand } from './command.ts';
import { grid, show, terminalWidth } from './format.ts';
import { findClient, type Project } from './lookups.ts';

/** `sheaf projects`: the projects the key's user may book on or see (the API's list, by client then name). */
const projects: ClientCommand<{ client?: string; all: boolean }> = {
  name: 'projects',
  usage: '[--client ID|NAME] [--all]',
  summary: 'the active projects you can see, with the codes and names that log, timer start and expenses add take (--all: archived ones too)',
  options: { client: str, all: { type: 'boolean' } },
  parse: (v) => ({ client: v.client, all: Boolean(v.all) }),
  async run({ api, output }, input) {
    const client = await api();
    const owner = input.client ? await findClient(client, input.client) : undefined;
    const list = await client.all<Project & { code: string | null }>('/api/v2/projects', 'projects', {
      is_active: input.all ? undefined : true,
      client_id: owner?.id,
    });
    if (output.json) return show(output, list, () => '');
    const rows = [...list].sort((a, b) => (a.client?.name ?? '').localeCompare(b.client?.name ?? '') || a.name.localeCompare(b.name));
    output.out(
      grid(
        rows,
        [
          { title: 'code', value: (p) => p.code },
          { title: 'project', value: (p) => p.name, shrink: true },
          { title: 'client', value: (p) => p.client?.name },
          ...(input.all ? [{ title: 'active', value: (p: Project) => (p.is_active ? 'yes' : 'no') }] : []),
          { title: 'id', value: (p) => p.id },
        ],
        terminalWidth(output),
      ),
    );
  },
};

export const projectCommands: ClientCommand<any>[] = [projects];
