import { expect, ok, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, visit } from './visit.ts';

/**
 * Review of 2026-12-06, third: the new-invoice preview says which imported lines bill hours at
 * 0.00 (time without a rate) before the create, and a draft's edit page sets which of the
 * invoice's taxes each line bears (PATCH /web/api/invoices/:id/line_taxes).
 */

// As the app writes amounts for an English-speaking person (en-GB).
const money = (amount: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(amount);

/** Globex's Intranet (billable, no rate) with 5 h of Design and 2.5 h of Support, and its Website (100 an hour) with 1 h of Design. */
async function unratedWork(workspace: TestWorkspace) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { invoice_before_approval: true })); // no approvals to go through first
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR' }));
  const design = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const support = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Support' }));
  const intranet = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Intranet', task_ids: [design.id, support.id], is_billable: true, bill_by: 'project' }),
  );
  const website = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', task_ids: [design.id], is_billable: true, bill_by: 'project', hourly_rate: 100 }),
  );
  for (const [project, task, hours] of [
    [intranet, design, 5],
    [intranet, support, 2.5],
    [website, design, 1],
  ] as const) {
    await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: '2026-11-02', hours }));
  }
  return { client, intranet, website };
}

test('the preview warns that time without a rate bills at 0.00, names the lines, links to the project, and still creates', async ({ page, workspace }) => {
  const { client, intranet } = await unratedWork(workspace);
  await visit(page, `/invoices/new?client_id=${client.id}&from=2026-11-01&to=2026-11-30`, 'invoices-new-unpriced-form');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: /Preview of invoice/ })).toBeVisible();

  const warning = page.getByRole('status').filter({ hasText: `2 lines bill 7.5 h at ${money(0)}` });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('No hourly rate is set for this work on the days it was done');
  await expect(warning.getByRole('listitem').filter({ hasText: 'Intranet: Design – 5 h' })).toBeVisible();
  await expect(warning.getByRole('listitem').filter({ hasText: 'Intranet: Support – 2.5 h' })).toBeVisible();
  await expect(warning).not.toContainText('Website'); // priced at 100: nothing to say
  await expect(warning).toContainText('Set a rate on the project');
  const link = warning.getByRole('link', { name: 'Set a rate on Intranet' });
  await expect(link).toHaveAttribute('href', `/projects/${intranet.id}`);
  // The lines themselves, as the create will make them.
  await expect(page.getByRole('row', { name: /Intranet: Design/ })).toContainText(money(0));
  await expect(page.getByRole('row', { name: /Website: Design/ })).toContainText(money(100));
  await checkPage(page, 'invoices-new-unpriced');

  // In German: the same warning in their words, the hours written as the lines' quantities are.
  await workspace.seed.german();
  await page.goto(`/invoices/new?client_id=${client.id}&from=2026-11-01&to=2026-11-30`);
  await page.getByRole('button', { name: 'Vorschau' }).click();
  const german = page.getByRole('status').filter({ hasText: '2 Positionen berechnen 7,5 Std. zu 0,00 €' });
  await expect(german).toBeVisible();
  await expect(german).toContainText('Für diese Arbeit ist an den Arbeitstagen kein Stundensatz hinterlegt');
  await expect(german.getByRole('listitem').filter({ hasText: 'Intranet: Design – 5 Std.' })).toBeVisible();
  await expect(german.getByRole('link', { name: 'Stundensatz in Intranet hinterlegen' })).toBeVisible();
  await checkPage(page, 'invoices-new-unpriced-de');

  // A warning, not a refusal: the invoice is created as previewed, the 0.00 lines with it.
  await page.getByRole('button', { name: 'Rechnung erstellen' }).click();
  await expect(page).toHaveURL(/\/invoices\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;
  const created = await ok(workspace.api('GET', `/api/v2/invoices/${id}`));
  expect(created.line_items.map((l: { unit_price: number; quantity: number }) => [l.quantity, l.unit_price])).toEqual([
    [5, 0],
    [2.5, 0],
    [1, 100],
  ]);
});

test("the preview warns that an import in another currency than the client's keeps the rates' numbers", async ({ page, workspace }) => {
  const { client } = await unratedWork(workspace);
  await visit(page, `/invoices/new?client_id=${client.id}&from=2026-11-01&to=2026-11-30`, 'invoices-new-other-currency-form');
  // In the client's currency: nothing to say.
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: /Preview of invoice/ })).toBeVisible();
  await expect(page.getByText('Amounts are not converted')).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Currency' }).fill('GBP');
  await page.getByRole('button', { name: 'Preview' }).click();
  const warning = page.getByRole('status').filter({ hasText: 'Amounts are not converted' });
  await expect(warning).toContainText("a rate of €100.00 bills £100.00. Leave the currency empty to invoice in the client's currency, EUR.");
  await expect(page.getByRole('row', { name: /Website: Design/ })).toContainText('£100.00');
  await checkPage(page, 'invoices-new-other-currency');
});

test("a draft's line taxes are set on its edit page, only where the invoice has that tax", async ({ page, workspace }) => {
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech', currency: 'EUR' }));
  const draft = await ok(
    workspace.api('POST', '/api/v2/invoices', {
      client_id: client.id,
      tax: 19,
      tax2: 7,
      line_items: [
        { description: 'Design', quantity: 1, unit_price: 100 },
        { description: 'Hosting', quantity: 1, unit_price: 50 },
      ],
    }),
  );
  expect(draft).toMatchObject({ tax_amount: 28.5, tax2_amount: 10.5, amount: 189 });

  await visit(page, `/invoices/${draft.id}/edit`, 'invoices-edit-taxes');
  const first = page.getByRole('listitem', { name: 'Line 1' });
  const second = page.getByRole('listitem', { name: 'Line 2' });
  const taxesOf = (line: typeof first, n: number) => line.getByRole('group', { name: `Taxes of line ${n}` });
  await expect(taxesOf(first, 1).getByRole('checkbox', { name: 'Tax (19%)' })).toBeChecked();
  await expect(taxesOf(first, 1).getByRole('checkbox', { name: 'Tax 2 (7%)' })).toBeChecked();
  await expect(taxesOf(first, 1)).toContainText('Both taxes apply. An e-invoice (EN 16931) takes one tax per line.');

  // Line 1 bears the first tax only, line 2 the second only; a description changes in the same save.
  await first.locator('label').filter({ hasText: 'Tax 2 (7%)' }).click();
  await expect(taxesOf(first, 1).getByRole('checkbox', { name: 'Tax 2 (7%)' })).not.toBeChecked();
  await expect(taxesOf(first, 1)).not.toContainText('Both taxes apply');
  await second.locator('label').filter({ hasText: 'Tax (19%)' }).click();
  await second.getByRole('textbox', { name: 'Description' }).fill('Hosting, November');
  await checkPage(page, 'invoices-edit-taxes-changed');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/invoices/${draft.id}$`));

  // The server's totals: 19 % of 100 and 7 % of 50.
  const saved = await ok(workspace.api('GET', `/api/v2/invoices/${draft.id}`));
  expect(saved.line_items.map((l: { description: string; taxed: boolean; taxed2: boolean }) => [l.description, l.taxed, l.taxed2])).toEqual([
    ['Design', true, false],
    ['Hosting, November', false, true],
  ]);
  expect(saved).toMatchObject({ tax_amount: 19, tax2_amount: 3.5, amount: 172.5 });
  await expect(page.getByRole('row', { name: /Design/ })).toContainText('Tax');
  await expect(page.getByRole('row', { name: /Design/ })).not.toContainText('Tax 2');
  await expect(page.getByRole('row', { name: /Hosting, November/ })).toContainText('Tax 2');
  await expect(page.getByRole('definition').filter({ hasText: money(172.5) }).first()).toBeVisible();

  // An invoice without a second tax offers only the first; one without taxes offers none.
  const oneTax = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, tax: 19, line_items: [{ description: 'Advice', unit_price: 80 }] }));
  await page.goto(`/invoices/${oneTax.id}/edit`);
  const only = page.getByRole('listitem', { name: 'Line 1' });
  await expect(only.getByRole('checkbox', { name: 'Tax (19%)' })).toBeChecked();
  await expect(only.getByRole('checkbox')).toHaveCount(1);
  const noTax = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, line_items: [{ description: 'Advice', unit_price: 80 }] }));
  await page.goto(`/invoices/${noTax.id}/edit`);
  await expect(page.getByRole('listitem', { name: 'Line 1' }).getByRole('textbox', { name: 'Description' })).toHaveValue('Advice');
  await expect(page.getByRole('listitem', { name: 'Line 1' }).getByRole('checkbox')).toHaveCount(0);
});
