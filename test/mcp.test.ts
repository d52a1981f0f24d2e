import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../src/provisioning.ts';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from 'node:net';
import { fetchCaller } from '../src/modules/integrations/mcp/api-caller.ts';
import { createMcpServer } from '../src/modules/integrations/mcp/server.ts';
import { stdioSettings } from '../src/modules/integrations/mcp/stdio.ts';
import { ROOT, runCli } from './cli-runner.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, issueKey, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { assignTask, assignTeammate, assignUser, insertClient, insertProject, insertRate, insertTask, setWorkspace } from './fixtures/catalog.ts';

/**
 * The MCP server (issue 27 item 2) as agents use it: the SDK's own client over
 * Streamable HTTP against a listening server (/mcp) and over stdio (`sheaf mcp`, a
 * process that calls that server's API), and the MCP inspector's CLI. Every tool is
 * an API call with the caller's key, so the API's messages, permissions and 404s
 * come through; what it records carries source "agent".
 */

const run = promisify(execFile);
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const TOOL_NAMES = [
  'draft_invoice',
  'list_people',
  'list_projects',
  'list_tasks',
  'list_time_entries',
  'log_time',
  'record_llm_usage',
  'report_project_budget',
  'report_time_team',
  'report_uninvoiced',
  'start_timer',
  'stop_timer',
  'summarize_week',
];

let ctx: TestContext;
let baseUrl: string;
let owner: Caller;
/** An agent identity with the administrator role: may see rates and draft invoices. */
let agent: Caller;
/** An agent identity with the member role: its key may not read rates or reports. */
let memberAgent: Caller;
let clientId: string;
let projectId: string;
let taskId: string;
let foreign: { project: string; task: string; entry: string; user: string };
const clients: Client[] = [];

/** Today where this process runs: the workspace uses the same zone, so "today" agrees. */
const todayHere = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());

async function httpClient(caller: Caller): Promise<Client> {
  const client = new Client({ name: 'sheaf-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: caller.headers } }));
  clients.push(client);
  return client;
}

async function stdioClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/sheaf.js', 'mcp'],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'sheaf-test-stdio', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const envOf = (caller: Caller) => ({ SHEAF_URL: baseUrl, SHEAF_API_KEY: caller.key, SHEAF_WORKSPACE_ID: caller.companyId });

/** A tool's answer: its JSON on success; the error text otherwise. */
async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { isError: result.isError === true, text, json: result.isError ? undefined : JSON.parse(text) };
}

/** The JSON text of a resource read. */
const resourceText = (read: ReadResourceResult) => {
  const content = read.contents[0];
  return 'text' in content ? content.text : '';
};

/** The API's own answer to the same request, for comparing messages. */
const api = (caller: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  request(ctx.app, caller, { method, url, payload: payload as object });

beforeAll(async () => {
  ctx = await createTestContext();
  const company = await createWorkspace(ctx.db, { name: 'Agents Inc', timezone: ZONE });
  owner = await addMember(ctx.db, company.id, { role: 'owner' });
  agent = await addMember(ctx.db, company.id, { role: 'administrator', userType: 'agent', firstName: 'Claude' });
  memberAgent = await addMember(ctx.db, company.id, { role: 'member', userType: 'agent', firstName: 'Junior' });
  clientId = await insertClient(ctx.db, company.id, 'Globex');
  projectId = await insertProject(ctx.db, company.id, clientId, { name: 'Agent work' });
  taskId = await insertTask(ctx.db, company.id, { name: 'Coding' });
  await assignTask(ctx.db, company.id, projectId, taskId);
  for (const person of [owner, agent, memberAgent]) await assignUser(ctx.db, company.id, projectId, person.userId);
  await insertRate(ctx.db, company.id, { projectId }, '2000-01-01', '120.00');
  // Work is invoiced (and reported as uninvoiced) without waiting for approval.
  await setWorkspace(ctx.db, company.id, { invoice_before_approval: true });

  const { owner: other } = await createWorkspaceWithOwner(ctx.db, 'Elsewhere');
  const otherClient = await insertClient(ctx.db, other.companyId);
  const otherProject = await insertProject(ctx.db, other.companyId, otherClient);
  const otherTask = await insertTask(ctx.db, other.companyId);
  await assignTask(ctx.db, other.companyId, otherProject, otherTask);
  await assignUser(ctx.db, other.companyId, otherProject, other.userId);
  const entry = await api(other, 'POST', '/api/v2/time_entries', { project_id: otherProject, task_id: otherTask, is_running: true });
  foreign = { project: otherProject, task: otherTask, entry: entry.json().id, user: other.userId };

  baseUrl = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await ctx.close();
});

describe('MCP over Streamable HTTP (/mcp)', () => {
  it('lists the tools, each described with its arguments, and the two resources', async () => {
    const client = await httpClient(agent);
    expect(client.getServerVersion()?.name).toBe('sheaf');
    expect(client.getInstructions()).toContain('list_projects');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(60);
      expect(t.inputSchema.type).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(t.name.startsWith('list_') || t.name.startsWith('report_') || t.name === 'summarize_week');
    }
    const log = tools.find((t) => t.name === 'log_time')!;
    expect(log.inputSchema.required).toEqual(expect.arrayContaining(['project_id', 'task_id', 'spent_date']));
    expect(log.inputSchema.additionalProperties).toBe(false);
    // per_page's default as the API has it: 100 for lists, 2000 (the largest) for reports.
    const perPage = (name: string) => (tools.find((t) => t.name === name)!.inputSchema.properties!.per_page as { description: string }).description;
    for (const name of ['report_uninvoiced', 'report_project_budget', 'report_time_team']) expect(perPage(name), name).toBe('Rows per page (default and at most 2000).');
    expect(perPage('list_time_entries')).toBe('Records per page (default 100, at most 2000).');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['sheaf://projects', 'sheaf://week/current']);
  });

  it('runs every tool once as an agent; what it records carries source "agent"', async () => {
    const client = await httpClient(agent);
    const today = todayHere();

    const projects = await callTool(client, 'list_projects', { is_active: true });
    expect(projects.isError).toBe(false);
    const project = projects.json.projects.find((p: { id: string }) => p.id === projectId);
    expect(project).toMatchObject({ name: 'Agent work', client: { id: clientId, name: 'Globex' }, hourly_rate: 120 });

    const tasks = await callTool(client, 'list_tasks', { project_id: projectId });
    expect(tasks.json.tasks.map((t: { id: string }) => t.id)).toEqual([taskId]);

    const started = await callTool(client, 'start_timer', { project_id: projectId, task_id: taskId, notes: 'Refactoring' });
    expect(started.isError, started.text).toBe(false);
    expect(started.json).toMatchObject({ is_running: true, source: 'agent', user_id: agent.userId, notes: 'Refactoring' });
    // A second timer without replace_running: the API's 409 with the entry that runs.
    const twice = await callTool(client, 'start_timer', { project_id: projectId, task_id: taskId });
    expect(twice.isError).toBe(true);
    expect(twice.text).toContain('HTTP 409 running_timer_conflict');
    expect(twice.text).toContain(started.json.id);

    const stopped = await callTool(client, 'stop_timer', {});
    expect(stopped.json).toMatchObject({ id: started.json.id, is_running: false, source: 'agent' });
    const none = await callTool(client, 'stop_timer', {});
    expect(none).toMatchObject({ isError: true, text: 'No timer of yours is running: start one with start_timer.' });

    const logged = await callTool(client, 'log_time', {
      project_id: projectId,
      task_id: taskId,
      spent_date: today,
      hours: 1.5,
      notes: 'Wrote the tests',
      metadata: { run: 'r-1' },
    });
    expect(logged.isError, logged.text).toBe(false);
    expect(logged.json).toMatchObject({ hours: 1.5, source: 'agent', spent_date: today, metadata: { run: 'r-1' }, is_running: false });

    const usage = await callTool(client, 'record_llm_usage', { project_id: projectId, model: 'claude-sonnet-4', cost: 0.42, input_tokens: 12000, output_tokens: 800 });
    expect(usage.isError, usage.text).toBe(false);
    expect(usage.json).toMatchObject({
      total_cost: 0.42,
      source: 'agent',
      spent_date: today,
      notes: 'claude-sonnet-4: 12000 input + 800 output tokens',
      metadata: { model: 'claude-sonnet-4', input_tokens: 12000, output_tokens: 800 },
    });
    const categories = await api(owner, 'GET', '/api/v2/expense_categories');
    const llm = categories.json().expense_categories.find((c: { name: string }) => c.name === 'LLM usage');
    expect(usage.json.expense_category?.id ?? usage.json.expense_category_id).toBe(llm.id);

    // As the API lists them for the owner: both entries and the expense are the agent's.
    const entries = await api(owner, 'GET', `/api/v2/time_entries?user_id=${agent.userId}`);
    expect(entries.json().time_entries.map((e: { source: string }) => e.source)).toEqual(['agent', 'agent']);
    const expenses = await api(owner, 'GET', `/api/v2/expenses?user_id=${agent.userId}`);
    expect(expenses.json().expenses.map((e: { source: string }) => e.source)).toEqual(['agent']);

    const listed = await callTool(client, 'list_time_entries', { source: 'agent', from: today, to: today });
    expect(listed.json.total_entries).toBe(2);

    const week = await callTool(client, 'summarize_week', {});
    expect(week.isError, week.text).toBe(false);
    const timerHours = stopped.json.hours as number;
    expect(week.json).toMatchObject({ user_id: agent.userId, entry_count: 2, running_timers: 0, billable_hours: week.json.hours, non_billable_hours: 0 });
    expect(week.json.hours).toBeCloseTo(1.5 + timerHours, 6);
    expect(week.json.days).toHaveLength(7);
    expect(week.json.days.find((d: { date: string }) => d.date === today).hours).toBe(week.json.hours);
    expect(week.json.projects).toEqual([{ project_id: projectId, project_name: 'Agent work', client_name: 'Globex', hours: week.json.hours, billable_hours: week.json.hours, non_billable_hours: 0 }]);
    expect(week.json.from <= today && today <= week.json.to).toBe(true);

    const uninvoiced = await callTool(client, 'report_uninvoiced', { from: today, to: today });
    expect(uninvoiced.isError, uninvoiced.text).toBe(false);
    expect(uninvoiced.json.results).toEqual([expect.objectContaining({ project_id: projectId, uninvoiced_expenses: 0.42 })]);
    const budget = await callTool(client, 'report_project_budget', {});
    expect(budget.json.results.map((r: { project_id: string }) => r.project_id)).toContain(projectId);
    const team = await callTool(client, 'report_time_team', { from: today, to: today });
    expect(team.json.results.find((r: { user_id: string }) => r.user_id === agent.userId)).toMatchObject({ currency: expect.any(String) });

    const invoice = await callTool(client, 'draft_invoice', { client_id: clientId, subject: 'Agent work' });
    expect(invoice.isError, invoice.text).toBe(false);
    expect(invoice.json).toMatchObject({ state: 'draft', subject: 'Agent work', client: { id: clientId } });
    expect(invoice.json.line_items.length).toBeGreaterThanOrEqual(2);
    // The work is billed now: a second draft finds nothing, in the API's words.
    const billed = await api(owner, 'GET', `/api/v2/time_entries?user_id=${agent.userId}&is_billed=true`);
    expect(billed.json().total_entries).toBe(2);
    const again = await callTool(client, 'draft_invoice', { client_id: clientId });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/^HTTP 4\d\d /);
  });

  it('reads the resources: the projects and the current week', async () => {
    const client = await httpClient(agent);
    const projects = await client.readResource({ uri: 'sheaf://projects' });
    expect(JSON.parse(resourceText(projects)).projects.map((p: { id: string }) => p.id)).toContain(projectId);
    const week = await client.readResource({ uri: 'sheaf://week/current' });
    const body = JSON.parse(resourceText(week));
    expect(body).toMatchObject({ user_id: agent.userId, entry_count: 2 });
    expect(body.entries.every((e: { source: string; user_id: string }) => e.source === 'agent' && e.user_id === agent.userId)).toBe(true);
  });

  it("refuses a member's agent what the API refuses a member: rates redacted, reports and invoices refused", async () => {
    const client = await httpClient(memberAgent);
    const projects = await callTool(client, 'list_projects', {});
    const project = projects.json.projects.find((p: { id: string }) => p.id === projectId);
    expect(project.name).toBe('Agent work');
    expect(project).not.toHaveProperty('hourly_rate');
    expect(project).not.toHaveProperty('fee');
    for (const [tool, args] of [
      ['report_uninvoiced', { from: todayHere(), to: todayHere() }],
      ['report_project_budget', {}],
      ['report_time_team', { from: todayHere(), to: todayHere() }],
      ['draft_invoice', { client_id: clientId }],
    ] as const) {
      const refused = await callTool(client, tool, args);
      expect(refused.isError, tool).toBe(true);
      expect(refused.text, tool).toMatch(/^HTTP 403 forbidden: /);
    }
    const direct = await api(memberAgent, 'GET', `/api/v2/reports/uninvoiced?from=${todayHere()}&to=${todayHere()}`);
    expect((await callTool(client, 'report_uninvoiced', { from: todayHere(), to: todayHere() })).text).toContain(direct.json().message);
    // Its own time it may log, and it sees no one else's.
    const logged = await callTool(client, 'log_time', { project_id: projectId, task_id: taskId, spent_date: todayHere(), hours: 0.25 });
    expect(logged.json).toMatchObject({ source: 'agent', user_id: memberAgent.userId });
    const listed = await callTool(client, 'list_time_entries', {});
    expect(listed.json.time_entries.map((e: { user_id: string }) => e.user_id)).toEqual([memberAgent.userId]);
    // Another person's week is refused, never an empty week of 0 hours.
    const others = await callTool(client, 'summarize_week', { user_id: agent.userId });
    expect(others).toMatchObject({ isError: true, text: 'You may read only your own time: leave user_id out (or give your own id).' });
  });

  it("refuses a week it would see only in part: a manager's non-teammate, a member's colleague; list_people names them", async () => {
    const company = owner.companyId;
    const manager = await addMember(ctx.db, company, { role: 'manager', userType: 'agent', firstName: 'Manny' });
    const teammate = await addMember(ctx.db, company, { role: 'member', firstName: 'Tess' });
    const outsider = await addMember(ctx.db, company, { role: 'member', firstName: 'Ivan', lastName: 'Outside' });
    await assignTeammate(ctx.db, company, manager.userId, teammate.userId);
    const managed = await insertProject(ctx.db, company, clientId, { name: 'Managed' });
    const secret = await insertProject(ctx.db, company, clientId, { name: 'Secret' });
    for (const p of [managed, secret]) await assignTask(ctx.db, company, p, taskId);
    await assignUser(ctx.db, company, managed, manager.userId, { manager: true });
    for (const person of [teammate, outsider]) await assignUser(ctx.db, company, managed, person.userId);
    await assignUser(ctx.db, company, secret, outsider.userId);
    const day = todayHere();
    for (const [person, project, hours] of [[teammate, managed, 2], [outsider, managed, 4], [outsider, secret, 6]] as const) {
      expect((await api(owner, 'POST', '/api/v2/time_entries', { project_id: project, task_id: taskId, spent_date: day, hours, user_id: person.userId })).statusCode).toBe(201);
    }
    const client = await httpClient(manager);
    // The outsider's week as the manager sees it would be 4 of their 10 hours: refused, saying why.
    const partial = await callTool(client, 'summarize_week', { user_id: outsider.userId });
    expect(partial).toMatchObject({ isError: true });
    expect(partial.text).toBe(
      'Ivan Outside is not your teammate: you see their time only on the projects you manage, so this would not be their week. Use list_time_entries with user_id and project_id for a project you manage.',
    );
    // A teammate's week is whole; the outsider's hours on the managed project are listed.
    const team = await callTool(client, 'summarize_week', { user_id: teammate.userId });
    expect(team.json).toMatchObject({ user_id: teammate.userId, hours: 2 });
    const listed = await callTool(client, 'list_time_entries', { user_id: outsider.userId, project_id: managed });
    expect(listed.json.time_entries.map((e: { hours: number }) => e.hours)).toEqual([4]);
    // An administrator reads the outsider's whole week.
    const whole = await callTool(await httpClient(agent), 'summarize_week', { user_id: outsider.userId });
    expect(whole.json).toMatchObject({ hours: 10 });
    // A member may name nobody else, in a week or a list.
    const member = await httpClient(memberAgent);
    for (const tool of ['summarize_week', 'list_time_entries']) {
      expect(await callTool(member, tool, { user_id: teammate.userId }), tool).toEqual({
        isError: true,
        text: 'You may read only your own time: leave user_id out (or give your own id).',
        json: undefined,
      });
    }
    // Whom the ids belong to: list_people, the API's users list as the caller sees it.
    const people = await callTool(member, 'list_people', { is_active: true });
    const direct = await api(memberAgent, 'GET', '/api/v2/users?is_active=true&page=1');
    expect(people.json).toEqual(direct.json());
    expect(people.json.users.map((u: { first_name: string }) => u.first_name)).toContain('Ivan');
  });

  it("answers bad arguments with the API's own message and field", async () => {
    const client = await httpClient(agent);
    for (const body of [
      { project_id: projectId, task_id: taskId, spent_date: '2026-02-30', hours: 1 },
      { project_id: projectId, task_id: taskId, spent_date: todayHere(), hours: -2 },
      { project_id: projectId, task_id: taskId, spent_date: todayHere(), started_time: '25:00', ended_time: '26:00' },
    ]) {
      const direct = await api(agent, 'POST', '/api/v2/time_entries', { ...body, source: 'agent' });
      expect(direct.statusCode).toBe(400);
      const tool = await callTool(client, 'log_time', body);
      expect(tool.isError).toBe(true);
      expect(tool.text).toContain(`HTTP 400 ${direct.json().error}: ${direct.json().message}`);
      if (direct.json().field) expect(tool.text).toContain(`(field: ${direct.json().field})`);
    }
    const expense = await callTool(client, 'record_llm_usage', { project_id: projectId, model: 'm', cost: 0.123 });
    expect(expense.isError).toBe(true);
    expect(expense.text).toMatch(/^HTTP 400 .*\(field: total_cost\)/);
    // The tool's argument is named too where the API's field has another name.
    expect(expense.text).toMatch(/\nArgument: cost$/);
    // An empty model name would be an expense that says nothing of what it cost for.
    const nameless = await callTool(client, 'record_llm_usage', { project_id: projectId, model: '', cost: 1 });
    expect(nameless.isError).toBe(true);
    expect(nameless.text).toContain('model');
    const report = await callTool(client, 'report_uninvoiced', { from: '2026-01-01', to: '2027-06-01' });
    expect(report.text).toMatch(/^HTTP 400 /);
    // Arguments the tool does not have: refused by the tool's schema before any call.
    const misspelt = (await client.callTool({ name: 'log_time', arguments: { project_id: projectId, task_id: taskId, spent_date: todayHere(), hour: 1 } })) as CallToolResult;
    expect(misspelt.isError).toBe(true);
    expect(JSON.stringify(misspelt.content)).toContain('hour');
    const week = await callTool(client, 'summarize_week', { date: 'last week' });
    expect(week).toMatchObject({ isError: true, text: "date must be a day as YYYY-MM-DD, not 'last week'." });
  });

  it("counts today and the week as the workspace does (its zone, its first day), unless the agent names them", async () => {
    const atoll = await createWorkspace(ctx.db, { name: 'Atoll', timezone: 'Pacific/Kiritimati', week_start: 'sunday' });
    const farAgent = await addMember(ctx.db, atoll.id, { role: 'administrator', userType: 'agent' });
    const client = await httpClient(farAgent);
    const kiritimati = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    const before = kiritimati();
    const week = await callTool(client, 'summarize_week', {});
    expect(week.isError, week.text).toBe(false);
    expect(new Date(`${week.json.from}T00:00:00Z`).getUTCDay()).toBe(0);
    const today = [before, kiritimati()].find((d) => week.json.from <= d && d <= week.json.to);
    expect(today).toBeDefined();
    const resource = JSON.parse(resourceText(await client.readResource({ uri: 'sheaf://week/current' })));
    expect(resource.from).toBe(week.json.from);
    // What the agent names wins: Monday weeks, a day of its choosing.
    const named = await callTool(client, 'summarize_week', { date: '2026-11-04', week_start: 'monday' });
    expect(named.json).toMatchObject({ from: '2026-11-02', to: '2026-11-08' });
    expect((await callTool(client, 'summarize_week', { date: '2026-11-04' })).json).toMatchObject({ from: '2026-11-01', to: '2026-11-07' });
  });

  it("gives another workspace's ids the API's not found", async () => {
    const client = await httpClient(agent);
    // A week of nobody, or of someone in another workspace: not found, not 0 hours.
    for (const userId of ['01a00000-0000-7000-8000-000000000000', foreign.user]) {
      const week = await callTool(client, 'summarize_week', { user_id: userId });
      expect(week, userId).toMatchObject({ isError: true, text: `Not found: no person with user_id '${userId}' in this workspace that you can see (field: user_id).` });
    }
    const ownersWeek = await callTool(client, 'summarize_week', { user_id: owner.userId });
    expect(ownersWeek.json).toMatchObject({ user_id: owner.userId });
    const stop = await callTool(client, 'stop_timer', { time_entry_id: foreign.entry });
    expect(stop.isError).toBe(true);
    expect(stop.text).toMatch(/^HTTP 404 not_found: /);
    const direct = await api(agent, 'POST', '/api/v2/time_entries', { project_id: foreign.project, task_id: foreign.task, spent_date: todayHere(), hours: 1 });
    const log = await callTool(client, 'log_time', { project_id: foreign.project, task_id: foreign.task, spent_date: todayHere(), hours: 1 });
    expect(log.text).toContain(direct.json().message);
    expect(log.text).toMatch(/^HTTP (404|400) /);
    const tasks = await callTool(client, 'list_tasks', { project_id: foreign.project });
    expect(tasks.text).toMatch(/^HTTP 404 not_found: /);
    // An id cannot step to another route.
    const traversal = await callTool(client, 'stop_timer', { time_entry_id: '../../invoices' });
    expect(traversal.text).toMatch(/^HTTP 404 not_found: /);
  });

  it('answers 401 without a key, 403 to a personal sync key and to a browser session, 405 to GET; the API calls of its tools count against the rate limit', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anonymous = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: 'unauthorized' });
    const personal = await issueKey(ctx.db, agent.companyId, owner.userId, owner.email, 'personal');
    const refused = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { ...headers, ...personal.headers }, body: JSON.stringify(init) });
    expect(refused.status).toBe(403);
    const session = await sessionFor(ctx.db, owner);
    const browser = await request(ctx.app, session, { method: 'POST', url: '/mcp', headers: { ...headers, origin: 'http://localhost' }, payload: init });
    expect(browser.statusCode).toBe(403);
    const get = await fetch(`${baseUrl}/mcp`, { headers: { ...agent.headers, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');

    const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['ratelimit-remaining']);
    const before = remaining(await api(agent, 'GET', '/api/v2/users/me'));
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'summarize_week', arguments: {} } };
    const mcp = await request(ctx.app, agent, { method: 'POST', url: '/mcp', headers, payload: call });
    expect(mcp.statusCode).toBe(200);
    expect(mcp.json().result.isError).toBeUndefined();
    // The /mcp request counts once as it arrives; then each of summarize_week's three or more API calls counts too.
    expect(remaining(mcp)).toBe(before - 1);
    expect(remaining(await api(agent, 'GET', '/api/v2/users/me'))).toBeLessThanOrEqual(before - 5);
  });

  it('a batch of tool calls in one message cannot pass the rate limit: each API call counts', async () => {
    const limited = await createTestContext({ env: { RATE_LIMIT_MAX: '10' } });
    try {
      const company = await createWorkspace(limited.db, { name: 'Limited', timezone: ZONE });
      const bot = await addMember(limited.db, company.id, { role: 'administrator', userType: 'agent', firstName: 'Bot' });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const batch = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'list_time_entries', arguments: {} } }));
      const res = await request(limited.app, bot, { method: 'POST', url: '/mcp', headers, payload: batch as never });
      expect(res.statusCode).toBe(200);
      const results = res.json() as Array<{ result: { isError?: boolean; content: Array<{ text: string }> } }>;
      expect(results).toHaveLength(20);
      // Nine calls fit in the window beside the /mcp request itself; the rest are refused, as the API refuses them.
      expect(results.filter((r) => !r.result.isError)).toHaveLength(9);
      expect(results.filter((r) => r.result.isError).every((r) => /rate limit/i.test(r.result.content[0]!.text))).toBe(true);
      expect((await request(limited.app, bot, { method: 'GET', url: '/api/v2/users/me' })).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('passes the MCP inspector CLI (tools/list, tools/call)', async () => {
    // Run from its build folder: it finds its own package.json relative to the working directory.
    const inspector = (...args: string[]) =>
      run(process.execPath, [
        'index.js',
        `${baseUrl}/mcp`,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${agent.key}`,
        '--header',
        `Service-Account-Id: ${agent.companyId}`,
        ...args,
      ], { cwd: `${ROOT}/node_modules/@modelcontextprotocol/inspector-cli/build` });
    const tools = JSON.parse((await inspector('--method', 'tools/list')).stdout);
    expect(tools.tools.map((t: { name: string }) => t.name).sort()).toEqual(TOOL_NAMES);
    const call = JSON.parse((await inspector('--method', 'tools/call', '--tool-name', 'list_tasks', '--tool-arg', `project_id=${projectId}`)).stdout);
    expect(call.isError ?? false).toBe(false);
    expect(JSON.parse(call.content[0].text).tasks[0].id).toBe(taskId);
  }, 120_000);
});

describe('MCP over stdio (sheaf mcp)', () => {
  it('serves the same tools through the API of SHEAF_URL, never the database', async () => {
    const client = await stdioClient(envOf(agent));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    const logged = await callTool(client, 'log_time', { project_id: projectId, task_id: taskId, spent_date: todayHere(), hours: 0.5, notes: 'via stdio' });
    expect(logged.isError, logged.text).toBe(false);
    expect(logged.json).toMatchObject({ source: 'agent', user_id: agent.userId, notes: 'via stdio' });
    const row = await ctx.db.selectFrom('time_entries').select(['source', 'user_id']).where('id', '=', logged.json.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ source: 'agent', user_id: agent.userId });
    const bad = await callTool(client, 'log_time', { project_id: projectId, task_id: taskId, spent_date: '2026-02-30', hours: 1 });
    const direct = await api(agent, 'POST', '/api/v2/time_entries', { project_id: projectId, task_id: taskId, spent_date: '2026-02-30', hours: 1 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain(direct.json().message);
    const foreignStop = await callTool(client, 'stop_timer', { time_entry_id: foreign.entry });
    expect(foreignStop.text).toMatch(/^HTTP 404 not_found: /);
    const week = await client.readResource({ uri: 'sheaf://week/current' });
    expect(JSON.parse(resourceText(week)).user_id).toBe(agent.userId);
    // A process of its own: `sheaf mcp` starts as every `sheaf` command does (seconds on a busy machine).
  }, 120_000);

  it('says what failed when the server cannot be used: a wrong key (401), nothing listening, a wrong path', async () => {
    // The fetch caller of `sheaf mcp`, in this process (a process per case would cost seconds each).
    const connect = async (url: string, key = agent.key) => {
      const server = createMcpServer({ api: fetchCaller({ baseUrl: url, apiKey: key, workspaceId: agent.companyId }) });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'sheaf-test-memory', version: '1.0.0' });
      await client.connect(clientSide);
      clients.push(client);
      return client;
    };
    const wrongKey = await callTool(await connect(baseUrl, `${agent.key.slice(0, -4)}zzzz`), 'list_projects', {});
    expect(wrongKey).toMatchObject({ isError: true, text: 'HTTP 401 unauthorized: The API key or workspace id is not valid.' });
    const closed = await closedPort();
    const nowhere = await callTool(await connect(`http://127.0.0.1:${closed}`), 'list_projects', {});
    expect(nowhere).toMatchObject({
      isError: true,
      text: `Could not reach the Sheaf server at http://127.0.0.1:${closed}: connection refused (is the server running, and is the port right?).`,
    });
    const html = await callTool(await connect(`${baseUrl}/nothing-here`), 'list_projects', {});
    expect(html.isError).toBe(true);
    expect(html.text).toMatch(/^HTTP 404 /);
  });

  it('without a key, exits 2 saying which variables to set and where a key comes from', async () => {
    const result = await runCli(['mcp'], { env: { SHEAF_URL: baseUrl } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Set SHEAF_API_KEY, SHEAF_WORKSPACE_ID.');
    expect(result.stderr).toContain('Settings, API and Developers');
    expect(result.stdout).toBe('');
  });

  it('takes SHEAF_URL with the API base (/api/v2) as the server; one without http:// is exit 2 saying what to write', async () => {
    const keys = { SHEAF_API_KEY: 'k', SHEAF_WORKSPACE_ID: 'w' };
    expect(stdioSettings({ ...keys, SHEAF_URL: 'https://sheaf.example.com/api/v2/' })).toMatchObject({ baseUrl: 'https://sheaf.example.com' });
    const bare = await runCli(['mcp'], { env: { ...keys, SHEAF_URL: '127.0.0.1:18183' } });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("SHEAF_URL must be an http:// or https:// URL, not '127.0.0.1:18183' (did you mean http://127.0.0.1:18183?).");
  });
});
