import type { Page } from '@playwright/test';
import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * The home page (issue 21 item 9): where you stand, by role. A member sees the week against
 * their expected hours, the running timer and recent work, and continues one (the server
 * then runs a timer on that project and task); a manager also sees approvals waiting and a
 * project over budget; an administrator also the uninvoiced and overdue amounts per
 * currency. Every load is three calls: session, timer, home.
 */

async function signInAs(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await signIn(page, who);
}

/** Mia (member, 40 h expected, Max's teammate) with 2 h of "Homepage hero" and 1 h of "Logo" this week on Website (a 2 h budget Max manages). */
async function team(workspace: TestWorkspace) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  const mia = await workspace.seed.memberWithPassword('Mia');
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  await ok(workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [mia.id] }));
  await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { expected_weekly_hours: '40' }));
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme' }));
  const design = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const build = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Build' }));
  const project = await ok(
    workspace.api('POST', '/api/v2/projects', {
      client_id: client.id,
      name: 'Website',
      task_ids: [design.id, build.id],
      is_billable: true,
      bill_by: 'project',
      hourly_rate: 100,
      budget_by: 'project',
      budget: 2,
    }),
  );
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: mia.id }));
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: max.id, is_project_manager: true }));
  const home = await ok(workspace.api('GET', '/web/api/home', undefined, mia.id));
  const day = home.today as string;
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: design.id, spent_date: day, hours: 2, notes: 'Homepage hero' }, mia.id));
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: build.id, spent_date: day, hours: 1, notes: 'Logo' }, mia.id));
  return { mia, max, project, design, build, day, week: home.week as { from: string; to: string } };
}

const running = async (workspace: TestWorkspace, as: string) =>
  (await ok(workspace.api('GET', '/api/v2/time_entries?is_running=true', undefined, as))).time_entries as { project_id: string; task_id: string; notes: string | null }[];

/** The page's calls: the session, the timer and the home read, nothing else. */
function expectThreeCalls(calls: string[]) {
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  expect(calls).toEqual(expect.arrayContaining(['GET /web/api/home']));
  expect(calls.filter((c) => c === 'GET /web/api/home')).toHaveLength(1);
}

test('a member: the week against expected hours, recent work, Continue starts a timer; no money, no team sections', async ({ page, workspace }) => {
  const t = await team(workspace);
  await signInAs(page, t.mia);
  const calls = await visit(page, '/', 'home-member');
  expectThreeCalls(calls);
  const week = page.getByRole('region', { name: 'This week' });
  await expect(week).toContainText('3:00 of 40:00 expected');
  await expect(page.getByRole('region', { name: 'Tracking now' })).toContainText('No timer is running.');
  for (const hidden of ['Awaiting your approval', 'Budgets', 'Uninvoiced', 'Overdue invoices']) {
    await expect(page.getByRole('region', { name: hidden })).toHaveCount(0);
  }
  await expect(page.getByRole('main')).not.toContainText(/€|\$|budget/i);

  const recent = page.getByRole('region', { name: 'Recent work' });
  await recent.getByRole('button', { name: 'Continue Acme – Website – Design: Homepage hero' }).click();
  await expect.poll(async () => (await running(workspace, t.mia.id)).map((e) => [e.project_id, e.task_id, e.notes])).toEqual([[t.project.id, t.design.id, 'Homepage hero']]);
  await expect(page.getByRole('region', { name: 'Tracking now' })).toContainText('Acme – Website – Design');
  await expect(page.getByRole('timer')).toBeVisible(); // the timer bar's
  await checkPage(page, 'home-member-running');

  // Another device starts a timer meanwhile: Continue offers to replace it.
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.design.id, is_running: true, replace_running: true }, t.mia.id));
  await recent.getByRole('button', { name: 'Continue Acme – Website – Build: Logo' }).click();
  await expect(recent.getByRole('alert')).toContainText('A timer is already running');
  await checkPage(page, 'home-member-conflict');
  await recent.getByRole('button', { name: 'Stop it and start this one' }).click();
  await expect.poll(async () => (await running(workspace, t.mia.id)).map((e) => [e.task_id, e.notes])).toEqual([[t.build.id, 'Logo']]);
  await expect(page.getByRole('region', { name: 'Tracking now' })).toContainText('Acme – Website – Build');
  await expectClean(page);
});

test('a manager: approvals waiting and a managed project over budget; no billing', async ({ page, workspace }) => {
  const t = await team(workspace);
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: t.week.from, to: t.week.to }, t.mia.id));
  await signInAs(page, t.max);
  const calls = await visit(page, '/', 'home-manager');
  expectThreeCalls(calls);
  const approvals = page.getByRole('region', { name: 'Awaiting your approval' });
  await expect(approvals).toContainText('1 week submitted by 1 person.');
  await expect(approvals.getByRole('link', { name: 'Review approvals' })).toHaveAttribute('href', '/approvals');
  const budgets = page.getByRole('region', { name: 'Budgets' });
  await expect(budgets.getByRole('listitem')).toHaveCount(1);
  await expect(budgets).toContainText('Website');
  await expect(budgets).toContainText('150 % · Over budget');
  await expect(budgets).toContainText('3:00 h of 2:00 h');
  await expect(page.getByRole('region', { name: 'Uninvoiced' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Overdue invoices' })).toHaveCount(0);
  await budgets.getByRole('link', { name: 'Website' }).click();
  await expect(page).toHaveURL(`/projects/${t.project.id}`);
});

test('an administrator: everything, with uninvoiced and overdue amounts per currency, never added up', async ({ page, workspace }) => {
  const t = await team(workspace);
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: false }));
  // Mia's 3 h at 100 in the workspace currency; an hour at 80 for a EUR client; an overdue EUR invoice of 250.
  const globex = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Support' }));
  // A fee budget of 90 (in the client's euros), 80 of it used by the hour below.
  const intranet = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: globex.id, name: 'Intranet', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 80, budget_by: 'task_fees' }),
  );
  await ok(workspace.api('PATCH', `/api/v2/projects/${intranet.id}/task_assignments/${task.id}`, { budget: 90 }));
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: intranet.id, task_id: task.id, spent_date: t.day, hours: 1 }));
  const invoice = await ok(
    workspace.api('POST', '/api/v2/invoices', {
      client_id: globex.id,
      issue_date: '2025-01-01',
      due_date: '2025-01-31',
      line_items: [{ kind: 'Service', description: 'Audit', quantity: 1, unit_price: 250 }],
    }),
  );
  await ok(workspace.api('POST', `/api/v2/invoices/${invoice.id}/messages`, { event_type: 'send', recipients: [{ email: 'ap@example.com' }] }));
  const admin = await workspace.seed.memberWithPassword('Ada', 'administrator');
  await signInAs(page, admin);
  const calls = await visit(page, '/', 'home-administrator');
  expectThreeCalls(calls);
  const currency = (await ok(workspace.api('GET', '/web/api/workspace'))).currency as string;
  // The app formats in the browser's locale: match the amount and the currency's symbol.
  const money = (amount: number, code: string) => new RegExp(`${code === 'EUR' ? '€' : code === 'USD' ? '\\$' : code}${amount}\\.00`);
  const uninvoiced = page.getByRole('list', { name: 'Uninvoiced amounts per currency' }).getByRole('listitem');
  const lines: [string, number][] = currency === 'EUR' ? [['EUR', 380]] : [['EUR', 80], [currency, 300]];
  await expect(uninvoiced).toHaveText(lines.sort((a, b) => a[0].localeCompare(b[0])).map(([code, amount]) => money(amount, code)));
  const overdue = page.getByRole('region', { name: 'Overdue invoices' });
  await expect(overdue).toContainText('1 open invoice is past the due date.');
  await expect(overdue.getByRole('listitem')).toHaveText([/€250\.00\s*1 invoice/]);
  await expect(overdue.getByRole('link', { name: 'Open invoices' })).toHaveAttribute('href', '/invoices?state=open');
  await expect(page.getByRole('region', { name: 'Budgets' })).toContainText('Website');
  // A money budget says its currency: the client's euros, not a bare 80.00 of 90.00.
  await expect(page.getByRole('region', { name: 'Budgets' })).toContainText('€80.00 of €90.00');
  await expect(page.getByRole('region', { name: 'Awaiting your approval' })).toHaveCount(0); // approvals are off
  await overdue.getByRole('link', { name: 'Open invoices' }).click();
  await expect(page).toHaveURL('/invoices?state=open');
  await expect(page.getByRole('main')).toContainText('Globex');
});
