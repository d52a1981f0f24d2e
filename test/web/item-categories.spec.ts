import { expect, ok, signIn, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Settings → Item categories (issue 25 item 3): an owner sees the built-in Service and
 * Product (no controls), adds a category, is refused a duplicate under the field,
 * renames, archives and restores it; the invoice line editor offers the active
 * categories only; a member finds no entry and is told so at the address.
 */

test.use({ signedIn: false });

test('an owner manages the item categories and picks one as a line kind; a member cannot manage them', async ({ page, workspace }) => {
  test.setTimeout(480_000); // two people, several checked views (each axe-checked at two widths), on a shared machine
  const mia = await workspace.seed.member('Mia');
  await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech', currency: 'USD' }));

  await signIn(page, workspace.owner);
  await visit(page, '/settings/workspace', 'item-categories-nav');
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Item categories' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Item categories' })).toBeVisible();
  const calls = await visit(page, '/settings/item-categories', 'item-categories');
  expect(calls.filter((c) => c === 'GET /web/api/item-categories'), calls.join(', ')).toHaveLength(1);
  const active = page.getByRole('list', { name: 'Active categories' });
  for (const name of ['Service', 'Product']) {
    await expect(active.getByRole('listitem').filter({ hasText: name })).toContainText('Built in');
    await expect(page.getByRole('button', { name: `Rename ${name}` })).toHaveCount(0);
    await expect(page.getByRole('button', { name: `Archive ${name}` })).toHaveCount(0);
  }

  // Add one.
  await page.getByRole('button', { name: 'New category' }).click();
  const dialog = page.getByRole('dialog', { name: 'New item category' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Hosting');
  await checkPage(page, 'item-categories-new');
  await dialog.getByRole('button', { name: 'Add category' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Hosting is added.' })).toBeVisible();
  await expect(active.getByRole('listitem').filter({ hasText: 'Hosting' })).toBeVisible();

  // A taken name, in other case: refused beside the field, nothing added.
  await page.getByRole('button', { name: 'New category' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('PRODUCT');
  await dialog.getByRole('button', { name: 'Add category' }).click();
  await expect(dialog.getByText('This name is already used in this workspace.')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const names = async () => (await workspace.api('GET', '/web/api/item-categories')).body.item_categories.map((c: { name: string; is_active: boolean }) => `${c.name}${c.is_active ? '' : ' (archived)'}`);
  expect(await names()).toEqual(['Hosting', 'Product', 'Service']);

  // Rename it, add another, archive that one; the archived list shows it.
  await page.getByRole('button', { name: 'Rename Hosting' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename Hosting' });
  await rename.getByRole('textbox', { name: 'Name' }).fill('Hosting and domains');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Renamed to Hosting and domains.' })).toBeVisible();
  await page.getByRole('button', { name: 'New category' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Retired');
  await dialog.getByRole('button', { name: 'Add category' }).click();
  await page.getByRole('button', { name: 'Archive Retired' }).click();
  const archived = page.getByRole('list', { name: 'Archived categories' });
  await expect(archived.getByRole('listitem').filter({ hasText: 'Retired' })).toBeVisible();
  await checkPage(page, 'item-categories-archived');
  expect(await names()).toEqual(['Hosting and domains', 'Product', 'Retired (archived)', 'Service']);

  // The line editor offers the active ones (Service and Product in the person's language), not the archived one.
  await page.goto('/invoices/new');
  await page.getByRole('combobox', { name: 'Client' }).fill('Init');
  await page.getByRole('option', { name: 'Initech' }).click();
  await page.getByRole('button', { name: /Lines$/ }).click();
  await page.getByRole('option', { name: 'Lines I type' }).click();
  const line = page.getByRole('listitem', { name: 'Line 1' });
  await expect(line.getByRole('button', { name: /Kind/ })).toContainText('Service');
  await line.getByRole('button', { name: /Kind/ }).click();
  await expect(page.getByRole('option')).toHaveText(['Hosting and domains', 'Product', 'Service']);
  await checkPage(page, 'item-categories-kind-picker');
  await page.getByRole('option', { name: 'Hosting and domains' }).click();
  await line.getByRole('textbox', { name: 'Description' }).fill('Domain renewal');
  await line.getByRole('textbox', { name: 'Unit price' }).fill('30');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('row', { name: /Domain renewal/ })).toContainText('Hosting and domains');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Invoice /);
  const [invoice] = (await ok(workspace.api('GET', '/api/v2/invoices'))).invoices;
  expect(invoice.line_items.map((l: { kind: string }) => l.kind)).toEqual(['Hosting and domains']);

  // Archived later: the draft's edit page still shows the line's kind, and saving another field keeps it.
  await ok(workspace.api('PATCH', `/web/api/item-categories/${(await workspace.api('GET', '/web/api/item-categories')).body.item_categories[0].id}`, { is_active: false }));
  await visit(page, `/invoices/${invoice.id}/edit`, 'item-categories-archived-kind');
  await expect(line.getByRole('button', { name: /Kind/ })).toContainText('Hosting and domains');
  await line.getByRole('textbox', { name: 'Description' }).fill('Domain renewal 2027');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('row', { name: /Domain renewal 2027/ })).toContainText('Hosting and domains');

  // Mia does not manage them: no entry in the settings, and the address says why.
  await page.context().clearCookies();
  await signIn(page, mia);
  await visit(page, '/settings/profile', 'item-categories-member-settings');
  await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Item categories' })).toHaveCount(0);
  await visit(page, '/settings/item-categories', 'item-categories-member');
  await expect(page.getByText('Not available to your role')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New category' })).toHaveCount(0);
  await expectClean(page);
});
