import type { Page, Response } from '@playwright/test';
import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';

/**
 * "A member never sees a rate anywhere" (issue 16): the workspace has a project billed at
 * a distinctive hourly rate, a person rate, a task default rate, a fixed fee and a cost
 * budget; a member assigned to those projects, with time and an expense on them, opens
 * every page the web app has. None of those values may appear in any page's text, nor in
 * any response the pages received (the API omits what the caller may not see: a hidden
 * rate is absent, not blurred). The owner's view of the same pages shows them (the check
 * would catch a leak).
 */

test.use({ signedIn: false });

/** Values no other figure of the seed can produce, each with the ways a page or a body may spell it. */
const SECRETS: Record<string, RegExp> = {
  'project hourly rate 137.5': /137[.,]5/,
  'person rate 211.25': /211[.,]25/,
  'task default rate 173.75': /173[.,]75/,
  'fixed fee 98765': /98[,. \u202f\u00a0]?765/,
  'cost budget 54321': /54[,. \u202f\u00a0]?321/,
};

async function seed(workspace: TestWorkspace) {
  const mia = await workspace.seed.member('Mia');
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const design = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design', default_hourly_rate: 173.75 }));
  const hourly = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', is_billable: true, bill_by: 'project', hourly_rate: 137.5, cost_budget: 54321, task_ids: [design.id] }),
  );
  const byPeople = await ok(workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Support', is_billable: true, bill_by: 'people', task_ids: [design.id] }));
  const fixed = await ok(workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Launch', is_billable: true, bill_by: 'project', hourly_rate: 90, is_fixed_fee: true, fee: 98765, task_ids: [design.id] }));
  await ok(workspace.api('POST', `/api/v2/projects/${hourly.id}/user_assignments`, { user_id: mia.id }));
  await ok(workspace.api('POST', `/api/v2/projects/${byPeople.id}/user_assignments`, { user_id: mia.id, hourly_rate: 211.25 }));
  await ok(workspace.api('POST', `/api/v2/projects/${fixed.id}/user_assignments`, { user_id: mia.id }));
  const sheet = await ok(workspace.api('GET', '/web/api/timesheet', undefined, mia.id));
  for (const project of [hourly, byPeople, fixed]) {
    await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: design.id, spent_date: sheet.from, hours: 2, notes: `Work on ${project.name}` }, mia.id));
  }
  const category = (await ok(workspace.api('GET', '/api/v2/expense_categories'))).expense_categories[0];
  const expense = await ok(workspace.api('POST', '/api/v2/expenses', { project_id: hourly.id, expense_category_id: category.id, spent_date: sheet.from, total_cost: 12 }, mia.id));
  return { mia, from: sheet.from as string, projects: [hourly, byPeople, fixed], client, design, expense };
}

/** Every page of the web app a signed-in person can open (those of another role show their refusal). */
function pagesOf(s: Awaited<ReturnType<typeof seed>>) {
  return [
    '/',
    `/time/week?start=${s.from}`,
    `/time/day?date=${s.from}`,
    '/expenses',
    '/expenses/new',
    `/expenses/${s.expense.id}`,
    '/approvals',
    '/invoices',
    '/projects',
    ...s.projects.map((p: { id: string }) => `/projects/${p.id}`),
    '/clients',
    `/clients/${s.client.id}`,
    '/tasks',
    '/reports',
    '/settings/workspace',
    '/settings/api',
    '/settings/password',
  ];
}

/** Opens each page (and the timer's project picker) and returns the pages' text and every response body, by where it came from. */
async function collect(page: Page, paths: string[]) {
  const bodies: { url: string; text: string }[] = [];
  const pending: Promise<void>[] = [];
  const onResponse = (response: Response) => {
    const type = response.headers()['content-type'] ?? '';
    if (!/json|text|csv|html/.test(type)) return;
    pending.push(response.text().then((text) => void bodies.push({ url: response.url(), text }), () => undefined));
  };
  page.on('response', onResponse);
  const texts: { url: string; text: string }[] = [];
  for (const path of paths) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    texts.push({ url: path, text: await page.locator('body').innerText() });
  }
  // The timer bar's project list (asked for on focus).
  await page.getByRole('combobox', { name: 'Project and task' }).click();
  await page.waitForLoadState('networkidle');
  texts.push({ url: 'timer picker', text: await page.locator('body').innerText() });
  page.off('response', onResponse);
  await Promise.all(pending);
  return { texts, bodies };
}

const leaks = (found: { url: string; text: string }[]) =>
  found.flatMap(({ url, text }) => Object.entries(SECRETS).filter(([, pattern]) => pattern.test(text)).map(([what]) => `${what} in ${url}`));

test('a member never sees a rate, fee or cost: not in any page, not in any response', async ({ page, workspace }) => {
  test.slow(); // ~20 pages
  const s = await seed(workspace);
  await signIn(page, s.mia);
  const { texts, bodies } = await collect(page, pagesOf(s));
  expect(bodies.length).toBeGreaterThan(20);
  expect(leaks(texts), 'page text').toEqual([]);
  expect(leaks(bodies), 'responses').toEqual([]);
  // The member did see their own work (the pages were not empty refusals).
  expect(texts.find((t) => t.url.startsWith('/time/week'))!.text).toContain('Website');
});

test('the owner sees the same values (the check would catch a leak)', async ({ page, workspace }) => {
  const s = await seed(workspace);
  await signIn(page, workspace.owner);
  const { bodies } = await collect(page, [`/time/week?start=${s.from}`]);
  // The owner's API answers carry them where the member's do not: fetch the project as the page would.
  const project = await page.evaluate(async (id) => (await fetch(`/api/v2/projects/${id}`)).text(), s.projects[0].id);
  expect(leaks([...bodies, { url: 'project', text: project }]).join('\n')).toMatch(/project hourly rate 137\.5/);
});
