import { expect, test } from './fixtures.ts';
import { expectClean, visit } from './visit.ts';

/**
 * Issue 21, item 8 (smaller things seen on day one): a new project in a EUR workspace
 * prices in EUR before a client is picked; the report chart draws the largest items, not
 * the alphabetically first; an invoice, and the client's page of it, reads "Service" beside
 * "Expense", never the import's "SERVICE". (The reset link and the invitation are in session.spec.ts and
 * members.spec.ts.)
 */

// Each test checks one or two pages at both widths; the shared machine is slow at times.
test.describe.configure({ timeout: 180_000 });

test('a new project in a EUR workspace says "In EUR." before a client is picked', async ({ page, workspace }) => {
  expect((await workspace.api('PATCH', '/web/api/workspace', { currency: 'EUR' })).status).toBe(200);
  // The form's chunk is the largest of the projects area: loaded once first, so a busy machine does not trip visit's 5 s wait for the h1.
  await page.goto('/projects/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New project' })).toBeVisible({ timeout: 30_000 });
  await visit(page, '/projects/new', 'project-new-eur');
  await expect(page.getByRole('combobox', { name: /Client/ }).first()).toHaveValue('');
  await expect(page.getByText('In EUR.')).toBeVisible();
  await expect(page.getByText('In USD.')).toHaveCount(0);
  await expectClean(page);
});

test('the time report chart draws the 15 largest of 20 projects, not the alphabetically first', async ({ page, workspace }) => {
  const day = '2026-01-12';
  // Twenty projects "A project" … "T project"; the later the letter, the more hours (1 … 20).
  for (let i = 0; i < 20; i++) {
    const name = `${String.fromCharCode(65 + i)} project`;
    const p = await workspace.seed.project({ client: `Client ${name}`, name, tasks: [`Work on ${name}`] }); // its creator is assigned
    const entry = await workspace.api('POST', '/api/v2/time_entries', { project_id: p.id, task_id: p.taskIds[0], spent_date: day, hours: i + 1 });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
  }
  await visit(page, '/reports/time?from=2026-01-01&to=2026-01-31&group_by=project', 'report-chart-largest');
  const chart = page.getByTestId('chart');
  await expect(chart.locator('svg text').filter({ hasText: /project$/ })).toHaveCount(15);
  const names = await chart.locator('svg text').filter({ hasText: /project$/ }).allTextContents();
  expect(names[0]).toBe('T project'); // the largest on top
  expect(names).toContain('F project'); // 6 h: the 15th largest
  expect(names).not.toContain('E project');
  expect(names).not.toContain('A project');
  await expect(page.getByText('(the 15 largest of 20; the table lists all)', { exact: false })).toBeVisible();
  // The table still lists every project.
  await expect(page.getByRole('row', { name: /A project/ })).toBeVisible();
  await expectClean(page);
});

test('invoice line kinds read "Service" beside "Expense" on the invoice, its edit page and the client’s page', async ({ page, workspace }) => {
  // Imported work: the import writes the spec's `SERVICE` for time and `Expense` for expenses.
  expect((await workspace.api('PATCH', '/web/api/workspace', { invoice_before_approval: true })).status).toBe(200);
  const client = await workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' });
  const task = await workspace.api('POST', '/api/v2/tasks', { name: 'Design' });
  const project = await workspace.api('POST', '/api/v2/projects', {
    client_id: client.body.id, name: 'Website', task_ids: [task.body.id], is_billable: true, bill_by: 'project', hourly_rate: 100,
  });
  expect(project.status, JSON.stringify(project.body)).toBe(201);
  const entry = await workspace.api('POST', '/api/v2/time_entries', { project_id: project.body.id, task_id: task.body.id, spent_date: '2026-01-05', hours: 2, notes: 'Design work' });
  expect(entry.status, JSON.stringify(entry.body)).toBe(201);
  const category = await workspace.api('POST', '/api/v2/expense_categories', { name: 'Train' });
  const expense = await workspace.api('POST', '/api/v2/expenses', { project_id: project.body.id, expense_category_id: category.body.id, spent_date: '2026-01-05', total_cost: 20, notes: 'Train ticket' });
  expect(expense.status, JSON.stringify(expense.body)).toBe(201);
  const invoice = await workspace.api('POST', '/api/v2/invoices', {
    client_id: client.body.id,
    line_items_import: { time: { summary_type: 'detailed' }, expenses: { summary_type: 'detailed' } },
  });
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
  expect(invoice.body.line_items.map((l: { kind: string }) => l.kind)).toEqual(['SERVICE', 'Expense']);
  await visit(page, `/invoices/${invoice.body.id}`, 'invoice-kinds');
  await expect(page.getByRole('row', { name: /Design work/ })).toContainText('Service');
  await expect(page.getByRole('row', { name: /Train ticket/ })).toContainText('Expense');
  await expect(page.getByText('SERVICE', { exact: true })).toHaveCount(0);

  await visit(page, `/invoices/${invoice.body.id}/edit`, 'invoice-kinds-edit');
  await expect(page.getByRole('listitem', { name: 'Line 1' }).getByRole('button', { name: /Kind/ })).toContainText('Service');
  await expect(page.getByRole('listitem', { name: 'Line 2' }).getByRole('button', { name: /Kind/ })).toContainText('Expense');
  // Showing the label changes nothing: the API keeps the spec's value until someone edits the kind.
  expect((await workspace.api('GET', `/api/v2/invoices/${invoice.body.id}`)).body.line_items[0].kind).toBe('SERVICE');
  await expectClean(page);

  // The client's page of the sent invoice reads the kinds as the team's page does.
  expect((await workspace.api('POST', `/api/v2/invoices/${invoice.body.id}/messages`, { recipients: [{ email: 'ap@acme.example' }] })).status).toBe(201);
  const link = await workspace.api('POST', `/web/api/invoices/${invoice.body.id}/client-links`);
  expect(link.status, JSON.stringify(link.body)).toBe(201);
  const url = new URL(link.body.url);
  await visit(page, `${url.pathname}${url.hash}`, 'client-page-kinds');
  await expect(page.getByRole('row', { name: /Design work/ })).toContainText('Service');
  await expect(page.getByRole('row', { name: /Train ticket/ })).toContainText('Expense');
  await expect(page.getByText('SERVICE', { exact: true })).toHaveCount(0);
});
