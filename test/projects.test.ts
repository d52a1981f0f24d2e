import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf } from '../src/http/etag.ts';
import { newId } from '../src/ids.ts';
import { withTenant } from '../src/db/tenant.ts';
import { rateOn } from '../src/modules/catalog/rates/service.ts';
import { createMember, updateMember } from '../src/modules/people/users/service.ts';
import { addMember, createTestContext, type Caller, type TestContext } from './helpers.ts';
import {
  addDays,
  apiOf,
  assign,
  insertClient,
  insertProjectRow,
  insertTask,
  makeProjectWorkspace,
  uniqueName,
  workspaceTodayOf,
  type ProjectWorkspace,
} from './fixtures/projects.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

/**
 * Projects: every rule of the spec's Project sections and issue 3 for every
 * identity of the permissions table, including what is NOT in each response.
 * Clients and tasks are inserted directly (their APIs are built separately).
 */

const BASE_FIELDS = [
  'id',
  'name',
  'code',
  'notes',
  'is_active',
  'client',
  'owner_id',
  'owner',
  'is_billable',
  'bill_by',
  'is_fixed_fee',
  'budget_by',
  'budget_is_monthly',
  'show_budget_to_all',
  'notify_when_over_budget',
  'over_budget_notification_percentage',
  'starts_on',
  'ends_on',
  'created_at',
  'updated_at',
];
const RATE_FIELDS = ['hourly_rate', 'hourly_rate_effective_from', 'fee'];
const COST_FIELDS = ['cost_budget'];
const BUDGET_FIELDS = ['budget'];
const DIRECTORY_FIELDS = ['id', 'name', 'code', 'is_active', 'owner_id', 'owner', 'client'].sort();
const sorted = (keys: string[]) => [...keys].sort();

let ctx: TestContext;
let ws: ProjectWorkspace;
let other: ProjectWorkspace;
const api = apiOf(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  ws = await makeProjectWorkspace(ctx.db, 'Acme');
  other = await makeProjectWorkspace(ctx.db, 'Other');
});
afterAll(async () => ctx?.close());

/** A project created through the API by the owner, with every commercial field set unless overridden. */
async function createProject(caller: Caller = ws.owner, body: Record<string, unknown> = {}, w: ProjectWorkspace = ws) {
  const res = await api(caller, 'POST', '/api/v2/projects', { client_id: w.clientId, name: uniqueName(), task_ids: [], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const FULL_BODY = {
  hourly_rate: 120,
  is_fixed_fee: true,
  fee: 5000,
  cost_budget: 3000,
  budget_by: 'project',
  budget: 80,
};

async function countProjects(companyId: string) {
  const row = await ctx.db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function storedProject(companyId: string, id: string) {
  return ctx.db.selectFrom('projects').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
}

function projectRate(companyId: string, projectId: string, date: string) {
  return withTenant(ctx.db, companyId, (trx) => rateOn(trx, companyId, { kind: 'billable', projectId }, date));
}

function taskRate(companyId: string, projectId: string, taskId: string, date: string) {
  return withTenant(ctx.db, companyId, (trx) => rateOn(trx, companyId, { kind: 'billable', projectId, taskId }, date));
}

async function taskAssignments(companyId: string, projectId: string) {
  return ctx.db
    .selectFrom('project_task_assignments')
    .select(['task_id', 'billable', 'is_active', 'budget'])
    .where('company_id', '=', companyId)
    .where('project_id', '=', projectId)
    .execute();
}

// ---------------------------------------------------------------------------

describe('POST /api/v2/projects', () => {
  it('creates a project with 201, Location and an ETag of the exact body, and reads it back the same', async () => {
    const today = await workspaceTodayOf(ctx, ws.companyId);
    const res = await api(ws.owner, 'POST', '/api/v2/projects', {
      client_id: ws.clientId,
      name: '  Website relaunch  ',
      code: ' WR-1 ',
      notes: 'Phase one',
      owner_id: ws.mgrAll.userId,
      starts_on: '2024-01-01',
      ends_on: '2030-12-31',
      task_ids: [],
      ...FULL_BODY,
      budget_is_monthly: true,
      show_budget_to_all: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(res.headers.location).toBe(`/api/v2/projects/${body.id}`);
    expect(res.headers.etag).toBe(etagOf(JSON.parse(res.body)));
    expect(sorted(Object.keys(body))).toEqual(sorted([...BASE_FIELDS, ...RATE_FIELDS, ...COST_FIELDS, ...BUDGET_FIELDS, 'tasks']));
    expect(body).toMatchObject({
      name: 'Website relaunch',
      code: 'WR-1',
      notes: 'Phase one',
      is_active: true,
      client: { id: ws.clientId, currency: 'USD' },
      owner_id: ws.mgrAll.userId,
      owner: { id: ws.mgrAll.userId, email: ws.mgrAll.email },
      is_billable: true,
      bill_by: 'project',
      hourly_rate: 120,
      hourly_rate_effective_from: null, // given at creation: from the start (issue 13)
      is_fixed_fee: true,
      fee: 5000,
      cost_budget: 3000,
      budget_by: 'project',
      budget: 80,
      budget_is_monthly: true,
      show_budget_to_all: true,
      starts_on: '2024-01-01',
      ends_on: '2030-12-31',
      tasks: [],
    });
    expect(typeof body.hourly_rate).toBe('number');
    const read = await api(ws.owner, 'GET', `/api/v2/projects/${body.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.body).toBe(res.body);
    expect(read.headers.etag).toBe(res.headers.etag);
    // Money is stored exactly as NUMERIC.
    const row = await storedProject(ws.companyId, body.id);
    expect(row).toMatchObject({ fee: '5000.00', cost_budget: '3000.00', budget: '80.00' });
    // A rate given at creation applies to all the project's work, whatever its date (before starts_on too).
    expect(await projectRate(ws.companyId, body.id, '2024-01-01')).toBe('120.00');
    expect(await projectRate(ws.companyId, body.id, '2023-12-31')).toBe('120.00');
    expect(await projectRate(ws.companyId, body.id, '1999-01-01')).toBe('120.00');
    expect(await projectRate(ws.companyId, body.id, today)).toBe('120.00');
  });

  it('applies defaults: billable, bill_by project, no budget; a non-billable project bills by none', async () => {
    const p = await createProject(ws.owner, {});
    expect(p).toMatchObject({ is_billable: true, bill_by: 'project', is_fixed_fee: false, fee: null, budget_by: 'none', budget: null, hourly_rate: null, cost_budget: null });
    const n = await createProject(ws.owner, { is_billable: false });
    expect(n).toMatchObject({ is_billable: false, bill_by: 'none' });
  });

  it('a rate given at creation applies from the start, whatever starts_on (shown at once); an explicit date is kept', async () => {
    const today = await workspaceTodayOf(ctx, ws.companyId);
    const future = addDays(today, 30);
    const p = await createProject(ws.owner, { hourly_rate: 90, starts_on: future });
    expect(p.hourly_rate).toBe(90);
    expect(p.hourly_rate_effective_from).toBeNull();
    expect(await projectRate(ws.companyId, p.id, addDays(today, -400))).toBe('90.00');
    const explicit = await createProject(ws.owner, { hourly_rate: 95, hourly_rate_effective_from: future });
    expect(explicit.hourly_rate).toBeNull(); // not yet in force today
    expect(await projectRate(ws.companyId, explicit.id, future)).toBe('95.00');
  });

  describe('task_ids', () => {
    let defaultA: string;
    let defaultB: string;
    let defaultArchived: string;
    let plain: string;
    let archived: string;
    let foreign: string;
    let w: ProjectWorkspace;

    beforeAll(async () => {
      w = await makeProjectWorkspace(ctx.db, 'Tasks');
      defaultA = await insertTask(ctx.db, w.companyId, { name: 'Design', isDefault: true, rate: '80', billableByDefault: true });
      defaultB = await insertTask(ctx.db, w.companyId, { name: 'Meetings', isDefault: true, billableByDefault: false });
      defaultArchived = await insertTask(ctx.db, w.companyId, { name: 'Old default', isDefault: true, isActive: false });
      plain = await insertTask(ctx.db, w.companyId, { name: 'Development', rate: '100.5' });
      archived = await insertTask(ctx.db, w.companyId, { name: 'Archived', isActive: false });
      foreign = await insertTask(ctx.db, other.companyId, { name: 'Foreign' });
    });

    it('omitted assigns the active default tasks, billable per task and priced by the task default rate', async () => {
      const res = await api(w.owner, 'POST', '/api/v2/projects', { client_id: w.clientId, name: uniqueName(), starts_on: '2024-03-01' });
      expect(res.statusCode, res.body).toBe(201);
      const p = res.json();
      expect(p.tasks.map((t: { task_id: string }) => t.task_id).sort()).toEqual([defaultA, defaultB].sort());
      const rows = await taskAssignments(w.companyId, p.id);
      expect(rows.find((r) => r.task_id === defaultA)?.billable).toBe(true);
      expect(rows.find((r) => r.task_id === defaultB)?.billable).toBe(false);
      expect(rows.map((r) => r.task_id)).not.toContain(defaultArchived);
      expect(await taskRate(w.companyId, p.id, defaultA, '2024-03-01')).toBe('80.00');
      // Given at creation: all the project's work, before its start too (issue 13).
      expect(await taskRate(w.companyId, p.id, defaultA, '2024-02-29')).toBe('80.00');
      expect(await taskRate(w.companyId, p.id, defaultB, '2024-03-01')).toBeNull();
    });

    it('[] assigns none', async () => {
      const p = await createProject(w.owner, { task_ids: [] }, w);
      expect(p.tasks).toEqual([]);
      expect(await taskAssignments(w.companyId, p.id)).toEqual([]);
    });

    it('explicit ids assign exactly those tasks', async () => {
      const p = await createProject(w.owner, { task_ids: [plain] }, w);
      expect(p.tasks).toEqual([{ task_id: plain, name: 'Development', is_active: true, billable: true, budget: null }]);
      const today = await workspaceTodayOf(ctx, w.companyId);
      expect(await taskRate(w.companyId, p.id, plain, today)).toBe('100.50');
    });

    it.each([
      ['an archived task', () => archived],
      ['a task of another workspace', () => foreign],
      ['an unknown id', () => newId()],
      ['a malformed id', () => 'nope'],
    ])('rejects %s with 400 naming task_ids, creating nothing', async (_label, id) => {
      const before = await countProjects(w.companyId);
      const res = await api(w.owner, 'POST', '/api/v2/projects', { client_id: w.clientId, name: uniqueName(), task_ids: [plain, id()] });
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('task_ids');
      expect(await countProjects(w.companyId)).toBe(before);
    });

    it('rejects duplicate ids', async () => {
      const res = await api(w.owner, 'POST', '/api/v2/projects', { client_id: w.clientId, name: uniqueName(), task_ids: [plain, plain] });
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('task_ids');
    });

    it('is create-only: PATCH with task_ids is 400', async () => {
      const p = await createProject(w.owner, {}, w);
      const res = await api(w.owner, 'PATCH', `/api/v2/projects/${p.id}`, { task_ids: [plain] });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'unknown_field', field: 'task_ids' });
    });
  });

  describe('relationships', () => {
    it('requires client_id and name', async () => {
      const a = await api(ws.owner, 'POST', '/api/v2/projects', { name: 'x' });
      expect(a.statusCode).toBe(400);
      expect(a.json().field).toBe('client_id');
      const b = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId });
      expect(b.statusCode).toBe(400);
      expect(b.json().field).toBe('name');
      const c = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: '   ' });
      expect(c.statusCode).toBe(400);
      expect(c.json().field).toBe('name');
    });

    it.each([
      ['of another workspace', () => other.clientId],
      ['unknown', () => newId()],
      ['malformed', () => 'abc'],
      ['archived', async () => insertClient(ctx.db, ws.companyId, uniqueName('Archived client'), false)],
    ])('rejects a client %s with 400 naming client_id, creating nothing', async (_label, client) => {
      const before = await countProjects(ws.companyId);
      const res = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: await client(), name: uniqueName() });
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('client_id');
      expect(await countProjects(ws.companyId)).toBe(before);
    });

    it('rejects an owner who is not an active internal member of the workspace', async () => {
      const inactive = await addMember(ctx.db, ws.companyId, { role: 'member' });
      await updateMember(ctx.db, operatorPrincipal(ws.companyId), inactive.userId, { is_active: false });
      const client = await createMember(ctx.db, operatorPrincipal(ws.companyId), { email: `client.${newId()}@example.com`, first_name: 'C', role: 'client' });
      for (const ownerId of [other.owner.userId, inactive.userId, client.user_id, newId(), 'x']) {
        const res = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), owner_id: ownerId });
        expect(res.statusCode, ownerId).toBe(400);
        expect(res.json().field).toBe('owner_id');
      }
    });
  });

  describe('billing and budget rules: 400 naming the field, nothing created', () => {
    it.each([
      ['hourly_rate with bill_by none', { bill_by: 'none', hourly_rate: 10 }, 'hourly_rate'],
      ['hourly_rate on a non-billable project', { is_billable: false, hourly_rate: 10 }, 'hourly_rate'],
      ['a non-billable project billed by project', { is_billable: false, bill_by: 'project' }, 'bill_by'],
      ['a non-billable fixed-fee project', { is_billable: false, is_fixed_fee: true, fee: 1 }, 'is_fixed_fee'],
      ['fee without is_fixed_fee', { fee: 100 }, 'fee'],
      ['is_fixed_fee without fee', { is_fixed_fee: true }, 'fee'],
      ['a negative rate', { hourly_rate: -1 }, 'hourly_rate'],
      ['a rate with 3 decimals', { hourly_rate: 10.555 }, 'hourly_rate'],
      ['a rate over the range', { hourly_rate: 1e12 }, 'hourly_rate'],
      ['a rate as a string', { hourly_rate: '10' }, 'hourly_rate'],
      ['a null rate', { hourly_rate: null }, 'hourly_rate'],
      ['hourly_rate_effective_from without a rate', { hourly_rate_effective_from: '2024-01-01' }, 'hourly_rate_effective_from'],
      ['a bad effective date', { hourly_rate: 1, hourly_rate_effective_from: '2024-02-30' }, 'hourly_rate_effective_from'],
      ['a fee over 10^12', { is_fixed_fee: true, fee: 1e12 + 1 }, 'fee'],
      ['a negative cost budget', { cost_budget: -0.01 }, 'cost_budget'],
      ['a budget with 3 decimals', { budget_by: 'project', budget: 1.001 }, 'budget'],
      ['a budget with budget_by none', { budget: 10 }, 'budget'],
      ['a budget with budget_by task', { budget_by: 'task', budget: 10 }, 'budget'],
      ['a budget with budget_by person', { budget_by: 'person', budget: 10 }, 'budget'],
      ['budget_by project without a budget', { budget_by: 'project' }, 'budget'],
      ['budget_by project_cost with a null budget', { budget_by: 'project_cost', budget: null }, 'budget'],
      ['a monthly budget with budget_by none', { budget_is_monthly: true }, 'budget_is_monthly'],
      ['an unknown bill_by', { bill_by: 'hours' }, 'bill_by'],
      ['an unknown budget_by', { budget_by: 'money' }, 'budget_by'],
      ['ends_on before starts_on', { starts_on: '2024-05-02', ends_on: '2024-05-01' }, 'ends_on'],
      ['an impossible date', { starts_on: '2024-02-30' }, 'starts_on'],
      ['a date in another form', { ends_on: '20240501' }, 'ends_on'],
      ['a code over 64 characters', { code: 'x'.repeat(65) }, 'code'],
      ['a name over 255 characters', { name: 'x'.repeat(256) }, 'name'],
    ])('%s', async (_label, body, field) => {
      const before = await countProjects(ws.companyId);
      const res = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().field).toBe(field);
      expect(await countProjects(ws.companyId)).toBe(before);
    });

    it('accepts the boundary values (0, 2 decimals, the maximum, ends_on equal to starts_on)', async () => {
      const p = await createProject(ws.owner, {
        hourly_rate: 0,
        is_fixed_fee: true,
        fee: 999999999999.99,
        cost_budget: 0.01,
        budget_by: 'project_cost',
        budget: 0,
        starts_on: '2024-05-01',
        ends_on: '2024-05-01',
      });
      expect(p).toMatchObject({ hourly_rate: 0, fee: 999999999999.99, cost_budget: 0.01, budget: 0 });
      const row = await storedProject(ws.companyId, p.id);
      expect(row?.fee).toBe('999999999999.99');
    });

    it('refuses unknown and read-only properties', async () => {
      for (const field of ['id', 'client', 'owner', 'tasks', 'created_at', 'updated_at', 'colour']) {
        const res = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), [field]: 'x' });
        expect(res.statusCode, field).toBe(400);
        expect(res.json()).toMatchObject({ error: 'unknown_field', field });
      }
    });
  });

  describe('who may create', () => {
    it.each([
      ['member', () => ws.member],
      ['contractor', () => ws.contractor],
      ['manager without edit_projects', () => ws.mgrRates],
      ['manager without any permission', () => ws.mgrPlain],
      ['personal sync key', () => ws.memberPersonal],
      ["an administrator's personal sync key", () => ws.adminPersonal],
    ])('%s: 403, nothing created', async (_label, caller) => {
      const before = await countProjects(ws.companyId);
      const res = await api(caller(), 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName() });
      expect(res.statusCode).toBe(403);
      expect(await countProjects(ws.companyId)).toBe(before);
    });

    it('an administrator creates, sees everything, and is assigned to it (not as its project manager)', async () => {
      const p = await createProject(ws.admin, FULL_BODY);
      expect(sorted(Object.keys(p))).toEqual(sorted([...BASE_FIELDS, ...RATE_FIELDS, ...COST_FIELDS, ...BUDGET_FIELDS, 'tasks']));
      const rows = await ctx.db
        .selectFrom('project_user_assignments')
        .select(['user_id', 'is_active', 'is_project_manager'])
        .where('project_id', '=', p.id)
        .execute();
      expect(rows).toEqual([{ user_id: ws.admin.userId, is_active: true, is_project_manager: false }]);
    });

    it('a manager with edit_projects creates without commercial fields, becomes its project manager, and sees no rates or costs', async () => {
      const p = await createProject(ws.mgrEdit, { name: uniqueName('Managed') });
      expect(sorted(Object.keys(p))).toEqual(sorted([...BASE_FIELDS, ...BUDGET_FIELDS, 'tasks']));
      for (const hidden of [...RATE_FIELDS, ...COST_FIELDS]) expect(p).not.toHaveProperty(hidden);
      const own = await ctx.db
        .selectFrom('project_user_assignments')
        .select(['is_project_manager', 'is_active'])
        .where('project_id', '=', p.id)
        .where('user_id', '=', ws.mgrEdit.userId)
        .executeTakeFirst();
      expect(own).toEqual({ is_project_manager: true, is_active: true });
      expect((await api(ws.mgrEdit, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(200);
      expect((await api(ws.mgrEdit, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'mine' })).statusCode).toBe(200);
    });

    it.each([
      ['hourly_rate', { hourly_rate: 10 }],
      ['fee', { is_fixed_fee: true, fee: 10 }],
      ['is_billable', { is_billable: true }],
      ['bill_by', { bill_by: 'tasks' }],
      ['budget_by', { budget_by: 'none' }],
      ['budget', { budget_by: 'project', budget: 10 }],
      ['budget_is_monthly', { budget_is_monthly: false }],
      ['show_budget_to_all', { show_budget_to_all: false }],
      ['cost_budget', { cost_budget: 1 }],
    ])('a manager without view_billable_rates sending %s: 403, nothing created', async (_label, body) => {
      const before = await countProjects(ws.companyId);
      const res = await api(ws.mgrEdit, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), ...body });
      expect(res.statusCode).toBe(403);
      expect(await countProjects(ws.companyId)).toBe(before);
    });

    it('a manager with view_billable_rates but not view_internal_costs may not set cost_budget', async () => {
      const before = await countProjects(ws.companyId);
      const res = await api(ws.mgrEditRates, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), cost_budget: 5 });
      expect(res.statusCode).toBe(403);
      expect(res.json().field).toBe('cost_budget');
      expect(await countProjects(ws.companyId)).toBe(before);
      const p = await createProject(ws.mgrEditRates, { hourly_rate: 50, budget_by: 'project', budget: 10 });
      expect(p).toMatchObject({ hourly_rate: 50, budget: 10 });
      expect(p).not.toHaveProperty('cost_budget');
      // A money budget at cost needs internal costs to see, so to set.
      const cost = await api(ws.mgrEditRates, 'POST', '/api/v2/projects', {
        client_id: ws.clientId,
        name: uniqueName(),
        budget_by: 'project_cost',
        budget: 10,
      });
      expect(cost.statusCode).toBe(403);
      expect(cost.json().field).toBe('budget');
    });

    it('a manager with all three permissions sets everything and sees everything', async () => {
      const p = await createProject(ws.mgrAll, FULL_BODY);
      expect(sorted(Object.keys(p))).toEqual(sorted([...BASE_FIELDS, ...RATE_FIELDS, ...COST_FIELDS, ...BUDGET_FIELDS, 'tasks']));
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response byte for byte and creates one project', async () => {
      const key = `proj-${newId()}`;
      const body = { client_id: ws.clientId, name: uniqueName('Idem'), task_ids: [] };
      const before = await countProjects(ws.companyId);
      const first = await api(ws.owner, 'POST', '/api/v2/projects', body, { 'idempotency-key': key });
      const second = await api(ws.owner, 'POST', '/api/v2/projects', body, { 'idempotency-key': key });
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.body).toBe(first.body);
      expect(second.headers.location).toBe(first.headers.location);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(await countProjects(ws.companyId)).toBe(before + 1);
    });

    it('the same key sent several times at once creates exactly one project', async () => {
      const key = `race-${newId()}`;
      const body = { client_id: ws.clientId, name: uniqueName('Race'), task_ids: [] };
      const before = await countProjects(ws.companyId);
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => api(ws.owner, 'POST', '/api/v2/projects', body, { 'idempotency-key': key })),
      );
      for (const r of responses) {
        if (r.statusCode === 409) expect(r.json().error).toBe('idempotency_key_in_use');
        else expect(r.statusCode).toBe(201);
      }
      expect(new Set(responses.filter((r) => r.statusCode === 201).map((r) => r.json().id)).size).toBe(1);
      expect(await countProjects(ws.companyId)).toBe(before + 1);
    });

    it('the same key with a different body is 409; a malformed key 400', async () => {
      const key = `reuse-${newId()}`;
      await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), task_ids: [] }, { 'idempotency-key': key });
      const before = await countProjects(ws.companyId);
      const reuse = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName() }, { 'idempotency-key': key });
      expect(reuse.statusCode).toBe(409);
      const bad = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName() }, { 'idempotency-key': 'short' });
      expect(bad.statusCode).toBe(400);
      expect(await countProjects(ws.companyId)).toBe(before);
    });

    it('a permission change since the first use is 409', async () => {
      const mgr = await addMember(ctx.db, ws.companyId, { role: 'manager', permissions: ['edit_projects'] });
      const key = `perm-${newId()}`;
      const body = { client_id: ws.clientId, name: uniqueName(), task_ids: [] };
      expect((await api(mgr, 'POST', '/api/v2/projects', body, { 'idempotency-key': key })).statusCode).toBe(201);
      await updateMember(ctx.db, operatorPrincipal(ws.companyId), mgr.userId, { permissions: ['edit_projects', 'view_billable_rates'] });
      const again = await api(mgr, 'POST', '/api/v2/projects', body, { 'idempotency-key': key });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('idempotency_permission_changed');
    });

    it('a permission taken away since the first use is 409 too, not 403; a new key gets the 403', async () => {
      const mgr = await addMember(ctx.db, ws.companyId, { role: 'manager', permissions: ['edit_projects'] });
      const key = `perm-gone-${newId()}`;
      const body = { client_id: ws.clientId, name: uniqueName(), task_ids: [] };
      expect((await api(mgr, 'POST', '/api/v2/projects', body, { 'idempotency-key': key })).statusCode).toBe(201);
      await updateMember(ctx.db, operatorPrincipal(ws.companyId), mgr.userId, { permissions: [] });
      const before = await countProjects(ws.companyId);
      const again = await api(mgr, 'POST', '/api/v2/projects', body, { 'idempotency-key': key });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe('idempotency_permission_changed');
      const fresh = await api(mgr, 'POST', '/api/v2/projects', body, { 'idempotency-key': `perm-new-${newId()}` });
      expect(fresh.statusCode).toBe(403);
      expect((await api(mgr, 'POST', '/api/v2/projects', body)).statusCode).toBe(403);
      expect(await countProjects(ws.companyId)).toBe(before);
    });

    it('replays a PATCH', async () => {
      const p = await createProject();
      const key = `patch-${newId()}`;
      const first = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'A' }, { 'idempotency-key': key });
      await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'B' });
      const replay = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'A' }, { 'idempotency-key': key });
      expect(first.statusCode).toBe(200);
      expect(replay.body).toBe(first.body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect((await storedProject(ws.companyId, p.id))?.notes).toBe('B');
    });
  });

  it('refuses a body over 128 KiB with 413', async () => {
    const res = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: 'big', notes: 'x'.repeat(130 * 1024) });
    expect(res.statusCode).toBe(413);
  });
});

// ---------------------------------------------------------------------------

describe('reading projects: visibility and properties by identity', () => {
  let v: ProjectWorkspace;
  /** The managers used for "manages vs merely assigned". */
  let mgrAssignedAll: Caller;
  let hours: { id: string };
  let unassigned: { id: string };
  let archived: { id: string };
  let inactiveAssignment: { id: string };
  let costBudget: { id: string };
  let taskFees: { id: string };
  let sharedBudget: { id: string };
  let taskA: string;
  let taskB: string;

  beforeAll(async () => {
    v = await makeProjectWorkspace(ctx.db, 'Visibility');
    mgrAssignedAll = await addMember(ctx.db, v.companyId, {
      role: 'manager',
      permissions: ['edit_projects', 'view_billable_rates', 'view_internal_costs'],
    });
    taskA = await insertTask(ctx.db, v.companyId, { name: 'Alpha task' });
    taskB = await insertTask(ctx.db, v.companyId, { name: 'Beta task' });
    const make = (body: Record<string, unknown>) => createProject(v.owner, { ...FULL_BODY, ...body }, v);
    hours = await make({ name: 'A hours', task_ids: [taskA, taskB], owner_id: v.mgrPlain.userId });
    unassigned = await make({ name: 'B unassigned' });
    archived = await make({ name: 'C archived', is_active: false });
    inactiveAssignment = await make({ name: 'D inactive assignment' });
    costBudget = await make({ name: 'E cost budget', budget_by: 'project_cost' });
    taskFees = await make({ name: 'F task fees', budget_by: 'task_fees', budget: null });
    sharedBudget = await make({ name: 'G shared budget', show_budget_to_all: true });
    // Task budgets: active A with a budget, inactive B with one.
    await ctx.db.updateTable('project_task_assignments').set({ budget: '12.50' }).where('project_id', '=', hours.id).where('task_id', '=', taskA).execute();
    await ctx.db
      .updateTable('project_task_assignments')
      .set({ budget: '7', is_active: false })
      .where('project_id', '=', hours.id)
      .where('task_id', '=', taskB)
      .execute();
    const everyone = [v.mgrAll, v.mgrEdit, v.mgrEditRates, v.mgrRates, v.mgrCosts, v.mgrPlain, v.member, v.contractor, v.admin];
    for (const p of [hours, archived, costBudget, taskFees, sharedBudget]) {
      for (const who of everyone) {
        const manager = [v.mgrAll, v.mgrEdit, v.mgrEditRates, v.mgrRates, v.mgrCosts, v.mgrPlain].includes(who);
        await assign(ctx.db, v.companyId, p.id, who.userId, { manager });
      }
      await assign(ctx.db, v.companyId, p.id, mgrAssignedAll.userId, { manager: false });
    }
    for (const who of [v.member, v.mgrPlain]) await assign(ctx.db, v.companyId, inactiveAssignment.id, who.userId, { active: false });
  });

  const listIds = async (caller: Caller, query = '') => {
    const res = await api(caller, 'GET', `/api/v2/projects${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().projects.map((p: { id: string }) => p.id);
  };

  it('owners and administrators list every project of the workspace, active and archived', async () => {
    for (const who of [v.owner, v.admin]) {
      const ids = await listIds(who);
      expect(ids).toHaveLength(7);
      expect(ids).toEqual(expect.arrayContaining([unassigned.id, archived.id, inactiveAssignment.id]));
    }
  });

  it('everyone else lists only projects they are actively assigned to (active and archived)', async () => {
    for (const who of [v.mgrAll, v.mgrEdit, v.mgrPlain, v.member, v.contractor, mgrAssignedAll]) {
      const ids = await listIds(who);
      expect(sorted(ids)).toEqual(sorted([hours.id, archived.id, costBudget.id, taskFees.id, sharedBudget.id]));
    }
  });

  it('lists in a stable order: by name, then id, with the pagination envelope', async () => {
    const all = await api(v.owner, 'GET', '/api/v2/projects?per_page=3');
    const body = all.json();
    expect(body).toMatchObject({ page: 1, per_page: 3, total_entries: 7, total_pages: 3 });
    expect(body.links.next).toBe('/api/v2/projects?per_page=3&page=2');
    expect(body.projects.map((p: { name: string }) => p.name)).toEqual(['A hours', 'B unassigned', 'C archived']);
    const page3 = (await api(v.owner, 'GET', '/api/v2/projects?per_page=3&page=3')).json();
    expect(page3.projects.map((p: { name: string }) => p.name)).toEqual(['G shared budget']);
  });

  it('filters by is_active, client_id, owner_id and updated_since', async () => {
    expect(await listIds(v.owner, '?is_active=false')).toEqual([archived.id]);
    expect(await listIds(v.owner, '?is_active=true')).toHaveLength(6);
    expect(await listIds(v.owner, `?owner_id=${v.mgrPlain.userId}`)).toEqual([hours.id]);
    expect(await listIds(v.owner, `?client_id=${v.clientId}`)).toHaveLength(7);
    expect(await listIds(v.owner, `?client_id=${other.clientId}`)).toEqual([]);
    expect(await listIds(v.owner, `?client_id=${newId()}`)).toEqual([]);
    expect(await listIds(v.member, `?is_active=false`)).toEqual([archived.id]);
    const future = new Date(ctx.clock.now().getTime() + 3_600_000).toISOString();
    expect(await listIds(v.owner, `?updated_since=${encodeURIComponent(future)}`)).toEqual([]);
    expect(await listIds(v.owner, `?updated_since=2000-01-01T00:00:00Z`)).toHaveLength(7);
    for (const bad of ['?client_id=nope', '?owner_id=1', '?updated_since=yesterday', '?is_active=yes', '?colour=red', '?per_page=2001']) {
      const res = await api(v.owner, 'GET', `/api/v2/projects${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
  });

  it("updated_since also sees a change of the project's client or owner (both are in the item)", async () => {
    const w = await makeProjectWorkspace(ctx.db, 'Sync');
    const p = await createProject(w.owner, { owner_id: w.member.userId }, w);
    const mark = new Date(Date.now() + 60_000);
    // Rename the owner "later": users.updated_at moves past the mark.
    await ctx.db.updateTable('users').set({ first_name: 'Renamed', updated_at: new Date(mark.getTime() + 1000) }).where('id', '=', w.member.userId).execute();
    const res = await api(w.owner, 'GET', `/api/v2/projects?updated_since=${encodeURIComponent(mark.toISOString())}`);
    expect(res.json().projects.map((x: { id: string }) => x.id)).toEqual([p.id]);
    expect(res.json().projects[0].owner.name).toBe('Renamed Member');
  });

  describe('properties by identity (absent, not null, when hidden)', () => {
    const cases: Array<[string, () => Caller, string[]]> = [
      ['owner', () => v.owner, [...RATE_FIELDS, ...COST_FIELDS, ...BUDGET_FIELDS]],
      ['administrator', () => v.admin, [...RATE_FIELDS, ...COST_FIELDS, ...BUDGET_FIELDS]],
      ['manager with all permissions who manages it', () => v.mgrAll, [...RATE_FIELDS, ...COST_FIELDS, ...BUDGET_FIELDS]],
      ['manager with view_billable_rates who manages it', () => v.mgrRates, [...RATE_FIELDS, ...BUDGET_FIELDS]],
      ['manager with view_internal_costs who manages it', () => v.mgrCosts, [...COST_FIELDS, ...BUDGET_FIELDS]],
      ['manager with edit_projects only who manages it', () => v.mgrEdit, [...BUDGET_FIELDS]],
      ['manager without permissions who manages it', () => v.mgrPlain, [...BUDGET_FIELDS]],
      ['manager with all permissions merely assigned', () => mgrAssignedAll, [...RATE_FIELDS, ...COST_FIELDS]],
      ['member', () => v.member, []],
      ['contractor', () => v.contractor, []],
    ];

    it.each(cases)('%s (hours budget, item and list)', async (_label, caller, visible) => {
      const item = await api(caller(), 'GET', `/api/v2/projects/${hours.id}`);
      expect(item.statusCode).toBe(200);
      const body = item.json();
      expect(sorted(Object.keys(body))).toEqual(sorted([...BASE_FIELDS, ...visible, 'tasks']));
      for (const hidden of [...RATE_FIELDS, ...COST_FIELDS, ...BUDGET_FIELDS].filter((f) => !visible.includes(f))) {
        expect(body).not.toHaveProperty(hidden);
      }
      expect(item.headers.etag).toBe(etagOf(JSON.parse(item.body)));
      // Nested task budgets follow the project's budget, and only for active assignments.
      const seesBudget = visible.includes('budget');
      const tasks = body.tasks as Array<Record<string, unknown>>;
      expect(tasks.map((t) => t.name)).toEqual(['Alpha task', 'Beta task']);
      if (seesBudget) expect(tasks[0].budget).toBe(12.5);
      else expect(tasks[0]).not.toHaveProperty('budget');
      expect(tasks[1]).toMatchObject({ is_active: false });
      expect(tasks[1]).not.toHaveProperty('budget');
      const listed = (await api(caller(), 'GET', '/api/v2/projects')).json().projects.find((p: { id: string }) => p.id === hours.id);
      expect(sorted(Object.keys(listed))).toEqual(sorted([...BASE_FIELDS, ...visible]));
    });

    it('show_budget_to_all shows an hours budget to everyone assigned', async () => {
      for (const who of [v.member, v.contractor, mgrAssignedAll]) {
        const body = (await api(who, 'GET', `/api/v2/projects/${sharedBudget.id}`)).json();
        expect(body.budget).toBe(80);
      }
    });

    it('a money budget at cost (project_cost) needs internal costs, and managing the project', async () => {
      const sees = async (c: Caller) => Object.hasOwn((await api(c, 'GET', `/api/v2/projects/${costBudget.id}`)).json(), 'budget');
      expect(await sees(v.owner)).toBe(true);
      expect(await sees(v.mgrAll)).toBe(true);
      expect(await sees(v.mgrCosts)).toBe(true);
      expect(await sees(v.mgrRates)).toBe(false);
      expect(await sees(v.mgrPlain)).toBe(false);
      expect(await sees(mgrAssignedAll)).toBe(false);
      expect(await sees(v.member)).toBe(false);
    });

    it('a task-fees budget needs billable rates, and managing the project', async () => {
      const sees = async (c: Caller) => Object.hasOwn((await api(c, 'GET', `/api/v2/projects/${taskFees.id}`)).json(), 'budget');
      expect(await sees(v.admin)).toBe(true);
      expect(await sees(v.mgrRates)).toBe(true);
      expect(await sees(v.mgrCosts)).toBe(false);
      expect(await sees(v.mgrPlain)).toBe(false);
      expect(await sees(v.member)).toBe(false);
    });
  });

  describe('personal sync key', () => {
    it('lists exactly the directory item of its owner’s actively assigned projects, active and archived', async () => {
      const res = await api(v.memberPersonal, 'GET', '/api/v2/projects');
      expect(res.statusCode).toBe(200);
      const projects = res.json().projects;
      expect(sorted(projects.map((p: { id: string }) => p.id))).toEqual(
        sorted([hours.id, archived.id, costBudget.id, taskFees.id, sharedBudget.id]),
      );
      for (const p of projects) expect(sorted(Object.keys(p))).toEqual(DIRECTORY_FIELDS);
      const first = projects.find((p: { id: string }) => p.id === hours.id);
      expect(first).toEqual({
        id: hours.id,
        name: 'A hours',
        code: null,
        is_active: true,
        owner_id: v.mgrPlain.userId,
        owner: { id: v.mgrPlain.userId, name: 'Test manager', email: v.mgrPlain.email },
        client: { id: v.clientId, name: expect.any(String) },
      });
      const unowned = projects.find((p: { id: string }) => p.id === archived.id);
      expect(unowned.owner).toBeNull();
      expect(unowned.client).not.toHaveProperty('currency');
    });

    it("an administrator's personal key also sees only assigned projects", async () => {
      const ids = await listIds(v.adminPersonal);
      expect(ids).not.toContain(unassigned.id);
      expect(ids).toContain(hours.id);
      expect((await api(v.adminPersonal, 'GET', `/api/v2/projects/${unassigned.id}`)).statusCode).toBe(404);
    });

    it('supports is_active, owner_id, page and per_page only', async () => {
      expect(await listIds(v.memberPersonal, '?is_active=false')).toEqual([archived.id]);
      expect(await listIds(v.memberPersonal, `?owner_id=${v.mgrPlain.userId}&page=1&per_page=5`)).toEqual([hours.id]);
      for (const q of [`?client_id=${v.clientId}`, '?updated_since=2020-01-01T00:00:00Z', '?colour=red']) {
        const res = await api(v.memberPersonal, 'GET', `/api/v2/projects${q}`);
        expect(res.statusCode, q).toBe(400);
      }
    });

    it('reads one assigned project as the directory item with an ETag; unassigned and inactive assignments are 404', async () => {
      const res = await api(v.memberPersonal, 'GET', `/api/v2/projects/${hours.id}`);
      expect(res.statusCode).toBe(200);
      expect(sorted(Object.keys(res.json()))).toEqual(DIRECTORY_FIELDS);
      expect(res.headers.etag).toBe(etagOf(res.json()));
      expect(res.headers.etag).not.toBe((await api(v.member, 'GET', `/api/v2/projects/${hours.id}`)).headers.etag);
      expect((await api(v.memberPersonal, 'GET', `/api/v2/projects/${unassigned.id}`)).statusCode).toBe(404);
      expect((await api(v.memberPersonal, 'GET', `/api/v2/projects/${inactiveAssignment.id}`)).statusCode).toBe(404);
    });

    it('cannot write', async () => {
      expect((await api(v.memberPersonal, 'PATCH', `/api/v2/projects/${hours.id}`, { name: 'x' })).statusCode).toBe(403);
      expect((await api(v.memberPersonal, 'DELETE', `/api/v2/projects/${archived.id}`)).statusCode).toBe(403);
      expect((await api(v.memberPersonal, 'GET', `/api/v2/projects/${hours.id}/user_assignments`)).statusCode).toBe(403);
    });
  });

  it('an unassigned, inactive-assignment, unknown, malformed or other-workspace project is 404', async () => {
    const foreign = await insertProjectRow(ctx.db, other.companyId, other.clientId);
    for (const who of [v.member, v.contractor, v.mgrAll, v.mgrPlain]) {
      expect((await api(who, 'GET', `/api/v2/projects/${unassigned.id}`)).statusCode).toBe(404);
    }
    expect((await api(v.member, 'GET', `/api/v2/projects/${inactiveAssignment.id}`)).statusCode).toBe(404);
    for (const who of [v.owner, v.admin, v.member]) {
      expect((await api(who, 'GET', `/api/v2/projects/${foreign}`)).statusCode).toBe(404);
      expect((await api(who, 'GET', `/api/v2/projects/${newId()}`)).statusCode).toBe(404);
      expect((await api(who, 'GET', '/api/v2/projects/not-an-id')).statusCode).toBe(404);
    }
  });

  it('removing an assignment hides the project on the next request', async () => {
    const p = await createProject(v.owner, {}, v);
    const who = await addMember(ctx.db, v.companyId, { role: 'member' });
    await assign(ctx.db, v.companyId, p.id, who.userId);
    expect((await api(who, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(200);
    await ctx.db.deleteFrom('project_user_assignments').where('project_id', '=', p.id).where('user_id', '=', who.userId).execute();
    expect((await api(who, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(404);
    expect(await listIds(who)).not.toContain(p.id);
  });
});

// ---------------------------------------------------------------------------

describe('ETag', () => {
  it('is stable across reads and differs between callers who see different bodies', async () => {
    const p = await createProject(ws.owner, FULL_BODY);
    await assign(ctx.db, ws.companyId, p.id, ws.member.userId);
    const a = await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`);
    const b = await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`);
    const m = await api(ws.member, 'GET', `/api/v2/projects/${p.id}`);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(m.headers.etag).not.toBe(a.headers.etag);
    expect(m.headers.etag).toBe(etagOf(JSON.parse(m.body)));
  });

  it('changes when the filtered body changes, and only then', async () => {
    const task = await insertTask(ctx.db, ws.companyId);
    const p = await createProject(ws.owner, { ...FULL_BODY, task_ids: [task] });
    await assign(ctx.db, ws.companyId, p.id, ws.member.userId);
    const etag = async (c: Caller) => (await api(c, 'GET', `/api/v2/projects/${p.id}`)).headers.etag;
    const owner0 = await etag(ws.owner);
    const member0 = await etag(ws.member);
    // A task budget the member may not see: the owner's body and tag change, the member's do not.
    await ctx.db.updateTable('project_task_assignments').set({ budget: '3' }).where('project_id', '=', p.id).execute();
    const owner1 = await etag(ws.owner);
    expect(owner1).not.toBe(owner0);
    expect(await etag(ws.member)).toBe(member0);
    // A PATCH that changes nothing writes nothing: no new tag for anyone.
    const same = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { name: p.name, fee: 5000, hourly_rate: 120 });
    expect(same.statusCode).toBe(200);
    expect(same.headers.etag).toBe(owner1);
    expect(same.json().updated_at).toBe(p.updated_at);
    // A real change changes every caller's body (updated_at) and tag.
    ctx.clock.advance(1000);
    const changed = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'changed' });
    expect(changed.headers.etag).not.toBe(owner1);
    expect(changed.headers.etag).toBe(await etag(ws.owner));
    expect(await etag(ws.member)).not.toBe(member0);
  });

  it('changes for a caller whose permissions change (the body gains properties)', async () => {
    const mgr = await addMember(ctx.db, ws.companyId, { role: 'manager' });
    const p = await createProject(ws.owner, FULL_BODY);
    await assign(ctx.db, ws.companyId, p.id, mgr.userId, { manager: true });
    const before = await api(mgr, 'GET', `/api/v2/projects/${p.id}`);
    expect(before.json()).not.toHaveProperty('hourly_rate');
    await updateMember(ctx.db, operatorPrincipal(ws.companyId), mgr.userId, { permissions: ['view_billable_rates'] });
    const after = await api(mgr, 'GET', `/api/v2/projects/${p.id}`);
    expect(after.json().hourly_rate).toBe(120);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('If-Match on PATCH: stale is 412 and changes nothing; current and * pass; another caller’s tag is stale', async () => {
    const p = await createProject(ws.owner, FULL_BODY);
    await assign(ctx.db, ws.companyId, p.id, ws.member.userId);
    const memberTag = (await api(ws.member, 'GET', `/api/v2/projects/${p.id}`)).headers.etag as string;
    const current = (await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`)).headers.etag as string;
    const stale = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'x' }, { 'if-match': '"stale"' });
    expect(stale.statusCode).toBe(412);
    const other = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'x' }, { 'if-match': memberTag });
    expect(other.statusCode).toBe(412);
    expect((await storedProject(ws.companyId, p.id))?.notes).toBeNull();
    const ok = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'x' }, { 'if-match': current });
    expect(ok.statusCode).toBe(200);
    const star = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'y' }, { 'if-match': '*' });
    expect(star.statusCode).toBe(200);
    expect((await storedProject(ws.companyId, p.id))?.notes).toBe('y');
  });
});

// ---------------------------------------------------------------------------

describe('PATCH /api/v2/projects/:id', () => {
  let u: ProjectWorkspace;
  let mgrAssigned: Caller;
  beforeAll(async () => {
    u = await makeProjectWorkspace(ctx.db, 'Updates');
    mgrAssigned = await addMember(ctx.db, u.companyId, { role: 'manager', permissions: ['edit_projects', 'view_billable_rates'] });
  });

  async function managedProject(body: Record<string, unknown> = {}) {
    const p = await createProject(u.owner, { ...FULL_BODY, ...body }, u);
    await assign(ctx.db, u.companyId, p.id, u.mgrPlain.userId, { manager: true });
    await assign(ctx.db, u.companyId, p.id, u.mgrRates.userId, { manager: true });
    await assign(ctx.db, u.companyId, p.id, mgrAssigned.userId, { manager: false });
    await assign(ctx.db, u.companyId, p.id, u.member.userId);
    await assign(ctx.db, u.companyId, p.id, u.contractor.userId);
    return p;
  }

  it('owners, administrators and the managers of the project may update; assigned non-managers 403; unassigned 404', async () => {
    const p = await managedProject();
    for (const who of [u.owner, u.admin, u.mgrPlain, u.mgrRates]) {
      const res = await api(who, 'PATCH', `/api/v2/projects/${p.id}`, { notes: `by ${who.userId}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    for (const who of [u.member, u.contractor, mgrAssigned]) {
      const res = await api(who, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'nope' });
      expect(res.statusCode).toBe(403);
    }
    // edit_projects without an assignment does not reach another's project
    for (const who of [u.mgrEdit, u.mgrAll]) {
      expect((await api(who, 'PATCH', `/api/v2/projects/${p.id}`, { notes: 'nope' })).statusCode).toBe(404);
    }
    expect((await storedProject(u.companyId, p.id))?.notes).toBe(`by ${u.mgrRates.userId}`);
  });

  it('a project manager without view_billable_rates may not send commercial properties (403, nothing changed)', async () => {
    const p = await managedProject();
    for (const body of [{ hourly_rate: 1 }, { fee: 1 }, { budget: 1 }, { budget_by: 'task' }, { is_billable: false, bill_by: 'none' }]) {
      const res = await api(u.mgrPlain, 'PATCH', `/api/v2/projects/${p.id}`, { ...body, notes: 'with it' });
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
    }
    const row = await storedProject(u.companyId, p.id);
    expect(row).toMatchObject({ notes: null, fee: '5000.00', budget: '80.00', bill_by: 'project' });
    expect(await projectRate(u.companyId, p.id, await workspaceTodayOf(ctx, u.companyId))).toBe('120.00');
  });

  it('a project manager with view_billable_rates changes the rate but not the cost budget', async () => {
    const p = await managedProject();
    const ok = await api(u.mgrRates, 'PATCH', `/api/v2/projects/${p.id}`, { hourly_rate: 130, fee: 4000 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ hourly_rate: 130, fee: 4000 });
    const cost = await api(u.mgrRates, 'PATCH', `/api/v2/projects/${p.id}`, { cost_budget: 1 });
    expect(cost.statusCode).toBe(403);
  });

  it('archives and restores via is_active (managers of the project too); restoring under an archived client is 409', async () => {
    const client = await insertClient(ctx.db, u.companyId);
    const p = await createProject(u.owner, { client_id: client }, u);
    await assign(ctx.db, u.companyId, p.id, u.mgrPlain.userId, { manager: true });
    const archived = await api(u.mgrPlain, 'PATCH', `/api/v2/projects/${p.id}`, { is_active: false });
    expect(archived.statusCode).toBe(200);
    expect(archived.json().is_active).toBe(false);
    // Archived projects stay visible to those assigned.
    expect((await api(u.mgrPlain, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(200);
    await ctx.db.updateTable('clients').set({ is_active: false }).where('id', '=', client).execute();
    const blocked = await api(u.mgrPlain, 'PATCH', `/api/v2/projects/${p.id}`, { is_active: true, notes: 'back' });
    expect(blocked.statusCode).toBe(409);
    expect((await storedProject(u.companyId, p.id))).toMatchObject({ is_active: false, notes: null });
    await ctx.db.updateTable('clients').set({ is_active: true }).where('id', '=', client).execute();
    const restored = await api(u.mgrPlain, 'PATCH', `/api/v2/projects/${p.id}`, { is_active: true });
    expect(restored.json().is_active).toBe(true);
    const audits = await ctx.db.selectFrom('audit_logs').select('action').where('subject_id', '=', p.id).orderBy('occurred_at').execute();
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['project.created', 'project.archived', 'project.restored']));
  });

  it('moves a project to another active client; an archived or foreign client is 400', async () => {
    const p = await createProject(u.owner, {}, u);
    const target = await insertClient(ctx.db, u.companyId, uniqueName('Target'));
    const archivedClient = await insertClient(ctx.db, u.companyId, uniqueName('Gone'), false);
    for (const client_id of [archivedClient, other.clientId, 'x']) {
      const res = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { client_id });
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('client_id');
    }
    const moved = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { client_id: target });
    expect(moved.json().client.id).toBe(target);
  });

  it('checks the merged state: inconsistent settings are 400 naming the field and change nothing', async () => {
    const p = await createProject(u.owner, FULL_BODY, u);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ is_billable: false }, 'bill_by'],
      [{ bill_by: 'none', hourly_rate: 1 }, 'hourly_rate'],
      [{ is_billable: false, bill_by: 'none' }, 'is_fixed_fee'],
      [{ is_fixed_fee: false, fee: 10 }, 'fee'],
      [{ fee: null }, 'fee'],
      [{ budget: null }, 'budget'],
      [{ budget_by: 'task', budget: 5 }, 'budget'],
      [{ budget_by: 'none', budget_is_monthly: true }, 'budget_is_monthly'],
      [{ ends_on: '2000-01-01', starts_on: '2000-01-02' }, 'ends_on'],
      [{ hourly_rate: -5 }, 'hourly_rate'],
      [{ name: '' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field, JSON.stringify(body)).toBe(field);
    }
    const row = await storedProject(u.companyId, p.id);
    expect(row).toMatchObject({ is_billable: true, bill_by: 'project', is_fixed_fee: true, fee: '5000.00', budget_by: 'project', budget: '80.00', name: p.name });
    // starts_on alone past the stored ends_on names starts_on
    const q = await createProject(u.owner, { starts_on: '2024-01-01', ends_on: '2024-02-01' }, u);
    const late = await api(u.owner, 'PATCH', `/api/v2/projects/${q.id}`, { starts_on: '2024-03-01' });
    expect(late.statusCode).toBe(400);
    expect(late.json().field).toBe('starts_on');
  });

  it('clears values a mode change makes inapplicable: fee when fixed fee ends, the budget when budget_by moves to tasks', async () => {
    const p = await createProject(u.owner, FULL_BODY, u);
    const res = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { is_fixed_fee: false, budget_by: 'task' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ is_fixed_fee: false, fee: null, budget_by: 'task', budget: null });
    const nb = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { is_billable: false, bill_by: 'none' });
    expect(nb.json()).toMatchObject({ is_billable: false, bill_by: 'none' });
  });

  it('an empty body, unknown, read-only or create-only properties are 400', async () => {
    const p = await createProject(u.owner, {}, u);
    const empty = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, {});
    expect(empty.statusCode).toBe(400);
    for (const field of ['id', 'client', 'owner', 'tasks', 'created_at', 'updated_at', 'task_ids', 'colour']) {
      const res = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { [field]: 'x' });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
  });

  it('changes the owner to an active member only', async () => {
    const p = await createProject(u.owner, {}, u);
    const ok = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { owner_id: u.member.userId });
    expect(ok.json().owner).toEqual({ id: u.member.userId, name: 'Mia Member', email: u.member.email });
    const bad = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { owner_id: other.owner.userId });
    expect(bad.statusCode).toBe(400);
    const cleared = await api(u.owner, 'PATCH', `/api/v2/projects/${p.id}`, { owner_id: null });
    expect(cleared.json()).toMatchObject({ owner_id: null, owner: null });
  });
});

// ---------------------------------------------------------------------------

describe('effective-dated project rate', () => {
  it('a rate change never reprices an earlier date', async () => {
    const today = await workspaceTodayOf(ctx, ws.companyId);
    const p = await createProject(ws.owner, { hourly_rate: 100, starts_on: '2024-01-01' });
    const yesterday = addDays(today, -1);
    expect(await projectRate(ws.companyId, p.id, yesterday)).toBe('100.00');

    const changed = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { hourly_rate: 150 });
    expect(changed.json()).toMatchObject({ hourly_rate: 150, hourly_rate_effective_from: today });
    expect(await projectRate(ws.companyId, p.id, '2024-06-01')).toBe('100.00');
    expect(await projectRate(ws.companyId, p.id, yesterday)).toBe('100.00');
    expect(await projectRate(ws.companyId, p.id, today)).toBe('150.00');

    // A future rate applies from its date; today's body keeps today's rate.
    const future = addDays(today, 10);
    const scheduled = await api(ws.owner, 'PATCH', `/api/v2/projects/${p.id}`, { hourly_rate: 200, hourly_rate_effective_from: future });
    expect(scheduled.json()).toMatchObject({ hourly_rate: 150, hourly_rate_effective_from: today });
    expect(await projectRate(ws.companyId, p.id, addDays(future, -1))).toBe('150.00');
    expect(await projectRate(ws.companyId, p.id, future)).toBe('200.00');

    // When the clock reaches that date the body (and so the ETag) shows the new rate.
    const tagBefore = (await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`)).headers.etag;
    ctx.clock.advance(11 * 86_400_000);
    const later = await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`);
    expect(later.json()).toMatchObject({ hourly_rate: 200, hourly_rate_effective_from: future });
    expect(later.headers.etag).not.toBe(tagBefore);
    ctx.clock.advance(-11 * 86_400_000);
  });

  it('uses the workspace time zone for "today"', async () => {
    const w = await makeProjectWorkspace(ctx.db, 'Kiribati', 'Pacific/Kiritimati'); // UTC+14
    const p = await createProject(w.owner, { hourly_rate: 10 }, w);
    const res = await api(w.owner, 'PATCH', `/api/v2/projects/${p.id}`, { hourly_rate: 11 });
    expect(res.json().hourly_rate_effective_from).toBe(await workspaceTodayOf(ctx, w.companyId));
  });
});

// ---------------------------------------------------------------------------

describe('DELETE /api/v2/projects/:id', () => {
  async function archivedProject() {
    const task = await insertTask(ctx.db, ws.companyId, { rate: '10' });
    const p = await createProject(ws.owner, { hourly_rate: 50, task_ids: [task], is_active: false });
    await assign(ctx.db, ws.companyId, p.id, ws.member.userId);
    const etag = (await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`)).headers.etag as string;
    return { p, task, etag };
  }

  async function dependents(projectId: string) {
    const count = async (table: 'project_user_assignments' | 'project_task_assignments' | 'rates' | 'time_entries') =>
      Number(
        (await ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow()).n,
      );
    return {
      users: await count('project_user_assignments'),
      tasks: await count('project_task_assignments'),
      rates: await count('rates'),
      entries: await count('time_entries'),
    };
  }

  async function insertEntry(projectId: string, taskId: string, running: boolean) {
    await ctx.db
      .insertInto('time_entries')
      .values({
        company_id: ws.companyId,
        id: newId(),
        user_id: ws.member.userId,
        project_id: projectId,
        task_id: taskId,
        spent_date: '2024-05-01',
        duration_seconds: 3600,
        is_running: running,
        timer_started_at: running ? new Date() : null,
        billable: true,
        source: 'api',
      })
      .execute();
  }

  it('needs If-Match (428), a current one (412), and an archived project (409); then deletes it and its dependents (204)', async () => {
    const { p, task, etag } = await archivedProject();
    await insertEntry(p.id, task, false);
    const keep = await archivedProject();
    expect((await api(ws.owner, 'DELETE', `/api/v2/projects/${p.id}`)).statusCode).toBe(428);
    expect((await api(ws.owner, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': '"stale"' })).statusCode).toBe(412);
    expect(await dependents(p.id)).toEqual({ users: 2, tasks: 1, rates: 2, entries: 1 });
    const res = await api(ws.admin, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': etag });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await storedProject(ws.companyId, p.id)).toBeUndefined();
    expect(await dependents(p.id)).toEqual({ users: 0, tasks: 0, rates: 0, entries: 0 });
    expect((await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`)).statusCode).toBe(404);
    expect(await dependents(keep.p.id)).toEqual({ users: 2, tasks: 1, rates: 2, entries: 0 });
  });

  it('keeps historical invoice lines: the line outlives the project and its billed entry', async () => {
    const { p, task, etag } = await archivedProject();
    const invoiceId = newId();
    const lineId = newId();
    await ctx.db
      .insertInto('invoices')
      .values({ company_id: ws.companyId, id: invoiceId, client_id: ws.clientId, number: `INV-${invoiceId.slice(-6)}`, state: 'open', issue_date: '2024-05-31', due_date: '2024-06-30', currency: 'USD' })
      .execute();
    await ctx.db
      .insertInto('invoice_line_items')
      .values({ company_id: ws.companyId, id: lineId, invoice_id: invoiceId, description: 'May work', quantity: '1', unit_price: '50', project_id: p.id, import_source: 'time' })
      .execute();
    await insertEntry(p.id, task, false);
    await ctx.db.updateTable('time_entries').set({ is_billed: true, invoice_id: invoiceId, invoice_line_id: lineId }).where('project_id', '=', p.id).execute();
    const res = await api(ws.owner, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': etag });
    expect(res.statusCode, res.body).toBe(204);
    const line = await ctx.db.selectFrom('invoice_line_items').selectAll().where('id', '=', lineId).executeTakeFirst();
    expect(line).toMatchObject({ description: 'May work', quantity: '1.000000', unit_price: '50.0000', project_id: null });
    expect(await dependents(p.id)).toEqual({ users: 0, tasks: 0, rates: 0, entries: 0 });
  });

  it('an active project is 409 and nothing is deleted', async () => {
    const p = await createProject(ws.owner);
    const etag = (await api(ws.owner, 'GET', `/api/v2/projects/${p.id}`)).headers.etag as string;
    const res = await api(ws.owner, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': etag });
    expect(res.statusCode).toBe(409);
    expect(await storedProject(ws.companyId, p.id)).toBeDefined();
  });

  it('a running timer on the project is 409 and nothing is deleted', async () => {
    const { p, task, etag } = await archivedProject();
    await insertEntry(p.id, task, true);
    const res = await api(ws.owner, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': etag });
    expect(res.statusCode).toBe(409);
    expect(res.json().running_entry_count).toBe(1);
    expect(await dependents(p.id)).toEqual({ users: 2, tasks: 1, rates: 2, entries: 1 });
  });

  it('only owners and administrators may delete', async () => {
    const { p, etag } = await archivedProject();
    await assign(ctx.db, ws.companyId, p.id, ws.mgrAll.userId, { manager: true });
    for (const who of [ws.mgrAll, ws.member, ws.contractor, ws.memberPersonal, ws.adminPersonal]) {
      const res = await api(who, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': etag });
      expect(res.statusCode).toBe(403);
    }
    expect(await storedProject(ws.companyId, p.id)).toBeDefined();
    expect((await api(ws.owner, 'DELETE', `/api/v2/projects/${p.id}`, undefined, { 'if-match': '*' })).statusCode).toBe(204);
  });
});

// ---------------------------------------------------------------------------

describe('cross-workspace ids', () => {
  it('are 404 on every project route, and change nothing', async () => {
    const foreign = await createProject(other.owner, FULL_BODY, other);
    const url = `/api/v2/projects/${foreign.id}`;
    const routes: Array<[Parameters<typeof api>[1], string, unknown?, Record<string, string>?]> = [
      ['GET', url],
      ['PATCH', url, { name: 'hijack' }],
      ['DELETE', url, undefined, { 'if-match': '*' }],
      ['GET', `${url}/user_assignments`],
      ['POST', `${url}/user_assignments`, { user_id: ws.member.userId }],
      ['GET', `${url}/user_assignments/${other.owner.userId}`],
      ['PATCH', `${url}/user_assignments/${other.owner.userId}`, { is_active: false }],
      ['DELETE', `${url}/user_assignments/${other.owner.userId}`],
    ];
    // other.owner created the foreign project, so is assigned to it (its user assignment routes have a target).
    for (const [method, path, body, headers] of routes) {
      for (const who of [ws.owner, ws.admin]) {
        const res = await api(who, method, path, body, headers);
        expect(res.statusCode, `${method} ${path}`).toBe(404);
      }
    }
    expect((await storedProject(other.companyId, foreign.id))?.name).toBe(foreign.name);
    const read = await api(other.owner, 'GET', url);
    expect(read.json().name).toBe(foreign.name);
  });

  it('a foreign owner_id or client_id in a list filter matches nothing', async () => {
    const res = await api(ws.owner, 'GET', `/api/v2/projects?owner_id=${other.owner.userId}`);
    expect(res.json().projects).toEqual([]);
  });
});

describe('authentication', () => {
  it('refuses requests without a key (401)', async () => {
    expect((await api(null, 'GET', '/api/v2/projects')).statusCode).toBe(401);
    expect((await api(null, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: 'x' })).statusCode).toBe(401);
  });
});

describe('OpenAPI and capabilities', () => {
  it('documents the project routes in a valid OpenAPI document', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
    const result = await new Validator().validate(doc);
    expect(result.valid, JSON.stringify(result.errors)).toBe(true);
    expect(Object.keys(doc.paths['/api/v2/projects'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/v2/projects/{id}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
    expect(Object.keys(doc.paths['/api/v2/projects/{project_id}/user_assignments'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/v2/projects/{project_id}/user_assignments/{user_id}'])).toEqual(
      expect.arrayContaining(['get', 'patch', 'delete']),
    );
  });

  it('a personal sync key reports that it can read projects', async () => {
    const me = (await api(ws.memberPersonal, 'GET', '/api/v2/users/me')).json();
    expect(me.capabilities.can_read_projects).toBe(true);
  });
});
