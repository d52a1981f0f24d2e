import type { Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * The projects area (issue 16 item 4): an administrator creates a project with a rate and a
 * budget, adds a task with a budget and a person as its manager, changes the rate from a date
 * and sees the history; the API's refusal shows beside the field; a stale edit is a 412 with
 * a reload; a double click creates one project; the list searches and filters on the server;
 * a member never receives or sees a rate.
 */

async function client(workspace: { api: (m: 'POST', u: string, b: unknown) => Promise<{ status: number; body: any }> }, name: string) {
  const res = await workspace.api('POST', '/api/v2/clients', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function pickOption(page: Page, select: RegExp, option: string) {
  await page.getByRole('button', { name: select }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Waits until nothing on the page is still opening or closing, before axe reads it: no picker's
 * option list left in the document, no React Aria overlay entering or exiting, no running
 * animation or transition. (axe-core threw once when a closing list left the page mid-run.)
 */
async function settled(page: Page) {
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(page.locator('[data-entering], [data-exiting]')).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

test('an administrator creates a project, adds a task and a manager, and changes the rate from a date', async ({ page, workspace }) => {
  test.slow(); // four pages and two states each checked by axe at two widths, a dialog checked too
  await client(workspace, 'Acme');
  const design = await workspace.api('POST', '/api/v2/tasks', { name: 'Design' });
  expect(design.status).toBe(201);
  await workspace.seed.memberWithPassword('Max', 'manager');

  await visit(page, '/projects', 'projects-empty');
  await expect(page.getByText('No projects yet.')).toBeVisible();
  await page.getByRole('link', { name: 'New project' }).click();
  await expect(page.getByRole('heading', { name: 'New project' })).toBeVisible();
  const calls = await visit(page, '/projects/new', 'project-new');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, the choices

  await page.getByRole('combobox', { name: 'Client' }).fill('Acm');
  await page.getByRole('option', { name: 'Acme' }).click();
  // The API's refusal lands beside its field: a blank name (spaces pass the browser's check).
  await page.getByRole('textbox', { name: 'Name' }).fill('   ');
  await page.getByRole('textbox', { name: 'Project hourly rate' }).fill('100');
  await pickOption(page, /Budget by$/, 'Total project hours');
  await page.getByRole('textbox', { name: 'Budget (hours)' }).fill('120');
  // The budget alert: its share of the budget appears once it is asked for.
  await expect(page.getByRole('textbox', { name: 'Alert at % of the budget' })).toHaveCount(0);
  await page.getByText('E-mail the project’s managers when the budget is running out').click();
  await page.getByRole('textbox', { name: 'Alert at % of the budget' }).fill('90');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('name must not be blank.')).toBeVisible();
  await checkPage(page, 'project-new-invalid');

  // A double click creates one project (the Idempotency-Key of the body).
  await page.getByRole('textbox', { name: 'Name' }).fill('Website');
  await page.getByRole('textbox', { name: 'Code' }).fill('WEB-1');
  await page.getByRole('button', { name: 'Create project' }).dblclick();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Website', level: 1 })).toBeVisible();
  const listed = await workspace.api('GET', '/api/v2/projects');
  expect(listed.body.projects.filter((p: { name: string }) => p.name === 'Website')).toHaveLength(1);
  const project = listed.body.projects.find((p: { name: string }) => p.name === 'Website');
  expect(project).toMatchObject({ code: 'WEB-1', bill_by: 'project', hourly_rate: 100, budget_by: 'project', budget: 120, notify_when_over_budget: true, over_budget_notification_percentage: 90 });

  // A task with a budget.
  await page.getByRole('button', { name: 'Add a task' }).click();
  const taskDialog = page.getByRole('dialog');
  await taskDialog.getByRole('button', { name: /Task$/ }).click();
  await page.getByRole('option', { name: 'Design' }).click();
  await expect(taskDialog.getByRole('button', { name: /Task$/ })).toContainText('Design');
  await taskDialog.getByRole('textbox', { name: 'Budget (hours)' }).fill('12');
  await expect(taskDialog.getByRole('heading', { name: 'Add a task to the project' })).toBeVisible();
  await settled(page);
  await expectAccessible(page, 'the add-task dialog');
  await taskDialog.getByRole('button', { name: 'Add task' }).click();
  await expect(taskDialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Design/ })).toContainText('12 h');

  // A person as the project's manager.
  await page.getByRole('button', { name: 'Add a person' }).click();
  const personDialog = page.getByRole('dialog');
  await personDialog.getByRole('button', { name: /Person$/ }).click();
  await page.getByRole('option', { name: 'Max Tester' }).click();
  await personDialog.getByText('Manages this project').click();
  await expect(personDialog.getByRole('checkbox', { name: 'Manages this project' })).toBeChecked();
  await personDialog.getByRole('button', { name: 'Add person' }).click();
  await expect(personDialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Max Tester/ })).toContainText('Manager');

  // A new rate asks from which date, and says earlier work is not repriced.
  await page.getByRole('textbox', { name: 'Project hourly rate' }).fill('137.5');
  await page.getByRole('textbox', { name: 'Project hourly rate' }).blur();
  await expect(page.getByText(/Work dated before this day keeps its earlier rate .*: it is not repriced\./)).toBeVisible();
  await expect(page.getByRole('group', { name: 'New rate applies from' })).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();
  const history = page.getByRole('region', { name: 'Rate history' });
  await expect(history.getByRole('table', { name: 'Project rate' })).toBeVisible();
  await expect(history.getByRole('table', { name: 'Project rate' })).toContainText('137.50');
  await expect(history.getByRole('row', { name: /The start/ })).toContainText('100.00');
  await checkPage(page, 'project-page');
  const after = await workspace.api('GET', `/api/v2/projects/${project.id}`);
  expect(after.body.hourly_rate).toBe(137.5);
  expect(after.body.hourly_rate_effective_from).toMatch(/^\d{4}-\d\d-\d\d$/);

  await visit(page, `/projects/${project.id}`, 'project-edit');
  await expectClean(page);
});

test('a stale edit is refused with a way to load the other version', async ({ page, workspace }) => {
  const acme = await client(workspace, 'Acme');
  const created = await workspace.api('POST', '/api/v2/projects', { client_id: acme, name: 'Website' });
  await visit(page, `/projects/${created.body.id}`, 'project-before-stale');
  // Someone else renames it meanwhile.
  expect((await workspace.api('PATCH', `/api/v2/projects/${created.body.id}`, { name: 'Website 2026' })).status).toBe(200);
  await page.getByRole('textbox', { name: 'Code' }).fill('WEB');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('This project was changed by someone else since you opened it')).toBeVisible();
  expect((await workspace.api('GET', `/api/v2/projects/${created.body.id}`)).body.code).toBeNull();
  await page.getByRole('button', { name: 'Reload the project' }).click();
  await expect(page.getByRole('heading', { name: 'Website 2026', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Website 2026');

  // Archive, then delete (archived only, with the current ETag).
  await page.getByRole('button', { name: 'Archive project' }).click();
  await expect(page.getByRole('button', { name: 'Restore project' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete project' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete project' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  expect((await workspace.api('GET', `/api/v2/projects/${created.body.id}`)).status).toBe(404);
  await expectClean(page);
});

test('the list pages, searches and filters on the server, in the URL', async ({ page, workspace }) => {
  const acme = await client(workspace, 'Acme');
  const globex = await client(workspace, 'Globex');
  for (let i = 1; i <= 52; i++) {
    const res = await workspace.api('POST', '/api/v2/projects', { client_id: acme, name: `Project ${String(i).padStart(2, '0')}`, task_ids: [] });
    expect(res.status).toBe(201);
  }
  await workspace.api('POST', '/api/v2/projects', { client_id: globex, name: 'Website', code: 'GLX-WEB', task_ids: [] });
  const old = await workspace.api('POST', '/api/v2/projects', { client_id: globex, name: 'Old intranet', task_ids: [] });
  await workspace.api('PATCH', `/api/v2/projects/${old.body.id}`, { is_active: false });

  const calls = await visit(page, '/projects', 'projects-list');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, one page of projects
  await expect(page.getByText('Page 1 of 2 (53 projects)')).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(51); // a header and 50 projects
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole('link', { name: 'Website' })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('glx');
  await expect(page).toHaveURL(/search=glx/);
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Website' })).toBeVisible();
  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  await expect(page.getByRole('row')).toHaveCount(51);

  await page.goto('/projects?status=archived');
  await expect(page.getByRole('link', { name: 'Old intranet' })).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2);

  await page.goto('/projects');
  await pickOption(page, /Client$/, 'Globex');
  await expect(page).toHaveURL(new RegExp(`client_id=${globex}`));
  await expect(page.getByRole('row')).toHaveCount(2);
  await expectClean(page);
});

test('a member never receives or sees a rate, fee or budget', async ({ page, workspace }) => {
  const mia = await workspace.seed.memberWithPassword('Mia');
  const acme = await client(workspace, 'Acme');
  const task = await workspace.api('POST', '/api/v2/tasks', { name: 'Design' });
  const created = await workspace.api('POST', '/api/v2/projects', {
    client_id: acme,
    name: 'Website',
    hourly_rate: 137.5,
    is_fixed_fee: true,
    fee: 4137.5,
    budget_by: 'project',
    budget: 137.5,
    task_ids: [task.body.id],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id;
  expect((await workspace.api('PATCH', `/api/v2/projects/${id}/task_assignments/${task.body.id}`, { hourly_rate: 137.5, budget: 137.5 })).status).toBe(200);
  expect((await workspace.api('POST', `/api/v2/projects/${id}/user_assignments`, { user_id: mia.id, hourly_rate: 137.5 })).status).toBe(201);

  const bodies: string[] = [];
  page.on('response', async (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/api/') || path.startsWith('/web/api/')) bodies.push(`${path}: ${await response.text().catch(() => '')}`);
  });
  await signIn(page, mia);
  await visit(page, '/projects', 'projects-member');
  await expect(page.getByRole('link', { name: 'Website' })).toBeVisible();
  await page.getByRole('link', { name: 'Website' }).click();
  await expect(page.getByRole('heading', { name: 'Website', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: /Design/ })).toBeVisible();
  await checkPage(page, 'project-member');
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Rate history' })).toHaveCount(0);

  const rate = /137[.,]5|4[.,]?137/;
  expect(await page.locator('body').innerText()).not.toMatch(rate);
  expect(bodies.length).toBeGreaterThan(3);
  for (const body of bodies) expect(body).not.toMatch(rate);
  await expectClean(page);
});

test("a project's manager without \"See billable rates\" edits it without ever receiving a rate or fee", async ({ page, workspace }) => {
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  const acme = await client(workspace, 'Acme');
  const task = await workspace.api('POST', '/api/v2/tasks', { name: 'Design' });
  const created = await workspace.api('POST', '/api/v2/projects', {
    client_id: acme,
    name: 'Website',
    hourly_rate: 137.5,
    is_fixed_fee: true,
    fee: 4137.5,
    task_ids: [task.body.id],
  });
  const id = created.body.id;
  expect((await workspace.api('PATCH', `/api/v2/projects/${id}/task_assignments/${task.body.id}`, { hourly_rate: 137.5 })).status).toBe(200);
  expect((await workspace.api('POST', `/api/v2/projects/${id}/user_assignments`, { user_id: max.id, is_project_manager: true, hourly_rate: 137.5 })).status).toBe(201);

  const bodies: string[] = [];
  page.on('response', async (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/api/') || path.startsWith('/web/api/')) bodies.push(`${path}: ${await response.text().catch(() => '')}`);
  });
  await signIn(page, max);
  await visit(page, `/projects/${id}`, 'project-manager');
  await expect(page.getByRole('region', { name: 'People', exact: true })).toContainText('Max Tester');
  await expect(page.getByRole('group', { name: 'Billing' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Rate history' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Code' }).fill('WEB');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('WEB', { exact: false }).first()).toBeVisible();
  await expect.poll(async () => (await workspace.api('GET', `/api/v2/projects/${id}`)).body.code).toBe('WEB');

  const rate = /137[.,]5|4[.,]?137/;
  expect(await page.locator('body').innerText()).not.toMatch(rate);
  for (const body of bodies) expect(body).not.toMatch(rate);
  await expectClean(page);
});

test("an internal cost budget is in the workspace's currency, a rate in the client's", async ({ page, workspace }) => {
  // The test workspace is in US dollars.
  const swiss = await workspace.api('POST', '/api/v2/clients', { name: 'Uhren AG', currency: 'CHF' });
  expect(swiss.status).toBe(201);
  const project = await workspace.api('POST', '/api/v2/projects', {
    client_id: swiss.body.id, name: 'Markenauftritt', task_ids: [], bill_by: 'project', hourly_rate: 150, budget_by: 'project_cost', budget: 25000,
  });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  await page.goto('/projects');
  const row = page.getByRole('row').filter({ hasText: 'Markenauftritt' });
  await expect(row).toContainText('CHF 150.00');
  await expect(row).toContainText('$25,000.00');
  // The project's page, by its address (a click as the list settles may land on the list again).
  await page.goto(`/projects/${project.body.id}`);
  await expect(page.getByRole('textbox', { name: 'Budget (cost)' })).toHaveValue(/^(US)?\$25,000\.00$/);
  await expectClean(page);
});
