import { expect, test } from './fixtures.ts';
import { checkPage, visit } from './visit.ts';

/**
 * The projects, tasks and reports areas in German (issue 21 items 11 and 12): the owner reads
 * German, dates as DD.MM.YYYY and hours as decimals; every heading, button, label, empty state,
 * chart and table of these pages is German, hours have a German decimal comma (1,50) and money
 * the German style (1.234,50 €). A text missing from a catalog is a console error, which the
 * page checks fail on.
 */

const MARCH = 'from=2026-03-01&to=2026-03-31';

async function ok(pending: Promise<{ status: number; body: any }>) {
  const res = await pending;
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

test('projects and tasks in German: the list, a project with tasks and a budget, the new-project form, the task catalog', async ({ page, workspace }) => {
  test.slow(); // six pages and two states, each checked by axe at two widths
  await workspace.seed.german();
  await visit(page, '/projects', 'projects-de-empty');
  await expect(page.getByRole('heading', { level: 1, name: 'Projekte' })).toBeVisible();
  await expect(page.getByText('Noch keine Projekte.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Erstes Projekt anlegen' })).toBeVisible();

  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const design = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design', default_hourly_rate: 1234.5 }));
  const project = await ok(
    workspace.api('POST', '/api/v2/projects', {
      client_id: acme.id,
      name: 'Website',
      code: 'WEB',
      starts_on: '2026-03-02',
      ends_on: '2026-06-30',
      hourly_rate: 1234.5,
      hourly_rate_effective_from: '2026-03-02',
      budget_by: 'project',
      budget: 120.5,
      task_ids: [design.id],
    }),
  );
  await ok(workspace.api('PATCH', `/api/v2/projects/${project.id}/task_assignments/${design.id}`, { budget: 1.5 }));

  await visit(page, '/projects', 'projects-de-list');
  const row = page.getByRole('row', { name: /Website/ });
  await expect(row).toContainText('1.234,50 € pro Stunde');
  await expect(row).toContainText('120,5 Std.');
  await expect(page.getByRole('columnheader', { name: 'Abrechnung' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Filter' }).getByRole('searchbox', { name: 'Suche' })).toBeVisible();

  await visit(page, `/projects/${project.id}`, 'projects-de-project');
  await expect(page.getByRole('heading', { level: 1, name: 'Website' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Angaben' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Aufgaben' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Design/ })).toContainText('1,5 Std.');
  await expect(page.getByRole('group', { name: 'Budget', exact: true })).toBeVisible();
  await expect(page.getByText('Gültig seit 02.03.2026.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Änderungen speichern' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aufgabe hinzufügen' })).toBeVisible();
  await page.getByRole('button', { name: 'Satzhistorie anzeigen' }).click();
  const history = page.getByRole('region', { name: 'Satzhistorie' });
  await expect(history.getByRole('table', { name: 'Satz des Projekts' })).toContainText('02.03.2026');
  await expect(history.getByRole('table', { name: 'Satz des Projekts' })).toContainText('1.234,50 €');
  await checkPage(page, 'projects-de-project-history');

  await visit(page, '/projects/new', 'projects-de-new');
  await expect(page.getByRole('heading', { level: 1, name: 'Neues Projekt' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Projekt anlegen' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Abrechnung' })).toBeVisible();
  await page.getByRole('button', { name: /Budget nach$/ }).click();
  await expect(page.getByRole('option', { name: 'Projektstunden gesamt' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Stunden pro Person' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);

  await visit(page, '/tasks', 'tasks-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Aufgaben' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Neue Aufgabe' })).toBeVisible();
  const task = page.getByRole('row', { name: /Design/ });
  await expect(task).toContainText('Abrechenbar');
  await expect(task).toContainText('1.234,50');
  await expect(page.getByRole('columnheader', { name: 'Stundensatz' })).toBeVisible();
  await page.getByRole('button', { name: 'Design bearbeiten' }).click();
  await expect(page.getByRole('dialog', { name: 'Design bearbeiten' }).getByRole('button', { name: 'Aufgabe speichern' })).toBeVisible();
  await checkPage(page, 'tasks-de-dialog');

  // A name another task has: the rule's refusal in German, under the name field.
  await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Entwicklung' }));
  const edit = page.getByRole('dialog', { name: 'Design bearbeiten' });
  await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('entwicklung');
  await edit.getByRole('button', { name: 'Aufgabe speichern' }).click();
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveAccessibleDescription('Dieser Name wird in diesem Arbeitsbereich bereits verwendet.');
});

test('reports in German: a chart and a table with decimal hours and a comma, money in German style', async ({ page, workspace }) => {
  test.slow(); // three reports, each checked by axe at two widths
  await workspace.seed.german();
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const design = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const website = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: acme.id, name: 'Website', task_ids: [design.id], bill_by: 'project', hourly_rate: 823, budget_by: 'project', budget: 10 }),
  );
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: website.id, task_id: design.id, spent_date: '2026-03-02', hours: 1.5 }));

  await visit(page, `/reports/time?${MARCH}&group_by=project`, 'reports-de-time');
  await expect(page.getByRole('heading', { level: 1, name: 'Berichte' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Zeit nach Projekt' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Berichte' }).getByRole('link')).toHaveText(['Zeit', 'Team', 'Projektbudget', 'Nicht abgerechnet', 'Geplant vs. erfasst', 'Gespeichert']);
  const chart = page.getByRole('img', { name: 'Stunden und abrechenbare Stunden nach Projekt' });
  await expect(chart.locator('svg').first()).toBeVisible();
  await expect(chart).toContainText('Abrechenbare Stunden'); // the legend
  const row = page.getByRole('row', { name: /Website/ });
  await expect(row).toContainText('1,50');
  await expect(row).toContainText('1.234,50 €');
  await expect(page.getByRole('columnheader', { name: 'Abrechenbarer Betrag (EUR)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'CSV herunterladen: Zeit nach Projekt' })).toBeVisible();
  // A period that is not a named one shows its days in the person's pattern.
  await expect(page.getByRole('button', { name: /Zeitraum$/ })).toContainText('01.03.2026 – 31.03.2026');

  await visit(page, '/reports/budget', 'reports-de-budget');
  await expect(page.getByRole('img', { name: 'Verbrauchte gegen budgetierte Stunden, pro Projekt' }).locator('svg').first()).toBeVisible();
  const budget = page.getByRole('row', { name: /Website/ });
  await expect(budget).toContainText('Stunden (Projekt)');
  await expect(budget).toContainText('10,00');
  await expect(budget).toContainText('8,50');

  await visit(page, `/reports/uninvoiced?from=2026-04-01&to=2026-04-30`, 'reports-de-uninvoiced-empty');
  await expect(page.getByText('In diesem Zeitraum ist nichts mehr abzurechnen.')).toBeVisible();
});
