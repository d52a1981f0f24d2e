import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Reviewing a week before approving it (issue 21 item 6): the review lists every time
 * entry and expense of the week; an owner sees what the time is worth, a manager
 * without the permission to see billable rates does not; the manager approves one
 * project only (the other stays submitted) and returns the rest with a reason.
 */

test.use({ signedIn: false });

// A week as the person's default date pattern (YYYY-MM-DD) shows it.
const weekText = (from: string, to: string) => `${from} – ${to}`;
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Mia (member) submitted her week: 2 h on Website (billed 100 an hour) with "Homepage
 * hero", 1 h on Intranet with "Wiki pages", and a 42.50 taxi on Website. Max is her
 * manager and may not see billable rates.
 */
async function submittedWeek(workspace: TestWorkspace) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  const mia = await workspace.seed.memberWithPassword('Mia');
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  await ok(workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [mia.id] }));
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = (name: string, billable: boolean) =>
    ok(workspace.api('POST', '/api/v2/projects', { client_id: client.id, name, task_ids: [task.id], ...(billable ? { is_billable: true, bill_by: 'project', hourly_rate: 100 } : {}) }));
  const website = await project('Website', true);
  const intranet = await project('Intranet', false);
  for (const p of [website, intranet]) await ok(workspace.api('POST', `/api/v2/projects/${p.id}/user_assignments`, { user_id: mia.id }));
  const travel = await ok(workspace.api('POST', '/api/v2/expense_categories', { name: 'Travel' }));
  const week = await ok(workspace.api('GET', '/web/api/approvals/week', undefined, mia.id));
  const as = (body: object, url = '/api/v2/time_entries') => ok(workspace.api('POST', url, body, mia.id));
  const design = await as({ project_id: website.id, task_id: task.id, spent_date: week.from, hours: 2, notes: 'Homepage hero' });
  const wiki = await as({ project_id: intranet.id, task_id: task.id, spent_date: nextDay(week.from), hours: 1, notes: 'Wiki pages' });
  const taxi = await as({ project_id: website.id, expense_category_id: travel.id, spent_date: week.from, total_cost: 42.5, notes: 'Taxi to the client' }, '/api/v2/expenses');
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: week.from, to: week.to }, mia.id));
  return { mia, max, ids: { design: design.id, wiki: wiki.id, taxi: taxi.id }, title: `Mia Tester, ${weekText(week.from, week.to)}` };
}

const statusOf = async (workspace: TestWorkspace, kind: 'time_entries' | 'expenses', id: string) =>
  (await workspace.api('GET', `/api/v2/${kind}/${id}`)).body.approval_status;

test('the review shows every entry and expense; the manager approves one project and returns the other with a reason', async ({ page: ownerPage, workspace, browser, baseURL }) => {
  test.setTimeout(360_000); // two people, five checked views, on a shared machine
  const t = await submittedWeek(workspace);

  // The owner sees the entries with what the time is worth.
  await signIn(ownerPage, workspace.owner);
  await visit(ownerPage, '/approvals', 'approvals-review-owner-queue');
  await ownerPage.getByRole('button', { name: `Review ${t.title}` }).click();
  const ownerDialog = ownerPage.getByRole('dialog');
  const website = ownerDialog.getByRole('region', { name: /Globex - Website/ });
  await expect(website.getByRole('row', { name: /Homepage hero/ })).toContainText('2:00');
  await expect(website.getByRole('row', { name: /Homepage hero/ })).toContainText('$200.00');
  await expect(website.getByRole('row', { name: /Taxi to the client/ })).toContainText('$42.50');
  await checkPage(ownerPage, 'approvals-review-owner');
  await expectClean(ownerPage);

  // Max, in his own browser, may not see billable rates: he sees the entries and the expense, but no amount of time.
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, t.max);
  await visit(page, '/approvals', 'approvals-review-manager-queue');
  await page.getByRole('button', { name: `Review ${t.title}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Amounts of time are not shown')).toBeVisible();
  const design = dialog.getByRole('row', { name: /Homepage hero/ });
  await expect(design).toContainText('Design');
  await expect(design).toContainText('2:00');
  await expect(dialog).not.toContainText('$200.00');
  await expect(dialog.getByRole('row', { name: /Taxi to the client/ })).toContainText('$42.50');
  const intranet = dialog.getByRole('region', { name: /Globex - Intranet/ });
  await expect(intranet.getByRole('row', { name: /Wiki pages/ })).toContainText('1:00');
  await checkPage(page, 'approvals-review-manager');

  // Website only: its entry and expense are approved, Intranet stays submitted.
  await dialog.getByRole('button', { name: 'Approve Website only' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: `Approved 2 items of Globex - Website, ${t.title}.` })).toBeVisible();
  await expect.poll(() => statusOf(workspace, 'time_entries', t.ids.design)).toBe('approved');
  expect(await statusOf(workspace, 'expenses', t.ids.taxi)).toBe('approved');
  expect(await statusOf(workspace, 'time_entries', t.ids.wiki)).toBe('submitted');
  await expect(dialog.getByRole('region', { name: /Globex - Website/ })).toContainText('0 items submitted');
  await expect(dialog.getByRole('button', { name: 'Approve Website only' })).toBeDisabled();

  // The rest goes back to Mia with a reason.
  await dialog.getByRole('textbox', { name: 'Reason for returning it' }).fill('Wiki pages belong to the Website project.');
  await dialog.getByRole('button', { name: 'Reject Intranet only' }).click();
  // Nothing of the week is left submitted: the week leaves the queue (and its dialog closes), the page says what was done.
  await expect(page.getByRole('status').filter({ hasText: `Returned 1 item of Globex - Intranet, ${t.title} for correction.` }).first()).toBeVisible();
  await expect.poll(() => statusOf(workspace, 'time_entries', t.ids.wiki)).toBe('rejected');
  await checkPage(page, 'approvals-review-after');
  await expectClean(page);
  await context.close();
});
