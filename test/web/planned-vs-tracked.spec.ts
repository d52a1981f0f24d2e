import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, ok, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Reports → Planned vs tracked, its downloads and "Save report": the owner opens this week's
 * report, downloads the CSV the page links to (every project, hours as exact decimals, the
 * server's rows), sees the XLSX link carry the same period, saves the report with a weekly
 * e-mail and opens it again from Reports → Saved. In German the downloads and the saved
 * report's kind speak German.
 */

const DAY = 86_400_000;
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Mia planned 4 h a day on Acme – Website this week, with 2.25 h tracked there and 0.4 h on Bolt – Shop (unplanned). */
async function seed(workspace: TestWorkspace) {
  const mia = await workspace.seed.memberWithPassword('Mia');
  const website = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });
  const shop = await workspace.seed.project({ client: 'Bolt', name: 'Shop', tasks: ['Build'], members: [mia.id] });
  const today = (await ok(workspace.api('GET', '/web/api/home'))).today as string;
  const monday = (await ok(workspace.api('GET', `/web/api/schedule?from=${today}&weeks=1`))).weeks[0] as string;
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: website.id, user_id: mia.id, starts_on: monday, ends_on: plusDays(monday, 4), hours_per_day: 4 }));
  const entry = (projectId: string, taskId: string, hours: number) =>
    ok(workspace.api('POST', '/api/v2/time_entries', { project_id: projectId, task_id: taskId, spent_date: monday, hours }, mia.id));
  await entry(website.id, website.taskIds[0], 2.25);
  await entry(shop.id, shop.taskIds[0], 0.4);
  return { from: monday, to: plusDays(monday, 6) };
}

/** The file the page's link downloads, as text without its byte-order mark. */
async function download(page: Page, name: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  return { name: file.suggestedFilename(), text: bytes.subarray(3).toString('utf8') };
}

test('the owner downloads planned vs tracked as CSV and saves the report, then opens it from Saved', async ({ page, workspace }) => {
  test.setTimeout(240_000); // pages and a dialog checked at both widths
  const week = await seed(workspace);
  await visit(page, `/reports/planned?from=${week.from}&to=${week.to}`, 'planned-vs-tracked');
  const table = page.getByRole('table', { name: 'Planned and tracked hours per project' });
  await expect(table.getByRole('row', { name: /Website/ }).getByRole('cell')).toHaveText(['Acme', 'Website', '20:00', '2:15', '−17:45']);
  // The total row (the server's sums of the rows): 20 h planned, 2.65 h tracked, 17.35 h less.
  await expect(table.getByRole('row', { name: /^Total/ }).getByRole('cell')).toHaveText(['20:00', '2:39', '−17:21']);

  // The downloads: every project of the page, hours as exact decimals.
  const downloads = page.getByRole('group', { name: 'Download the planned vs tracked report' });
  await expect(downloads.getByRole('link')).toHaveText(['Download CSV', 'Download XLSX']);
  const csv = await download(page, 'Download CSV of the planned vs tracked report');
  expect(csv.name).toBe(`planned-vs-tracked-${week.from}-to-${week.to}.csv`);
  expect(csv.text).toBe(['Client,Project,Planned hours,Tracked hours,Difference hours', 'Acme,Website,20,2.25,-17.75', 'Bolt,Shop,0,0.4,0.4', ''].join('\n'));
  await expect(page.getByRole('link', { name: 'Download XLSX of the planned vs tracked report' })).toHaveAttribute(
    'href',
    `/web/api/reports/planned_vs_tracked/export?format=xlsx&from=${week.from}&to=${week.to}`,
  );

  // Save report: these dates, e-mailed weekly. This week's dates are the named period "This week",
  // which the dialog offers first; they are kept as dates instead.
  await page.getByRole('button', { name: 'Save report' }).click();
  const save = page.getByRole('dialog', { name: 'Save this report' });
  await expect(save.getByRole('textbox', { name: 'Name' })).toHaveValue(/^Planned vs tracked · /);
  await expect(save.getByRole('button', { name: /Period/ })).toContainText('This week, whenever it is opened');
  await save.getByRole('button', { name: /Period/ }).click();
  await page.getByRole('option', { name: /, these dates$/ }).click();
  await save.getByRole('textbox', { name: 'Name' }).fill('Plan this week');
  await save.getByRole('button', { name: /E-mail/ }).click();
  await page.getByRole('option', { name: 'E-mail it to me every week' }).click();
  await checkPage(page, 'planned-vs-tracked-save');
  await save.getByRole('button', { name: 'Save report' }).click();
  await expect(save).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as “Plan this week”.' })).toBeVisible();
  await checkPage(page, 'planned-vs-tracked-saved');
  const [saved] = (await ok(workspace.api('GET', '/web/api/saved_reports'))).saved_reports;
  expect(saved).toMatchObject({ name: 'Plan this week', report: 'planned_vs_tracked', period: 'custom', from: week.from, to: week.to, group_by: null, is_active: null, schedule: 'weekly', range: week });

  // Reports → Saved lists it as planned vs tracked; opening it runs the report for its dates.
  await page.getByRole('link', { name: 'See saved reports' }).click();
  const card = page.getByRole('list', { name: 'Saved reports' }).getByRole('listitem').filter({ hasText: 'Plan this week' });
  await expect(card).toContainText('Planned vs tracked · ');
  await expect(card).toContainText('E-mailed weekly as CSV, next on');
  await checkPage(page, 'planned-vs-tracked-saved-list');
  await card.getByRole('link', { name: 'Plan this week' }).click();
  await expect(page).toHaveURL(`/reports/planned?from=${week.from}&to=${week.to}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Planned vs tracked' })).toBeVisible();
  await expect(table.getByRole('row', { name: /Shop/ }).getByRole('cell')).toHaveText(['Bolt', 'Shop', '0:00', '0:24', '+0:24']);
  await expectClean(page);
});

test('in German: the downloads and the saved report speak German', async ({ page, workspace }) => {
  test.setTimeout(180_000);
  const week = await seed(workspace);
  await workspace.seed.german();
  await ok(workspace.api('POST', '/web/api/saved_reports', { name: 'Plan im März', report: 'planned_vs_tracked', period: 'custom', from: '2026-03-02', to: '2026-03-08' }));
  await visit(page, `/reports/planned?from=${week.from}&to=${week.to}`, 'planned-vs-tracked-de');
  const total = page.getByRole('table', { name: 'Geplante und erfasste Stunden pro Projekt' }).getByRole('row', { name: /^Gesamt/ });
  await expect(total.getByRole('cell')).toHaveText(['20,00', '2,65', '−17,35']);
  const downloads = page.getByRole('group', { name: 'Bericht „Geplant vs. erfasst“ herunterladen' });
  await expect(downloads.getByRole('link')).toHaveText(['CSV herunterladen', 'XLSX herunterladen']);
  const csv = await download(page, 'CSV herunterladen: Bericht „Geplant vs. erfasst“');
  // The file's columns and numbers are the same in every language (a spreadsheet's import reads them).
  expect(csv.text.split('\n')[1]).toBe('Acme,Website,20,2.25,-17.75');
  await expect(page.getByRole('button', { name: 'Bericht speichern' })).toBeVisible();

  await visit(page, '/reports/saved', 'planned-vs-tracked-de-saved');
  const card = page.getByRole('list', { name: 'Gespeicherte Berichte' }).getByRole('listitem').filter({ hasText: 'Plan im März' });
  await expect(card).toContainText('Geplant vs. erfasst · 02.03.2026 – 08.03.2026');
  await expectClean(page);
});
