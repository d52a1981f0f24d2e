import type { Browser } from '@playwright/test';
import { expect, ok, signIn, test, type SheafServer } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Saved reports (issue 26 item 3): an owner saves the time report grouped by task for
 * "Last month" from its page, finds it under Reports → Saved, opens it (its page with
 * last month's dates and the grouping), renames and shares it; a member sees the shared
 * report, runs it with their own numbers and cannot change or delete it; the owner
 * deletes it. Then the same pages in German, with a project budget and fixed dates.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** Last month of the workspace's calendar (its zone is UTC), as the server resolves it today. */
function lastMonth() {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const day = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return { from: day(first), to: day(last) };
}

/** A page of its own browser context (its own cookies), on the test server. */
async function freshPage(browser: Browser, sheaf: SheafServer) {
  const context = await browser.newContext({ baseURL: sheaf.url });
  return context.newPage();
}

test('an owner saves a time report by task for last month, opens, renames, shares and deletes it; a member sees it shared', async ({ page, workspace, sheaf, browser }) => {
  test.setTimeout(300_000); // two people, several pages and dialogs checked at both widths
  const LAST = lastMonth();
  const mia = await workspace.seed.memberWithPassword('Mia');
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design', 'Build'], members: [mia.id] });
  const entry = (task: number, hours: number) =>
    ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[task], spent_date: LAST.from, hours }));
  await entry(0, 2);
  await entry(1, 3.5);

  await visit(page, '/reports/saved', 'saved-reports-empty');
  await expect(page.getByRole('navigation', { name: 'Reports' }).getByRole('link', { name: 'Saved' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('No saved reports yet.')).toBeVisible();

  // The time report, grouped by task, over last month: chosen on its page.
  await page.getByRole('navigation', { name: 'Reports' }).getByRole('link', { name: 'Time' }).click();
  await page.getByRole('button', { name: /Group by/ }).click();
  await page.getByRole('option', { name: 'Task' }).click();
  await page.getByRole('button', { name: /Period/ }).click();
  await page.getByRole('option', { name: 'Last month' }).click();
  await expect(page).toHaveURL(new RegExp(`group_by=task&from=${LAST.from}&to=${LAST.to}$`));
  await expect(page.getByRole('row', { name: /Build/ })).toContainText('3:30');

  await page.getByRole('button', { name: 'Save report' }).click();
  const save = page.getByRole('dialog', { name: 'Save this report' });
  await expect(save.getByRole('textbox', { name: 'Name' })).toHaveValue('Time by task · Last month');
  // A blank name is refused by the server, under its field.
  await save.getByRole('textbox', { name: 'Name' }).fill('   ');
  await save.getByRole('button', { name: 'Save report' }).click();
  await expect(save.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  expect((await ok(workspace.api('GET', '/web/api/saved_reports'))).saved_reports).toEqual([]);
  await save.getByRole('textbox', { name: 'Name' }).fill('Tasks last month');
  await expect(save.getByRole('button', { name: /Period/ })).toContainText('Last month, whenever it is opened');
  await save.getByRole('button', { name: /E-mail/ }).click();
  await page.getByRole('option', { name: 'E-mail it to me every month' }).click();
  await checkPage(page, 'saved-reports-save');
  await save.getByRole('button', { name: 'Save report' }).click();
  await expect(save).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “Tasks last month”.' })).toBeVisible();
  await checkPage(page, 'saved-reports-time-saved');

  // The server keeps the named period, the grouping and the schedule.
  const [saved] = (await ok(workspace.api('GET', '/web/api/saved_reports'))).saved_reports;
  expect(saved).toMatchObject({ name: 'Tasks last month', report: 'time', period: 'last_month', from: null, to: null, group_by: 'task', visibility: 'private', schedule: 'monthly', range: LAST, is_own: true });

  // Reports → Saved lists it.
  await page.getByRole('link', { name: 'See saved reports' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Saved reports' })).toBeVisible();
  const calls = await visit(page, '/reports/saved', 'saved-reports-list');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  const card = page.getByRole('list', { name: 'Saved reports' }).getByRole('listitem').filter({ hasText: 'Tasks last month' });
  await expect(card).toContainText('Time by task · Last month · ');
  await expect(card).toContainText('Private');
  await expect(card).toContainText('E-mailed monthly as CSV, next on');

  // Opening it runs the report afresh: last month's dates and the grouping in the address and on the page.
  await card.getByRole('link', { name: 'Tasks last month' }).click();
  await expect(page).toHaveURL(`/reports/time?from=${LAST.from}&to=${LAST.to}&group_by=task`);
  await expect(page.getByRole('heading', { level: 2, name: 'Time by task' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Period/ })).toContainText('Last month');
  await expect(page.getByRole('row', { name: /Design/ })).toContainText('2:00');

  // Rename and share it.
  await page.getByRole('navigation', { name: 'Reports' }).getByRole('link', { name: 'Saved' }).click();
  await page.getByRole('button', { name: 'Edit the saved report Tasks last month' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the saved report' });
  await expect(edit).toContainText('Time by task · Last month · ');
  await edit.getByRole('textbox', { name: 'Name' }).fill('Tasks of last month');
  await edit.getByRole('button', { name: /Who sees it/ }).click();
  await page.getByRole('option', { name: 'Everyone in the workspace' }).click();
  await checkPage(page, 'saved-reports-edit');
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The saved report “Tasks of last month” is saved.' })).toBeVisible();
  const shared = page.getByRole('list', { name: 'Saved reports' }).getByRole('listitem').filter({ hasText: 'Tasks of last month' });
  await expect(shared).toContainText('Shared with the workspace');
  expect(await ok(workspace.api('GET', `/web/api/saved_reports/${saved.id}`))).toMatchObject({ name: 'Tasks of last month', visibility: 'workspace', period: 'last_month' });

  // A member sees the shared report, runs it with their own numbers, and may not change it.
  const other = await freshPage(browser, sheaf);
  await signIn(other, mia);
  await visit(other, '/reports/saved', 'saved-reports-member');
  const theirs = other.getByRole('list', { name: 'Saved reports' }).getByRole('listitem').filter({ hasText: 'Tasks of last month' });
  await expect(theirs).toContainText('Saved by Olive Owner');
  await expect(theirs).toContainText('Shared with the workspace');
  await expect(other.getByRole('button', { name: /^(Edit|Delete)/ })).toHaveCount(0);
  expect((await workspace.api('PATCH', `/web/api/saved_reports/${saved.id}`, { name: 'Mine now' }, mia.id)).status).toBe(403);
  expect((await workspace.api('DELETE', `/web/api/saved_reports/${saved.id}`, undefined, mia.id)).status).toBe(403);
  await theirs.getByRole('link', { name: 'Tasks of last month' }).click();
  await expect(other).toHaveURL(`/reports/time?from=${LAST.from}&to=${LAST.to}&group_by=task`);
  await expect(other.getByText('No time in this period.')).toBeVisible(); // Mia tracked none: her own numbers
  await expectClean(other);
  await other.context().close();

  // The owner deletes it (asked first).
  await page.getByRole('button', { name: 'Delete the saved report Tasks of last month' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete “Tasks of last month”?' });
  await checkPage(page, 'saved-reports-delete');
  await confirm.getByRole('button', { name: 'Delete saved report' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The saved report “Tasks of last month” is deleted.' })).toBeVisible();
  await expect(page.getByText('No saved reports yet.')).toBeVisible();
  expect((await ok(workspace.api('GET', '/web/api/saved_reports'))).saved_reports).toEqual([]);
  await expectClean(page);
});

test('saved reports in German: a project budget and fixed dates, each opened as saved', async ({ page, workspace }) => {
  test.setTimeout(180_000);
  await workspace.seed.german();
  await ok(workspace.api('POST', '/web/api/saved_reports', { name: 'Archiv', report: 'project_budget', is_active: false }));

  // Dates picked by hand are kept as these dates.
  await visit(page, '/reports/team?from=2026-03-02&to=2026-03-15', 'saved-reports-de-team');
  await page.getByRole('button', { name: 'Bericht speichern' }).click();
  const save = page.getByRole('dialog', { name: 'Diesen Bericht speichern' });
  await expect(save).toContainText('Zeitraum: 02.03.2026 – 15.03.2026 (genau diese Tage)');
  await save.getByRole('textbox', { name: 'Name' }).fill('Zwei Wochen im März');
  await checkPage(page, 'saved-reports-de-save');
  await save.getByRole('button', { name: 'Bericht speichern' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Gespeichert als „Zwei Wochen im März“.' })).toBeVisible();

  await visit(page, '/reports/saved', 'saved-reports-de-list');
  await expect(page.getByRole('heading', { level: 2, name: 'Gespeicherte Berichte' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Gespeicherte Berichte' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  const budget = list.getByRole('listitem').filter({ hasText: 'Archiv' });
  await expect(budget).toContainText('Projektbudget · Archivierte Projekte');
  await expect(budget).toContainText('Kein E-Mail-Versand');
  const team = list.getByRole('listitem').filter({ hasText: 'Zwei Wochen im März' });
  await expect(team).toContainText('Zeit des Teams · 02.03.2026 – 15.03.2026');

  await budget.getByRole('link', { name: 'Archiv' }).click();
  await expect(page).toHaveURL('/reports/budget?active=false');
  await expect(page.getByRole('button', { name: /Projekte/ })).toContainText('Archivierte Projekte');
  await page.goBack();
  await team.getByRole('link', { name: 'Zwei Wochen im März' }).click();
  await expect(page).toHaveURL('/reports/team?from=2026-03-02&to=2026-03-15');
  await expect(page.getByRole('heading', { level: 2, name: 'Zeit des Teams' })).toBeVisible();
  await expectClean(page);
});
