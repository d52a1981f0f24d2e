import { operatorPrincipal } from '../src/access/operator.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapEmbedded } from '../src/bootstrap.ts';
import { getWorkspace, updateWorkspaceSettings } from '../src/modules/workspace/settings/service.ts';
import { DEFAULT_TASKS, provisionWorkspace } from '../src/provisioning.ts';
import { addMember, createTestContext, request, type Caller, type TestContext } from './helpers.ts';
import { setNow } from './fixtures/catalog.ts';

/**
 * What a new workspace starts with (issue 13, item 11), for the first start and
 * `sheaf admin workspace create` (both through provisionWorkspace; the CLI itself
 * is in cli.test.ts): approvals off, invoicing before approval on, the default
 * tasks, so one person can track and invoice their own time at once.
 */

let ctx: TestContext;
let owner: Caller;

beforeAll(async () => {
  ctx = await createTestContext();
  setNow(ctx.clock, '2026-03-12T12:00:00Z');
  // The first start runs on an empty database: this file's own.
  const first = await bootstrapEmbedded(ctx.db);
  expect(first).not.toBeNull();
  owner = {
    userId: '',
    companyId: first!.workspace_id,
    email: first!.owner_email,
    key: first!.key,
    keyId: first!.key_id,
    headers: { authorization: `Bearer ${first!.key}`, 'service-account-id': first!.workspace_id },
  };
  owner.userId = (await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' })).json().id;
});
afterAll(() => ctx.close());

const api = (caller: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => request(ctx.app, caller, { method, url, payload });

describe('the first-start workspace', () => {
  it('has approvals off, invoicing before approval on, and the default tasks', async () => {
    expect(await getWorkspace(ctx.db, owner.companyId)).toMatchObject({
      name: 'My workspace',
      approvals_enabled: false,
      invoice_before_approval: true,
      allow_past_timer_starts: false,
      week_start: 'monday',
    });
    const tasks = (await api(owner, 'GET', '/api/v2/tasks')).json().tasks;
    expect(tasks.map((t: { name: string }) => t.name).sort()).toEqual(DEFAULT_TASKS.map((t) => t.name).sort());
    expect(tasks.every((t: { is_default: boolean; is_active: boolean }) => t.is_default && t.is_active)).toBe(true);
    expect(tasks.find((t: { name: string }) => t.name === 'Business Development').billable_by_default).toBe(false);
  });

  it('a freelancer invoices their time at once: a project without task_ids has the default tasks; no approval needed, no week locked', async () => {
    const client = (await api(owner, 'POST', '/api/v2/clients', { name: 'Client One' })).json();
    const project = await api(owner, 'POST', '/api/v2/projects', { client_id: client.id, name: 'Website' });
    expect(project.statusCode, project.body).toBe(201);
    const projectTasks = (await api(owner, 'GET', `/api/v2/tasks?project_id=${project.json().id}`)).json();
    expect(projectTasks.total_entries).toBe(DEFAULT_TASKS.length);
    // an empty task_ids still assigns none (the spec's rule)
    const bare = (await api(owner, 'POST', '/api/v2/projects', { client_id: client.id, name: 'Bare', task_ids: [] })).json();
    expect((await api(owner, 'GET', `/api/v2/tasks?project_id=${bare.id}`)).json().total_entries).toBe(0);

    const programming = projectTasks.tasks.find((t: { name: string }) => t.name === 'Programming');
    // no assignment step: the owner records on any active project (and creating it assigned them)
    const entry = await api(owner, 'POST', '/api/v2/time_entries', { project_id: project.json().id, task_id: programming.id, spent_date: '2026-03-10', hours: 3 });
    expect(entry.statusCode, entry.body).toBe(201);
    const invoice = await api(owner, 'POST', '/api/v2/invoices', { client_id: client.id, line_items_import: { time: { summary_type: 'project' } } });
    expect(invoice.statusCode, invoice.body).toBe(201);
    expect(invoice.json().line_items).toHaveLength(1);
    // the week is not locked: more time goes in
    const more = await api(owner, 'POST', '/api/v2/time_entries', { project_id: project.json().id, task_id: programming.id, spent_date: '2026-03-11', hours: 1 });
    expect(more.statusCode, more.body).toBe(201);
    // approvals are off (403), and one setting away
    expect((await api(owner, 'POST', '/api/v2/approvals/submit', { from: '2026-03-09', to: '2026-03-15' })).statusCode).toBe(403);
    await updateWorkspaceSettings(ctx.db, operatorPrincipal(owner.companyId), { approvals_enabled: true });
    expect((await api(owner, 'POST', '/api/v2/approvals/submit', { from: '2026-03-09', to: '2026-03-15' })).json()).toMatchObject({ submitted_count: 1 });
  });

  it('a member of the workspace sees the default tasks too (they track time against them)', async () => {
    const member = await addMember(ctx.db, owner.companyId);
    expect((await api(member, 'GET', '/api/v2/tasks')).json().total_entries).toBe(DEFAULT_TASKS.length);
  });
});

describe('provisionWorkspace (sheaf admin workspace create)', () => {
  it('gives the same defaults, each workspace its own default tasks; explicit settings win', async () => {
    const plain = await provisionWorkspace(ctx.db, { name: 'Plain' });
    expect(plain).toMatchObject({ approvals_enabled: false, invoice_before_approval: true });
    const tasks = await ctx.db.selectFrom('tasks').select(['name', 'is_default']).where('company_id', '=', plain.id).execute();
    expect(tasks).toHaveLength(DEFAULT_TASKS.length);
    expect(tasks.every((t) => t.is_default)).toBe(true);
    const team = await provisionWorkspace(ctx.db, { name: 'Team', approvals_enabled: true, invoice_before_approval: false });
    expect(team).toMatchObject({ approvals_enabled: true, invoice_before_approval: false });
    expect(await ctx.db.selectFrom('tasks').select('id').where('company_id', '=', team.id).execute()).toHaveLength(DEFAULT_TASKS.length);
  });

  it('bad settings create nothing', async () => {
    const before = await ctx.db.selectFrom('companies').select('id').execute();
    await expect(provisionWorkspace(ctx.db, { name: 'Bad', currency: 'ABC' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(await ctx.db.selectFrom('companies').select('id').execute()).toHaveLength(before.length);
  });
});
