import { runDueSchedules } from '../../src/modules/billing/recurring-invoices/index.ts';
import { todayIn } from '../../src/time/workspace-time.ts';
import { expect, ok, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Invoices → Recurring (issue 25 item 9): an owner finds the page from the
 * invoices list, sets up a monthly retainer (a wrong recipient is named under its
 * field), sees the invoice the scheduler made linked from the schedule, pauses,
 * resumes, edits and deletes it; the same page in German.
 */

const today = () => new Date().toISOString().slice(0, 10);

test('an owner sets up a monthly retainer, sees the invoice it makes, pauses, edits and deletes it', async ({ page, workspace, sheaf }) => {
  test.setTimeout(480_000); // several checked views and dialogs, on a shared machine
  await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));

  await visit(page, '/invoices', 'recurring-invoices-from-list');
  await page.getByRole('link', { name: 'Recurring invoices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Recurring invoices' })).toBeVisible();
  await visit(page, '/invoices/recurring', 'recurring-invoices-empty');
  await expect(page.getByText('No recurring invoices yet.')).toBeVisible();

  await page.getByRole('button', { name: 'New recurring invoice' }).click();
  const dialog = page.getByRole('dialog', { name: 'New recurring invoice' });
  await dialog.getByRole('button', { name: /Client$/ }).click();
  await page.getByRole('option', { name: 'Acme' }).click();
  await dialog.getByRole('button', { name: /On day$/ }).click();
  // Today's day of the month (the workspace is in UTC): the first invoice is due today.
  const day = Number(today().slice(8, 10));
  await page.getByRole('option', { name: day === 31 ? '31 (the month’s last day)' : String(day), exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Retainer');
  await dialog.getByRole('textbox', { name: 'Unit price' }).fill('500');
  await dialog.getByRole('textbox', { name: 'Subject (optional)' }).fill('Monthly retainer');
  await dialog.getByRole('button', { name: /When it is made$/ }).click();
  await page.getByRole('option', { name: 'Create and send it' }).click();
  await dialog.getByRole('textbox', { name: 'Send to' }).fill('billing@acme.example, nobody');
  await checkPage(page, 'recurring-invoices-new');
  await dialog.getByRole('button', { name: 'Create recurring invoice' }).click();
  await expect(dialog.getByText('Recipient 2 is not a valid e-mail address.')).toBeVisible();
  expect((await workspace.api('GET', '/web/api/recurring_invoices')).body.recurring_invoices).toEqual([]);

  await dialog.getByRole('textbox', { name: 'Send to' }).fill('billing@acme.example');
  await dialog.getByRole('button', { name: 'Create recurring invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The recurring invoice for Acme is saved.' })).toBeVisible();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Acme/ }) });
  await expect(card).toContainText('Fixed lines (1)');
  await expect(card).toContainText('Creates and sends to billing@acme.example');
  await expect(card).toContainText('None made yet.');

  // The scheduler's run (each server process runs it every minute) makes today's invoice and sends it.
  expect(await runDueSchedules({ db: sheaf.db, clock: sheaf.clock.now })).toEqual({ drafted: 0, sent: 1, skipped: 0 });
  await visit(page, '/invoices/recurring', 'recurring-invoices-made');
  const made = page.getByRole('table', { name: 'Invoices made for Acme, newest first' });
  await expect(made.getByRole('row')).toHaveCount(2);
  await expect(made).toContainText('Sent');
  await made.getByRole('link', { name: /^Invoice \d+$/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Invoice \d+/ })).toBeVisible();
  await expect(page.getByText('Monthly retainer').first()).toBeVisible();

  // Pause, resume, edit, delete.
  await page.goto('/invoices/recurring');
  await page.getByRole('button', { name: 'Pause the recurring invoice for Acme' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The recurring invoice for Acme is paused.' })).toBeVisible();
  await expect(card).toContainText('Paused');
  await page.getByRole('button', { name: 'Resume the recurring invoice for Acme' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'goes on from today' })).toBeVisible();

  await page.getByRole('button', { name: 'Edit the recurring invoice for Acme' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the recurring invoice for Acme' });
  await edit.getByRole('button', { name: 'Add a line' }).click();
  await edit.getByRole('listitem', { name: 'Line 2' }).getByRole('textbox', { name: 'Description' }).fill('Hosting');
  await edit.getByRole('listitem', { name: 'Line 2' }).getByRole('textbox', { name: 'Unit price' }).fill('40');
  await checkPage(page, 'recurring-invoices-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(card).toContainText('Fixed lines (2)');

  await page.getByRole('button', { name: 'Delete the recurring invoice for Acme' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete recurring invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The recurring invoice for Acme is deleted.' })).toBeVisible();
  await expect(page.getByText('No recurring invoices yet.')).toBeVisible();
  // Its invoice stays.
  expect((await workspace.api('GET', '/api/v2/invoices')).body.invoices).toHaveLength(1);
  await expectClean(page);
});

test('editing only the subject keeps every line, its category and taxes, and the recipients with their names', async ({ page, workspace }) => {
  test.setTimeout(240_000);
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR', tax: 19, tax2: 5 }));
  await ok(workspace.api('POST', '/web/api/item-categories', { name: 'Licence' }));
  const lines = [
    { kind: 'Licence', description: 'Software licence', quantity: 1, unit_price: 200, taxed: false, taxed2: true },
    { kind: 'Service', description: 'Support', quantity: 2, unit_price: 80, taxed: true, taxed2: false },
  ];
  const recipients = [
    { email: 'ap@acme.example', name: 'Accounts Payable' },
    { email: 'ann@acme.example', name: 'Smith, Ann' },
  ];
  const made = await ok(
    workspace.api('POST', '/web/api/recurring_invoices', {
      client_id: acme.id,
      frequency: 'monthly',
      anchor_day: 1,
      start_date: '2027-01-01',
      source: 'lines',
      line_items: lines,
      tax2: 5,
      action: 'send',
      recipients,
      subject: 'Licence',
    }),
  );
  await visit(page, '/invoices/recurring', 'recurring-invoices-taxed-lines');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Acme/ }) });
  await expect(card).toContainText('Fixed lines (2)');
  await page.getByRole('button', { name: 'Edit the recurring invoice for Acme' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the recurring invoice for Acme' });
  const first = edit.getByRole('listitem', { name: 'Line 1' });
  await expect(first.getByRole('button', { name: /Type$/ })).toContainText('Licence');
  await expect(first.getByRole('checkbox', { name: 'Taxed' })).not.toBeChecked();
  await expect(edit.getByRole('listitem', { name: 'Line 2' }).getByRole('checkbox', { name: 'Second tax' })).not.toBeChecked();
  await expect(edit.getByRole('textbox', { name: 'Send to' })).toHaveValue('Accounts Payable <ap@acme.example>, "Smith, Ann" <ann@acme.example>');
  await checkPage(page, 'recurring-invoices-edit-taxed-lines');
  await edit.getByRole('textbox', { name: 'Subject (optional)' }).fill('Licence and support');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The recurring invoice for Acme is saved.' })).toBeVisible();

  const saved = await ok(workspace.api('GET', `/web/api/recurring_invoices/${made.id}`));
  expect(saved.subject).toBe('Licence and support');
  expect(saved.line_items.map((l: any) => ({ kind: l.kind, description: l.description, quantity: l.quantity, unit_price: l.unit_price, taxed: l.taxed, taxed2: l.taxed2 }))).toEqual(lines);
  expect(saved.recipients).toEqual(recipients);
  expect(saved.tax2).toBe(5);

  // A pasted "Name <address>" is taken, split into the name and the address.
  await page.getByRole('button', { name: 'Edit the recurring invoice for Acme' }).click();
  await edit.getByRole('textbox', { name: 'Send to' }).fill('Ben Miller <ben@acme.example>');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(card).toContainText('Creates and sends to ben@acme.example');
  expect((await ok(workspace.api('GET', `/web/api/recurring_invoices/${made.id}`))).recipients).toEqual([{ email: 'ben@acme.example', name: 'Ben Miller' }]);
  await expectClean(page);
});

test("a new recurring invoice starts today in the workspace's time zone, by the server's clock", async ({ page, workspace, sheaf }) => {
  test.setTimeout(180_000);
  // A zone whose date differs from UTC's at this hour: 14 hours ahead in the afternoon, 11 behind in the morning.
  const now = sheaf.clock.now();
  const timezone = now.getUTCHours() >= 12 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
  await ok(workspace.api('PATCH', '/web/api/workspace', { timezone }));
  await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  await visit(page, '/invoices/recurring', 'recurring-invoices-zone');
  await page.getByRole('button', { name: 'New recurring invoice' }).click();
  const dialog = page.getByRole('dialog', { name: 'New recurring invoice' });
  await dialog.getByRole('button', { name: /Client$/ }).click();
  await page.getByRole('option', { name: 'Acme' }).click();
  await dialog.getByRole('textbox', { name: 'Description' }).fill('Retainer');
  await dialog.getByRole('textbox', { name: 'Unit price' }).fill('500');
  await dialog.getByRole('button', { name: 'Create recurring invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The recurring invoice for Acme is saved.' })).toBeVisible();
  const [made] = (await ok(workspace.api('GET', '/web/api/recurring_invoices'))).recurring_invoices;
  expect(made.start_date).toBe(todayIn(timezone, sheaf.clock.now()));
  expect(made.start_date).not.toBe(sheaf.clock.now().toISOString().slice(0, 10));
});

test('recurring invoices in German, and not for a member', async ({ page, workspace }) => {
  test.setTimeout(180_000);
  await workspace.seed.german();
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme' }));
  await ok(
    workspace.api('POST', '/web/api/recurring_invoices', {
      client_id: acme.id,
      frequency: 'quarterly',
      anchor_day: 31,
      start_date: '2027-01-01',
      end_date: '2027-12-31',
      source: 'uninvoiced',
      time_summary: 'task',
      subject: 'Support',
    }),
  );
  const project = await ok(workspace.api('POST', '/api/v2/projects', { client_id: acme.id, name: 'Website' }));
  await ok(
    workspace.api('POST', '/web/api/recurring_invoices', {
      client_id: acme.id,
      frequency: 'monthly',
      anchor_day: 1,
      start_date: '2027-01-01',
      source: 'uninvoiced',
      project_ids: [project.id],
      time_summary: 'project',
      subject: 'Website',
    }),
  );
  await visit(page, '/invoices/recurring', 'recurring-invoices-de');
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Acme · Website/ }) })).toContainText('Nicht abgerechnete Arbeit von 1 Projekt ·');
  await expect(page.getByRole('heading', { level: 1, name: 'Wiederkehrende Rechnungen' })).toBeVisible();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Acme · Support/ }) });
  await expect(card).toContainText('Jedes Quartal am letzten Tag des Monats');
  await expect(card).toContainText('Vom 01.01.2027 bis 31.12.2027');
  await expect(card).toContainText('Nicht abgerechnete Arbeit aller Projekte');
  await expect(card).toContainText('Nächste: 31.01.2027');
  await card.getByRole('button', { name: 'Wiederkehrende Rechnung für Acme bearbeiten' }).click();
  await checkPage(page, 'recurring-invoices-de-edit');
  await page.keyboard.press('Escape');

  const mia = await workspace.seed.member('Mia');
  await page.context().clearCookies();
  const response = await page.context().request.post('/web/api/session', { data: { email: mia.email, password: mia.password } });
  expect(response.status()).toBe(200);
  await page.goto('/invoices/recurring');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available to your role' })).toBeVisible();
});
