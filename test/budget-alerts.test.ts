import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { newId } from '../src/ids.ts';
import { runBudgetAlerts } from '../src/modules/reports/budget-alerts/index.ts';
import { alertDue, alertPeriod, percentSpent } from '../src/modules/reports/budget-alerts/rules.ts';
import type { MailMessage } from '../src/outbox/enqueue.ts';
import { runCli } from './cli-runner.ts';
import { insertEntryRow } from './fixtures/catalog.ts';
import { apiOf, assign, insertTask, makeProjectWorkspace, uniqueName, type ProjectWorkspace } from './fixtures/projects.ts';
import { createTestContext, onPostgres, type Caller, type TestContext } from './helpers.ts';

/**
 * Budget alerts (Harvest's "notify when over budget"): the project's two settings through the
 * API with their bad input and permission; the scheduler's e-mail to the project's managers once
 * per budget, period and threshold, also when two runs race; a monthly budget each month; the
 * owners and administrators of a project nobody manages; amounts only to whom the budget's kind
 * is shown; another workspace untouched; the operator's command.
 */

describe('when a budget alerts', () => {
  it('alerts at the threshold of a budget above 0, and names its period', () => {
    expect(alertDue('10', '7.99', '80')).toBe(false);
    expect(alertDue('10', '8', '80')).toBe(true);
    expect(alertDue('10', '15', '150')).toBe(true);
    expect(alertDue('0', '5', '80')).toBe(false);
    expect(alertDue(null, '5', '80')).toBe(false);
    expect(percentSpent('10', '7.996')).toBe(79);
    expect(alertPeriod(true, '2026-03-01')).toBe('2026-03');
    expect(alertPeriod(false, '2026-03-01')).toBe('all');
  });
});

let ctx: TestContext;
let ws: ProjectWorkspace;
let other: ProjectWorkspace;
const api = apiOf(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.advance(Date.parse('2026-03-10T09:00:00Z') - ctx.clock.now().getTime());
  ws = await makeProjectWorkspace(ctx.db, 'Acme');
  other = await makeProjectWorkspace(ctx.db, 'Other');
  // One manager reads German: each e-mail is in its recipient's language.
  await ctx.db.updateTable('users').set({ language: 'de' }).where('id', '=', ws.mgrAll.userId).execute();
});
afterAll(() => ctx.close());

const run = (workspaceId?: string) => runBudgetAlerts({ db: ctx.db, clock: ctx.clock.now, baseUrl: 'https://sheaf.example' }, { workspaceId });

async function alertMails(companyId = ws.companyId) {
  const rows = await ctx.db.selectFrom('outbox').select('payload').where('company_id', '=', companyId).where('kind', '=', 'budget_alert').orderBy('id').execute();
  return rows.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as MailMessage);
}

/** A project with alerts on, through the API, with a task; `manager` (if given) its project manager. */
async function alertedProject(body: Record<string, unknown>, manager?: Caller, w: ProjectWorkspace = ws) {
  const res = await api(w.owner, 'POST', '/api/v2/projects', { client_id: w.clientId, name: uniqueName(), task_ids: [], notify_when_over_budget: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const projectId = res.json().id as string;
  const taskId = await insertTask(ctx.db, w.companyId);
  await ctx.db.insertInto('project_task_assignments').values({ company_id: w.companyId, project_id: projectId, task_id: taskId, is_active: true, billable: true }).execute();
  // The creator (the owner) is assigned, not as a manager.
  if (manager) await assign(ctx.db, w.companyId, projectId, manager.userId, { manager: true });
  return { projectId, taskId, name: res.json().name as string };
}

const hours = async (p: { projectId: string; taskId: string }, h: number, date = '2026-03-02', w: ProjectWorkspace = ws) =>
  insertEntryRow(ctx.db, w.companyId, { userId: w.member.userId, projectId: p.projectId, taskId: p.taskId, spentDate: date, seconds: h * 3600 });

describe('the project settings', () => {
  it('reads and writes notify_when_over_budget and its percentage (default off at 80)', async () => {
    const made = await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), task_ids: [] });
    expect(made.json()).toMatchObject({ notify_when_over_budget: false, over_budget_notification_percentage: 80 });
    const id = made.json().id;
    const changed = await api(ws.owner, 'PATCH', `/api/v2/projects/${id}`, { notify_when_over_budget: true, over_budget_notification_percentage: 92.5 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await api(ws.owner, 'GET', `/api/v2/projects/${id}`)).json()).toMatchObject({ notify_when_over_budget: true, over_budget_notification_percentage: 92.5 });
    // Kept without a budget too (as Harvest keeps it): such a project is never alerted.
    expect(changed.json().budget_by).toBe('none');
  });

  it('refuses a bad percentage or flag with a 400 naming it, and a manager who may not set billing and budget settings with a 403; nothing changes', async () => {
    const id = (await api(ws.owner, 'POST', '/api/v2/projects', { client_id: ws.clientId, name: uniqueName(), task_ids: [] })).json().id;
    for (const bad of [0, -5, 1000.01, 12.345, '80', null]) {
      const res = await api(ws.owner, 'PATCH', `/api/v2/projects/${id}`, { over_budget_notification_percentage: bad });
      expect(res.statusCode, `${bad}: ${res.body}`).toBe(400);
      expect(res.json().field ?? res.json().error_description).toMatch(/over_budget_notification_percentage/);
    }
    expect((await api(ws.owner, 'PATCH', `/api/v2/projects/${id}`, { notify_when_over_budget: 'yes' })).statusCode).toBe(400);
    // Budget settings are commercial: a manager without View billable rates gets 403 whatever the value.
    await assign(ctx.db, ws.companyId, id, ws.mgrEdit.userId, { manager: true });
    expect((await api(ws.mgrEdit, 'PATCH', `/api/v2/projects/${id}`, { notify_when_over_budget: true })).statusCode).toBe(403);
    expect((await api(ws.owner, 'GET', `/api/v2/projects/${id}`)).json()).toMatchObject({ notify_when_over_budget: false, over_budget_notification_percentage: 80 });
    // Another workspace's project is not found.
    expect((await api(other.owner, 'PATCH', `/api/v2/projects/${id}`, { notify_when_over_budget: true })).statusCode).toBe(404);
  });
});

describe('the alerts', () => {
  it("e-mails the project's managers once the threshold is spent, once, even when two runs race; a raised budget arms it again", async () => {
    const p = await alertedProject({ budget_by: 'project', budget: 10 }, ws.mgrAll);
    await assign(ctx.db, ws.companyId, p.projectId, ws.mgrRates.userId, { manager: true });
    await hours(p, 7.5);
    expect(await run(ws.companyId)).toEqual({ sent: 0 });

    await hours(p, 0.5);
    const [a, b] = await Promise.all([run(ws.companyId), run(ws.companyId)]);
    expect(a.sent + b.sent).toBe(1);
    expect(await run(ws.companyId)).toEqual({ sent: 0 });
    const mails = (await alertMails()).filter((m) => m.text.includes(p.name));
    expect(mails.map((m) => m.to[0]!.email).sort()).toEqual([ws.mgrAll.email, ws.mgrRates.email].sort());
    const german = mails.find((m) => m.to[0]!.email === ws.mgrAll.email)!;
    expect(german.subject).toBe(`Budgetwarnung: ${p.name} hat 80 % des Budgets verbraucht`);
    expect(german.text).toContain('hat 80 % des Budgets verbraucht: 8 Stunden von 10 Stunden.');
    expect(german.text).toContain(`https://sheaf.example/projects/${p.projectId}`);
    const english = mails.find((m) => m.to[0]!.email === ws.mgrRates.email)!;
    expect(english.text).toContain('has used 80 % of its budget: 8 hours of 10 hours.');
    // The member who tracked the time, and the owner, are not managers of it: nothing to them.
    expect(mails.some((m) => m.to[0]!.email === ws.member.email || m.to[0]!.email === ws.owner.email)).toBe(false);

    // Raised to 20 hours: 40 %, nothing; at 17 hours (85 %) the new budget alerts once.
    expect((await api(ws.owner, 'PATCH', `/api/v2/projects/${p.projectId}`, { budget: 20 })).statusCode).toBe(200);
    expect(await run(ws.companyId)).toEqual({ sent: 0 });
    await hours(p, 9);
    expect(await run(ws.companyId)).toEqual({ sent: 1 });
    expect((await alertMails()).filter((m) => m.text.includes(p.name))).toHaveLength(4);
  });

  it('alerts a monthly budget once a month, counting the month in the workspace', async () => {
    const p = await alertedProject({ budget_by: 'project', budget: 4, budget_is_monthly: true, over_budget_notification_percentage: 100 }, ws.mgrAll);
    await hours(p, 4, '2026-02-20'); // last month's: not this month's budget
    expect(await run(ws.companyId)).toEqual({ sent: 0 });
    await hours(p, 4, '2026-03-03');
    expect(await run(ws.companyId)).toEqual({ sent: 1 });
    const [mail] = (await alertMails()).filter((m) => m.text.includes(p.name));
    expect(mail!.text).toContain('hat 100 % des Budgets für März 2026 verbraucht');
    ctx.clock.advance(Date.parse('2026-04-02T09:00:00Z') - ctx.clock.now().getTime());
    expect(await run(ws.companyId)).toEqual({ sent: 0 });
    await hours(p, 5, '2026-04-01');
    expect(await run(ws.companyId)).toEqual({ sent: 1 });
    expect(await run(ws.companyId)).toEqual({ sent: 0 });
    ctx.clock.advance(Date.parse('2026-03-10T09:00:00Z') - ctx.clock.now().getTime());
  });

  it("tells the owners and administrators of a project nobody manages; a cost budget's amounts only to whom may see costs", async () => {
    const p = await alertedProject({ budget_by: 'project', budget: 2 });
    await hours(p, 3);
    expect(await run(ws.companyId)).toEqual({ sent: 1 });
    const to = (await alertMails()).filter((m) => m.text.includes(p.name)).map((m) => m.to[0]!.email);
    expect(to.sort()).toEqual([ws.owner.email, ws.admin.email].sort());

    // Internal cost: 3 h at a cost rate of 50 = 150 of 100. mgrAll sees costs, mgrRates does not.
    const cost = await alertedProject({ budget_by: 'project_cost', budget: 100 }, ws.mgrAll);
    await assign(ctx.db, ws.companyId, cost.projectId, ws.mgrRates.userId, { manager: true });
    await ctx.db.insertInto('rates').values({ company_id: ws.companyId, id: newId(), kind: 'cost', user_id: ws.member.userId, effective_from: '2026-01-01', hourly_rate: '50.00' }).execute();
    await hours(cost, 3);
    expect(await run(ws.companyId)).toEqual({ sent: 1 });
    const mails = (await alertMails()).filter((m) => m.text.includes(cost.name));
    expect(mails.find((m) => m.to[0]!.email === ws.mgrAll.email)!.text).toMatch(/hat 150 % des Budgets verbraucht: 150,00\s\$ von 100,00\s\$\./);
    const blind = mails.find((m) => m.to[0]!.email === ws.mgrRates.email)!;
    expect(blind.text).toContain('has used 150 % of its budget.');
    expect(blind.text).not.toMatch(/100\.00|150\.00/);
  });

  it('leaves archived projects, projects without alerts and other workspaces alone', async () => {
    const off = await alertedProject({ budget_by: 'project', budget: 1, notify_when_over_budget: false }, ws.mgrAll);
    const archived = await alertedProject({ budget_by: 'project', budget: 1 }, ws.mgrAll);
    await hours(off, 2);
    await hours(archived, 2);
    expect((await api(ws.owner, 'PATCH', `/api/v2/projects/${archived.projectId}`, { is_active: false })).statusCode).toBe(200);
    const elsewhere = await alertedProject({ budget_by: 'project', budget: 1 }, other.mgrAll, other);
    await hours(elsewhere, 2, '2026-03-02', other);
    expect(await run(ws.companyId)).toEqual({ sent: 0 });
    expect(await alertMails(other.companyId)).toHaveLength(0);
    expect(await run(other.companyId)).toEqual({ sent: 1 });
    expect((await alertMails(other.companyId)).map((m) => m.to[0]!.email)).toEqual([other.mgrAll.email]);
  });
});

describe('sheaf admin budget-alerts run-due', () => {
  const database = () => ({ db: ctx.db, kind: onPostgres ? 'postgresql' : 'pglite', close: async () => {} }) as unknown as Database;
  const sheaf = (...args: string[]) => runCli(args, { env: { LOG_LEVEL: 'silent', PUBLIC_URL: 'https://cli.example' }, openDatabase: async () => database() });

  it('runs the alerts once, with the configured address in the link', async () => {
    const p = await alertedProject({ budget_by: 'project', budget: 1 }, ws.mgrAll);
    await hours(p, 1, new Date().toISOString().slice(0, 10));
    const ran = await sheaf('admin', 'budget-alerts', 'run-due', '--workspace', ws.companyId, '--json');
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.json).toEqual({ sent: 1 });
    expect((await alertMails()).find((m) => m.text.includes(p.name))!.text).toContain(`https://cli.example/projects/${p.projectId}`);
    expect((await sheaf('admin', 'budget-alerts', 'run-due', '--workspace', ws.companyId, '--json')).json).toEqual({ sent: 0 });
    expect((await sheaf('admin', 'budget-alerts', 'run-due', '--workspace', 'nope')).code).toBe(2);
  });
});
