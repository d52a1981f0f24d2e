import { operatorPrincipal } from '../access/operator.ts';
import { isId } from '../ids.ts';
import { createEndpoint, deleteEndpoint, EVENT_TYPES, listEndpoints } from '../modules/integrations/webhooks/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { bool, required, workspaceOption } from './options.ts';
import { fields, print, table, UsageError } from './output.ts';

/**
 * `sheaf admin webhook list|create|delete`: the operator's webhook endpoints. They call the
 * web app's service as the operator, so the same checks apply (an http(s) URL at a public
 * address unless WEBHOOK_ALLOW_PRIVATE, known event kinds); an endpoint the operator makes
 * carries the operator's view (everything an administrator sees).
 */

const admin = <T>(c: AdminCommand<T>) => c;

function endpointOption(values: Record<string, string | undefined>): string {
  const ref = required(values, 'endpoint');
  if (!isId(ref)) throw new UsageError(`--endpoint must be a webhook endpoint id (see "sheaf admin webhook list"), not '${ref}'.`);
  return ref;
}

/** `--events` as a comma-separated list; `all` for every kind. Unknown kinds are refused here, naming them. */
function eventsOption(raw: string): string[] {
  const events = raw === 'all' ? [...EVENT_TYPES] : raw.split(',').map((e) => e.trim()).filter(Boolean);
  const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length) throw new UsageError(`--events has unknown event kinds: ${unknown.join(', ')} (known: ${EVENT_TYPES.join(', ')}, or all).`);
  if (events.length === 0) throw new UsageError('--events must name at least one event kind, or all.');
  return events;
}

const commands = [
  admin({
    name: 'admin webhook list',
    usage: '--workspace ID',
    summary: "list the workspace's webhook endpoints (never their secrets)",
    options: { workspace: str },
    parse: (values) => workspaceOption(values),
    async run({ db, output, clock }, id) {
      await requireWorkspace(db, id);
      const endpoints = await listEndpoints(db, operatorPrincipal(id), clock());
      const rows = endpoints.map((e) => ({ ...e, events: e.events.join(','), created_by: e.created_by?.name ?? 'operator' }));
      print(output, endpoints, () => table(rows, ['id', 'url', 'is_active', 'disabled_reason', 'events', 'pending_count', 'failed_count', 'created_by']));
    },
  }),
  admin({
    name: 'admin webhook create',
    usage: '--workspace ID --url URL --events KIND,KIND…|all [--description TEXT] [--active false]',
    summary: 'register a webhook endpoint; prints its signing secret, this once',
    options: { workspace: str, url: str, events: str, description: str, active: str },
    parse: (values) => ({
      id: workspaceOption(values),
      url: required(values, 'url'),
      events: eventsOption(required(values, 'events')),
      description: values.description,
      isActive: bool(values, 'active'),
    }),
    async run({ db, output, clock, webhookAllowPrivate }, input) {
      await requireWorkspace(db, input.id);
      const endpoint = await createEndpoint(
        db,
        operatorPrincipal(input.id),
        { url: input.url, events: input.events, description: input.description ?? null, is_active: input.isActive ?? true },
        { allowPrivate: webhookAllowPrivate },
        clock(),
      );
      print(output, endpoint, () => `${fields({ ...endpoint, events: endpoint.events.join(','), created_by: 'operator' })}\n\nThe secret is shown this once: give it to the receiver now.`);
    },
  }),
  admin({
    name: 'admin webhook delete',
    usage: '--workspace ID --endpoint ID',
    summary: 'delete a webhook endpoint and its delivery log (what it had not been sent is not sent)',
    options: { workspace: str, endpoint: str },
    parse: (values) => ({ id: workspaceOption(values), endpoint: endpointOption(values) }),
    async run({ db, output }, { id, endpoint }) {
      await requireWorkspace(db, id);
      await deleteEndpoint(db, operatorPrincipal(id), endpoint);
      print(output, { deleted: endpoint }, () => `Deleted the webhook endpoint ${endpoint}.`);
    },
  }),
];

/** The webhook commands by name, for the command table of src/cli/main.ts. */
export const webhookCommands: Record<string, AdminCommand<any>> = Object.fromEntries(commands.map((c) => [c.name, c]));
