import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * The reports area (issue 16 item 5): an administrator views every report with its
 * chart and table and downloads the CSV the page links to, whose numbers are the API's;
 * a member sees only their own time, and no amount reaches their page or their browser.
 */

type Workspace = Parameters<Parameters<typeof test>[2]>[0]['workspace'];
const MARCH = 'from=2026-03-01&to=2026-03-31';

async function ok(pending: Promise<{ status: number; body: any }>) {
  const res = await pending;
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

async function seed(workspace: Workspace) {
  const mia = await workspace.seed.memberWithPassword('Mia');
  // Work is invoiceable before it is approved (the uninvoiced report counts it).
  await ok(workspace.api('PATCH', '/web/api/workspace', { invoice_before_approval: true }));
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const globex = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'JPY' }));
  const design = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = (clientId: string, name: string, rate: number, budget?: number) =>
    ok(
      workspace.api('POST', '/api/v2/projects', {
        client_id: clientId,
        name,
        task_ids: [design.id],
        is_billable: true,
        bill_by: 'project',
        hourly_rate: rate,
        ...(budget ? { budget_by: 'project', budget } : {}),
      }),
    );
  const website = await project(acme.id, 'Website', 100, 10);
  const tokyo = await project(globex.id, 'Tokyo office', 5000);
  for (const p of [website, tokyo]) await ok(workspace.api('POST', `/api/v2/projects/${p.id}/user_assignments`, { user_id: mia.id }));
  const entry = (projectId: string, date: string, hours: number, as?: string) =>
    ok(workspace.api('POST', '/api/v2/time_entries', { project_id: projectId, task_id: design.id, spent_date: date, hours }, as));
  await entry(website.id, '2026-03-02', 2.5, mia.id);
  await entry(tokyo.id, '2026-03-03', 2, mia.id);
  await entry(website.id, '2026-03-04', 1);
  return { mia, website, tokyo, acme, globex };
}

/** The CSV the page's link downloads, as rows of cells (no quoted commas in these files). */
async function downloadCsv(page: Page, name: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  const text = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');
  return text.trim().split(/\r?\n/).map((line) => line.split(','));
}

test('an administrator views each report with its chart and table, and the downloaded CSV has the API’s numbers', async ({ page, workspace }) => {
  const { website, acme } = await seed(workspace);

  // Time by project (the web app's report).
  let calls = await visit(page, `/reports/time?${MARCH}&group_by=project`, 'reports-time');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('img', { name: 'Hours and billable hours by project' }).locator('svg').first()).toBeVisible();
  await expect(page.getByRole('row', { name: /Website/ })).toContainText('3:30'); // 3.5 hours, in the owner's h:mm (the default)
  await expect(page.getByRole('row', { name: /Tokyo office/ })).toContainText('¥10,000');
  const timeApi = (await ok(workspace.api('GET', `/web/api/reports/time?${MARCH}&group_by=project`))).results as Array<{ name: string; hours: number }>;
  const timeCsv = await downloadCsv(page, 'Download CSV of time by project');
  expect(timeCsv.slice(1).map((r) => [r[1], Number(r[2])])).toEqual(timeApi.map((g) => [g.name, g.hours]));
  // The total row: every group's hours, and each currency's amounts in its own column (the server's sums).
  await expect(page.getByRole('row', { name: /^Total/ }).getByRole('cell')).toHaveText(['5:30', '5:30', '€350.00', 'JP¥10,000']);

  // Two years: the team report says it covers a year, once, and asks nothing the API would refuse.
  calls = await visit(page, '/reports/team?from=2024-03-01&to=2026-02-28', 'reports-team-too-long');
  expect(calls.filter((c) => c.includes('/reports/')), calls.join(', ')).toEqual([]);
  await expect(page.getByRole('alert')).toHaveText(['The team report covers at most a year: choose a shorter period.']);

  // Team time: hours per person and an amount column per currency.
  calls = await visit(page, `/reports/team?${MARCH}`, 'reports-team');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('img', { name: 'Hours and billable hours per person' }).locator('svg').first()).toBeVisible();
  const miaRow = page.getByRole('row', { name: /Mia Tester/ });
  await expect(miaRow).toContainText('€250.00');
  await expect(miaRow).toContainText('¥10,000');
  await expect(page.getByRole('row', { name: /^Total/ }).getByRole('cell')).toHaveText(['5:30', '5:30', '€350.00', 'JP¥10,000']);
  const team = (await ok(workspace.api('GET', `/api/v2/reports/time/team?${MARCH}`))).results as Array<{
    user_name: string;
    total_hours: number;
    billable_hours: number;
    billable_amounts: Array<{ currency: string; billable_amount: number }>;
  }>;
  const teamCsv = await downloadCsv(page, 'Download CSV of the team report');
  // One amount column per currency the workspace's work can be in (its clients' and its own, USD).
  expect(teamCsv[0]).toEqual(['Person', 'Contractor', 'Hours', 'Billable hours', 'Billable amount (EUR)', 'Billable amount (JPY)', 'Billable amount (USD)']);
  for (const person of team) {
    const row = teamCsv.find((r) => r[0] === person.user_name)!;
    const amount = (c: string) => String(person.billable_amounts.find((a) => a.currency === c)?.billable_amount ?? '');
    expect(row.slice(2)).toEqual([String(person.total_hours), String(person.billable_hours), amount('EUR'), amount('JPY'), amount('USD')]);
  }

  // Project budget: bars of spent vs budget, the remainder.
  calls = await visit(page, '/reports/budget', 'reports-budget');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('img', { name: 'Hours spent against hours budgeted, per project' }).locator('svg').first()).toBeVisible();
  const budget = (await ok(workspace.api('GET', '/api/v2/reports/project_budget'))).results as Array<Record<string, unknown>>;
  const websiteBudget = budget.find((r) => r.project_id === website.id)!;
  expect(websiteBudget).toMatchObject({ budget: 10, budget_spent: 3.5, budget_remaining: 6.5 });
  await expect(page.getByRole('row', { name: /Website/ })).toContainText('6:30');
  // Hours, fees and internal cost budgets, monthly or not, add up to nothing meaningful: no total row (docs/decisions.md).
  await expect(page.getByRole('row', { name: /^Total/ })).toHaveCount(0);
  const budgetCsv = await downloadCsv(page, 'Download CSV of the project budgets');
  expect(budgetCsv.find((r) => r[1] === 'Website')?.slice(5)).toEqual(['10', '3.5', '6.5', '']); // an hours budget: no currency

  // Uninvoiced: per client and project, with "Create invoice" per client.
  calls = await visit(page, `/reports/uninvoiced?${MARCH}`, 'reports-uninvoiced');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('img', { name: 'Uninvoiced hours per project' }).locator('svg').first()).toBeVisible();
  const create = page.getByRole('link', { name: 'Create invoice for Acme' });
  await expect(create).toHaveAttribute('href', `/invoices/new?client_id=${acme.id}&from=2026-03-01&to=2026-03-31&project_ids=${website.id}`);
  const uninvoiced = (await ok(workspace.api('GET', `/api/v2/reports/uninvoiced?${MARCH}`))).results as Array<Record<string, string | number>>;
  const unCsv = await downloadCsv(page, 'Download CSV of the uninvoiced report');
  expect(unCsv.slice(1)).toEqual(
    uninvoiced.map((r) => [r.client_name, r.project_name, r.currency, r.total_hours, r.uninvoiced_hours, r.uninvoiced_expenses, r.uninvoiced_amount].map(String)),
  );
  expect(uninvoiced.find((r) => r.project_id === website.id)).toMatchObject({ uninvoiced_hours: 3.5, uninvoiced_amount: 350 });
  // Each client's table has its total row, in the client's one currency.
  const totalOf = (client: string) => page.getByRole('region', { name: `Uninvoiced work for ${client}, table` }).getByRole('row', { name: /^Total/ }).getByRole('cell');
  await expect(totalOf('Acme')).toHaveText(['3:30', '3:30', '€0.00', '€350.00']);
  await expect(totalOf('Globex')).toHaveText(['2:00', '2:00', 'JP¥0', 'JP¥10,000']);

  // Once Acme's work is on an invoice, its table stays (its hours of the period) but offers no invoice.
  await ok(workspace.api('POST', '/api/v2/invoices', { client_id: acme.id, line_items_import: { time: { summary_type: 'detailed' } } }));
  await page.reload();
  await expect(page.getByRole('region', { name: 'Acme', exact: true })).toContainText('Nothing left to invoice');
  await expect(page.getByRole('link', { name: 'Create invoice for Acme' })).toHaveCount(0);
});

test('a member sees only their own time and no amount, in the page or in any response', async ({ page, workspace }) => {
  const { mia } = await seed(workspace);
  await page.context().clearCookies();
  await signIn(page, mia);
  const bodies: string[] = [];
  page.on('response', async (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/api/') || path.startsWith('/web/api/')) bodies.push(await response.text().catch(() => ''));
  });

  const calls = await visit(page, `/reports/time?${MARCH}&group_by=person`, 'reports-member');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Reports' });
  await expect(tabs.getByRole('link')).toHaveText(['Time', 'Saved']); // and the saved reports (saved-reports.spec.ts)
  await expect(page.getByRole('img', { name: 'Hours and billable hours by person' }).locator('svg').first()).toBeVisible();
  await expect(page.getByRole('row', { name: /Mia Tester/ })).toContainText('4:30');
  await expect(page.getByRole('row', { name: /Olive/ })).toHaveCount(0);
  const text = await page.locator('body').innerText();
  for (const absent of ['Billable amount', '€', '¥', '250.00', '10,000']) expect(text).not.toContain(absent);

  await page.getByRole('button', { name: /Group by/ }).click();
  await page.getByRole('option', { name: 'Project' }).click();
  await expect(page).toHaveURL(/group_by=project/);
  await expect(page.getByRole('row', { name: /Tokyo office/ })).toContainText('2:00');
  // Her total: hours only.
  await expect(page.getByRole('row', { name: /^Total/ }).getByRole('cell')).toHaveText(['4:30', '4:30']);
  const csv = await downloadCsv(page, 'Download CSV of every time entry of the period');
  expect(csv[0]).toEqual(['Date', 'Person', 'Client', 'Project', 'Task', 'Notes', 'Hours', 'Rounded hours', 'Billable']);
  expect(csv.slice(1).map((r) => r[1])).toEqual(['Mia Tester', 'Mia Tester']);

  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    expect(body).not.toContain('billable_amount');
    expect(body).not.toContain('10000');
    expect(body).not.toContain('hourly_rate');
  }
  // The team report is refused (the page does not offer it; the address says so).
  await page.goto(`/reports/team?${MARCH}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not available to your role');
});

test('the total rows in German, at 1280 and 390 px: hours, and amounts per currency in their columns', async ({ page, workspace }) => {
  test.setTimeout(180_000);
  await seed(workspace);
  await workspace.seed.german(); // decimal hours
  const cellsOf = (row: Locator) => row.getByRole('cell');

  await visit(page, `/reports/time?${MARCH}&group_by=project`, 'reports-totals-time-de');
  const time = page.getByRole('row', { name: /^Gesamt/ });
  await expect(cellsOf(time)).toHaveText(['5,50', '5,50', '350,00 €', '10.000 ¥']);
  await visit(page, `/reports/uninvoiced?${MARCH}`, 'reports-totals-uninvoiced-de');
  await expect(page.getByRole('row', { name: /^Gesamt/ })).toHaveCount(2);
  await expect(cellsOf(page.getByRole('row', { name: /^Gesamt/ }).last())).toHaveText(['2,00', '2,00', '0 ¥', '10.000 ¥']);
  await visit(page, `/reports/team?${MARCH}`, 'reports-totals-team-de');
  const team = page.getByRole('row', { name: /^Gesamt/ });
  await expect(cellsOf(team)).toHaveText(['5,50', '5,50', '350,00 €', '10.000 ¥']);

  // On a phone the tables stack: the total row is a block of its own, each figure named by its column.
  await page.setViewportSize({ width: 390, height: 844 });
  await team.scrollIntoViewIfNeeded();
  await expect(team.getByRole('rowheader')).toHaveText('Gesamt');
  await expect(cellsOf(team)).toHaveText(['5,50', '5,50', '350,00 €', '10.000 ¥']);
  for (const [i, name] of ['Stunden', 'Abrechenbare Stunden', 'Abrechenbarer Betrag (EUR)', 'Abrechenbarer Betrag (JPY)'].entries()) {
    await expect(cellsOf(team).nth(i)).toHaveAttribute('data-label', name);
    await expect(cellsOf(team).nth(i)).toBeVisible();
  }
  // Stacked, the row's cells are one under the other.
  const [hours, billable] = [await cellsOf(team).nth(0).boundingBox(), await cellsOf(team).nth(1).boundingBox()];
  expect(billable!.y).toBeGreaterThan(hours!.y);
  await expectClean(page);
});

test('an agency’s uninvoiced work: 20 clients’ tables a page, the pager to the rest, the chart and the download keep all', async ({ page, workspace }) => {
  test.setTimeout(120_000);
  await ok(workspace.api('PATCH', '/web/api/workspace', { invoice_before_approval: true }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Work' }));
  // 22 clients, named so that their order is plain: Client 01 … Client 22.
  for (let i = 1; i <= 22; i++) {
    const name = `Client ${String(i).padStart(2, '0')}`;
    const client = await ok(workspace.api('POST', '/api/v2/clients', { name, currency: 'EUR' }));
    const project = await ok(workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: `Project ${i}`, task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 100 }));
    await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: '2026-03-02', hours: 1 }));
  }
  await visit(page, `/reports/uninvoiced?${MARCH}`, 'reports-uninvoiced-paged');
  const tables = page.getByRole('region', { name: /^Uninvoiced work for .*, table$/ });
  await expect(tables).toHaveCount(20);
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager).toContainText('Page 1 of 2 (22 clients)');
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(tables).toHaveCount(2);
  await expect(page.getByRole('heading', { name: 'Client 22' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Client 01' })).toHaveCount(0);
  const csv = await downloadCsv(page, 'Download CSV of the uninvoiced report');
  expect(csv.length).toBe(23); // the header and every project
});

test('This week and Last week: the workspace’s weeks (here Sunday to Saturday), saved as relative periods, in English and German', async ({ page, workspace }) => {
  test.setTimeout(240_000);
  await ok(workspace.api('PATCH', '/web/api/workspace', { week_start: 'sunday' }));
  const plus = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const today = (await ok(workspace.api('GET', '/web/api/home'))).today as string;
  const sunday = plus(today, -new Date(`${today}T00:00:00Z`).getUTCDay());
  const thisWeek = { from: sunday, to: plus(sunday, 6) };
  const lastWeek = { from: plus(sunday, -7), to: plus(sunday, -1) };
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  // Two hours on this week's Sunday, an hour and a half on last week's: Monday weeks would count them in one week.
  for (const [spent_date, hours] of [[sunday, 2], [lastWeek.from, 1.5]] as const) {
    await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date, hours }));
  }

  await visit(page, '/reports/time', 'reports-weeks');
  await page.getByRole('button', { name: /Period/ }).click();
  await expect(page.getByRole('option')).toHaveText(['This week', 'Last week', 'This month', 'Last month', 'This quarter', 'Last quarter', 'This year', 'Last year', 'Last 365 days']);
  await page.getByRole('option', { name: 'This week' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${thisWeek.from}&to=${thisWeek.to}$`));
  await expect(page.getByRole('row', { name: /Website/ })).toContainText('2:00');
  await page.getByRole('button', { name: /Period/ }).click();
  await page.getByRole('option', { name: 'Last week' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${lastWeek.from}&to=${lastWeek.to}$`));
  await expect(page.getByRole('row', { name: /Website/ })).toContainText('1:30');
  await expect(page.getByRole('button', { name: /Period/ })).toContainText('Last week');
  // The From field's calendar starts its weeks on Sunday too.
  await page.getByRole('group', { name: 'From' }).getByRole('button', { name: 'Calendar' }).click();
  await expect(page.getByRole('dialog').getByRole('grid').getByRole('columnheader', { includeHidden: true })).toHaveText(['S', 'M', 'T', 'W', 'T', 'F', 'S']);
  await page.keyboard.press('Escape');
  await checkPage(page, 'reports-last-week');

  // Saved, it stays "Last week": the server keeps the name and resolves it in the workspace's weeks.
  await page.getByRole('button', { name: 'Save report' }).click();
  const save = page.getByRole('dialog', { name: 'Save this report' });
  await expect(save.getByRole('textbox', { name: 'Name' })).toHaveValue('Time by project · Last week');
  await expect(save.getByRole('button', { name: /Period/ })).toContainText('Last week, whenever it is opened');
  await save.getByRole('button', { name: 'Save report' }).click();
  await expect(save).toBeHidden();
  const [saved] = (await ok(workspace.api('GET', '/web/api/saved_reports'))).saved_reports;
  expect(saved).toMatchObject({ period: 'last_week', from: null, to: null, range: lastWeek });

  // In German: the same presets, named in German, and the saved report under its German name.
  await workspace.seed.german();
  await visit(page, `/reports/time?from=${thisWeek.from}&to=${thisWeek.to}`, 'reports-weeks-de');
  await expect(page.getByRole('button', { name: /Zeitraum/ })).toContainText('Diese Woche');
  await page.getByRole('button', { name: /Zeitraum/ }).click();
  await expect(page.getByRole('option').first()).toHaveText('Diese Woche');
  await page.getByRole('option', { name: 'Letzte Woche' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${lastWeek.from}&to=${lastWeek.to}$`));
  await visit(page, '/reports/saved', 'reports-weeks-saved-de');
  await expect(page.getByRole('list', { name: 'Gespeicherte Berichte' }).getByRole('listitem').first()).toContainText('Zeit nach Projekt · Letzte Woche · ');
  await expectClean(page);
});
