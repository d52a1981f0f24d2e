import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Unreachable, type ApiCaller } from './api-caller.ts';
import { ApiRefusal, ToolRefusal, allPages } from './calls.ts';
import { TOOLS, weekOf } from './tools.ts';

/**
 * Sheaf's MCP server, transport-agnostic: every tool and resource reads and writes
 * through `api` (src/modules/integrations/mcp/api-caller.ts). /mcp builds one per
 * request (stateless); `sheaf mcp` builds one for its stdio session.
 */

const VERSION = (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const INSTRUCTIONS = `Sheaf tracks time, expenses and invoices. You act as the person or agent whose API key this is, with exactly their permissions.
Find ids first: list_projects (with each project's client), then list_tasks with project_id (time needs a task assigned to its project).
Record work with log_time (completed) or start_timer/stop_timer; record model costs with record_llm_usage. Everything you record is marked source "agent".
summarize_week and the sheaf://week/current resource show a week's hours; the report_* tools and draft_invoice need a role that may see rates and invoices.
A refused call is an error whose text is Sheaf's own message (and the field it concerns): correct the argument and retry, or tell the user.`;

export interface McpServerOptions {
  api: ApiCaller;
  now?: () => Date;
}

/** An error a person or agent can act on: shown as the tool's error result, not as a failure of the server. */
const expected = (err: unknown): err is Error => err instanceof ApiRefusal || err instanceof ToolRefusal || err instanceof Unreachable || err instanceof RangeError;

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The API names its own field; where the tool's argument has another name, the refusal says which to correct. */
function argumentNote(err: Error, argumentOf: Record<string, string> | undefined): string {
  const field = err instanceof ApiRefusal ? (err.answer.body as { field?: unknown } | null)?.field : undefined;
  const argument = typeof field === 'string' ? argumentOf?.[field] : undefined;
  return argument ? `\nArgument: ${argument}` : '';
}

export function createMcpServer({ api, now = () => new Date() }: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'sheaf', title: 'Sheaf', version: VERSION }, { instructions: INSTRUCTIONS });
  const ctx = { api, now };

  for (const t of TOOLS) {
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: t.input,
        annotations: { title: t.title, readOnlyHint: t.readOnly, destructiveHint: false, idempotentHint: t.readOnly, openWorldHint: false },
      },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          return { content: [{ type: 'text', text: json(await t.run(ctx, args as never)) }] };
        } catch (err) {
          if (expected(err)) return { isError: true, content: [{ type: 'text', text: err.message + argumentNote(err, t.argumentOf) }] };
          throw err;
        }
      },
    );
  }

  server.registerResource(
    'projects',
    'sheaf://projects',
    {
      title: 'Projects',
      description: 'The projects of the workspace you may see (active and archived), with their clients; rates and budgets only where your role may see them.',
      mimeType: 'application/json',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: json({ projects: await allPages(api, '/projects', 'projects') }) }] }),
  );

  server.registerResource(
    'current-week',
    'sheaf://week/current',
    {
      title: 'Your current week',
      description:
        "Your time entries of this week (as your workspace counts weeks: from its first day, today in its time zone) with their sums per day and per project, billable and not. For another week, person or week start use summarize_week.",
      mimeType: 'application/json',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: json(await weekOf(api, now(), {})) }] }),
  );

  return server;
}
