import { expect, signIn, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Settings → Expense categories (issue 21 item 5): an owner adds a unit-priced
 * category, is refused a duplicate, renames and re-prices it, archives and restores
 * one; a member finds no such page in the settings and is told so at its address;
 * an expense on the unit-priced category is the quantity × the unit price.
 */

test.use({ signedIn: false });

test('an owner manages the categories; a member records an expense by quantity and cannot manage them', async ({ page, workspace }) => {
  test.setTimeout(360_000); // two people, several checked views, on a shared machine
  const mia = await workspace.seed.member('Mia');
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });

  await signIn(page, workspace.owner);
  await visit(page, '/settings/workspace', 'expense-categories-nav');
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Expense categories' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Expense categories' })).toBeVisible();
  const calls = await visit(page, '/settings/expense-categories', 'expense-categories');
  // One read of the list, beside the session (visit() checks the budget; the timer may be asked twice: issue 21 item 8).
  expect(calls.filter((c) => c === 'GET /api/v2/expense_categories'), calls.join(', ')).toHaveLength(1);
  const active = page.getByRole('list', { name: 'Active categories' });
  await expect(active.getByRole('listitem').filter({ hasText: 'LLM usage' })).toContainText('Entered as an amount');

  // A unit-priced category.
  await page.getByRole('button', { name: 'New category' }).click();
  const dialog = page.getByRole('dialog', { name: 'New expense category' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Mileage');
  await dialog.getByRole('textbox', { name: 'Unit (optional)' }).fill('km');
  await dialog.getByRole('textbox', { name: 'Unit price (optional)' }).fill('0.3');
  await checkPage(page, 'expense-categories-new');
  await dialog.getByRole('button', { name: 'Add category' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Mileage is added.' })).toBeVisible();
  await expect(active.getByRole('listitem').filter({ hasText: 'Mileage' })).toContainText('0.30 per km');

  // The same name again, in other case: refused under the field, nothing added.
  await page.getByRole('button', { name: 'New category' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('MILEAGE');
  await dialog.getByRole('button', { name: 'Add category' }).click();
  await expect(dialog.getByText('This name is already used in this workspace.')).toBeVisible();
  // Half a unit: the missing price is named.
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Parking');
  await dialog.getByRole('textbox', { name: 'Unit (optional)' }).fill('hour');
  await dialog.getByRole('button', { name: 'Add category' }).click();
  await expect(dialog.getByText('unit_name and unit_price go together')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  const names = async () => (await workspace.api('GET', '/api/v2/expense_categories')).body.expense_categories.map((c: { name: string }) => c.name);
  expect(await names()).toEqual(['LLM usage', 'Mileage']);

  // Rename and re-price it.
  await page.getByRole('button', { name: 'Edit Mileage' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Mileage' });
  await edit.getByRole('textbox', { name: 'Name' }).fill('Car mileage');
  await edit.getByRole('textbox', { name: 'Unit price (optional)' }).fill('0.35');
  await edit.getByRole('button', { name: 'Save category' }).click();
  await expect(active.getByRole('listitem').filter({ hasText: 'Car mileage' })).toContainText('0.35 per km');

  // Archive and restore.
  await page.getByRole('button', { name: 'Archive LLM usage' }).click();
  const archived = page.getByRole('list', { name: 'Archived categories' });
  await expect(archived.getByRole('listitem').filter({ hasText: 'LLM usage' })).toBeVisible();
  await checkPage(page, 'expense-categories-archived');
  await archived.getByRole('button', { name: 'Restore LLM usage' }).click();
  await expect(active.getByRole('listitem').filter({ hasText: 'LLM usage' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Archived categories' })).toHaveCount(0);

  // Mia records 12 km: 12 × 0.35 = 4.20.
  await page.context().clearCookies();
  await signIn(page, mia);
  await visit(page, '/expenses/new', 'expense-categories-mileage-expense');
  await page.getByRole('combobox', { name: 'Project', exact: true }).fill('webs');
  await page.getByRole('option', { name: 'Acme - Website' }).click();
  await page.getByRole('button', { name: /Category$/ }).click();
  await page.getByRole('option', { name: /Car mileage/ }).click();
  await page.getByRole('textbox', { name: 'Units (km)' }).fill('12');
  await page.getByRole('button', { name: 'Record expense' }).click();
  await expect(page).toHaveURL(/\/expenses$/);
  await expect(page.getByRole('row', { name: /Car mileage/ })).toContainText('4.20');
  const [expense] = (await workspace.api('GET', `/api/v2/expenses?user_id=${mia.id}`)).body.expenses;
  expect(expense).toMatchObject({ units: 12, total_cost: 4.2, expense_category: { name: 'Car mileage' } });

  // Mia does not manage categories: no entry in the settings, and the address says why, with no controls.
  await visit(page, '/settings/workspace', 'expense-categories-member-settings');
  await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Expense categories' })).toHaveCount(0);
  await visit(page, '/settings/expense-categories', 'expense-categories-member');
  await expect(page.getByText('Not available to your role')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New category' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Archive/ })).toHaveCount(0);
  await expectClean(page);
});
