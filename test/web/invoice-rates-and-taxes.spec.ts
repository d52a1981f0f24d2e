import { expect, ok, test } from './fixtures.ts';
import { checkPage, visit } from './visit.ts';

/**
 * Review of 2026-12-06, third: a draft's edit page sets which of the invoice's taxes each line
 * bears (PATCH /web/api/invoices/:id/line_taxes).
 */

// As the app writes amounts for an English-speaking person (en-GB).
const money = (amount: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(amount);

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
