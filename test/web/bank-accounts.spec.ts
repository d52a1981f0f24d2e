import { expect, signIn, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * Settings → Bank accounts (issue 25 item 2): an owner adds accounts (an invalid IBAN
 * is refused under its field), sees IBANs in groups of four and one default per
 * currency, makes another the default, edits and deletes one; a member finds no such
 * page in the settings and is told so at its address; the page in German.
 */

const list = (page: import('@playwright/test').Page, currency: string) => page.getByRole('list', { name: currency, exact: true });

test('an owner adds, edits, makes default and deletes bank accounts', async ({ page, workspace }) => {
  test.setTimeout(480_000); // many checked views and dialogs, on a shared machine
  await visit(page, '/settings/workspace', 'bank-accounts-nav');
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Bank accounts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bank accounts' })).toBeVisible();
  const calls = await visit(page, '/settings/bank-accounts', 'bank-accounts-empty');
  expect(calls.filter((c) => c === 'GET /web/api/bank_accounts'), calls.join(', ')).toHaveLength(1);
  await expect(page.getByText('No bank accounts yet.')).toBeVisible();

  // A wrong check digit is refused under the IBAN field; nothing is added.
  await page.getByRole('button', { name: 'Add bank account' }).click();
  const dialog = page.getByRole('dialog', { name: 'New bank account' });
  // The workspace's currency to begin with.
  await expect(dialog.getByRole('textbox', { name: 'Currency' })).toHaveValue('USD');
  await dialog.getByRole('textbox', { name: 'Currency' }).fill('EUR');
  await dialog.getByRole('textbox', { name: 'Account holder' }).fill('Acme Studio GmbH');
  await dialog.getByRole('textbox', { name: 'IBAN' }).fill('DE89 3704 0044 0532 0130 01');
  await dialog.getByRole('textbox', { name: 'BIC (optional)' }).fill('COBADEFFXXX');
  await dialog.getByRole('textbox', { name: 'Bank name (optional)' }).fill('Commerzbank');
  await dialog.getByRole('button', { name: 'Save account' }).click();
  await expect(dialog.getByText('iban has wrong check digits')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'IBAN' })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'the new account dialog with an error');
  expect((await workspace.api('GET', '/web/api/bank_accounts')).body.bank_accounts).toEqual([]);
  await dialog.getByRole('textbox', { name: 'IBAN' }).fill('de89 3704 0044 0532 0130 00');
  await checkPage(page, 'bank-accounts-new');
  await dialog.getByRole('button', { name: 'Save account' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The account of Acme Studio GmbH is added.' })).toBeVisible();
  const eur = list(page, 'EUR');
  const first = eur.getByRole('listitem').filter({ hasText: 'Acme Studio GmbH' });
  await expect(first).toContainText('DE89 3704 0044 0532 0130 00');
  await expect(first).toContainText('Default for EUR');

  // A second EUR account is not the default until made so.
  await page.getByRole('button', { name: 'Add bank account' }).click();
  await dialog.getByRole('textbox', { name: 'Currency' }).fill('EUR');
  await dialog.getByRole('textbox', { name: 'Account holder' }).fill('Acme Studio BV');
  await dialog.getByRole('textbox', { name: 'IBAN' }).fill('NL91ABNA0417164300');
  await dialog.getByRole('button', { name: 'Save account' }).click();
  const second = eur.getByRole('listitem').filter({ hasText: 'Acme Studio BV' });
  await expect(second).toContainText('NL91 ABNA 0417 1643 00');
  await expect(second).not.toContainText('Default for EUR');
  await page.getByRole('button', { name: 'Make Acme Studio BV the default for EUR' }).click();
  await expect(second).toContainText('Default for EUR');
  await expect(first).not.toContainText('Default for EUR');

  // A UK account with a sort code and account number, no IBAN.
  await page.getByRole('button', { name: 'Add bank account' }).click();
  await dialog.getByRole('textbox', { name: 'Currency' }).fill('gbp');
  await dialog.getByRole('textbox', { name: 'Account holder' }).fill('Acme Studio Ltd');
  await dialog.getByRole('textbox', { name: 'Local account details (optional)' }).fill('Sort code 12-34-56\nAccount 12345678');
  await dialog.getByRole('button', { name: 'Save account' }).click();
  const gbp = list(page, 'GBP').getByRole('listitem').filter({ hasText: 'Acme Studio Ltd' });
  await expect(gbp).toContainText('Sort code 12-34-56');
  await expect(gbp).toContainText('Default for GBP');
  await checkPage(page, 'bank-accounts');

  // Edit: another bank name.
  await page.getByRole('button', { name: 'Edit Acme Studio GmbH (EUR)' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Acme Studio GmbH (EUR)' });
  await expect(edit.getByRole('textbox', { name: 'IBAN' })).toHaveValue('DE89 3704 0044 0532 0130 00');
  await edit.getByRole('textbox', { name: 'Bank name (optional)' }).fill('Commerzbank Berlin');
  await edit.getByRole('button', { name: 'Save account' }).click();
  await expect(first).toContainText('Commerzbank Berlin');

  // Delete the default: the other EUR account becomes the default.
  await page.getByRole('button', { name: 'Delete Acme Studio BV (EUR)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this bank account?' });
  await expect(confirm).toContainText('It is the default for EUR');
  await checkPage(page, 'bank-accounts-delete');
  await confirm.getByRole('button', { name: 'Delete account' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The account of Acme Studio BV is deleted.' })).toBeVisible();
  await expect(second).toHaveCount(0);
  await expect(first).toContainText('Default for EUR');
  const stored = (await workspace.api('GET', '/web/api/bank_accounts')).body.bank_accounts;
  expect(stored.map((a: { holder: string; is_default: boolean }) => [a.holder, a.is_default])).toEqual([
    ['Acme Studio GmbH', true],
    ['Acme Studio Ltd', true],
  ]);
  await expectClean(page);
});

test.describe('as a member', () => {
  test.use({ signedIn: false });
  test('a member finds no bank accounts in the settings, and the address says why', async ({ page, workspace }) => {
    test.setTimeout(300_000); // two checked pages at two widths, on a shared machine
    const mia = await workspace.seed.member('Mia');
    await signIn(page, mia);
    await visit(page, '/settings/profile', 'bank-accounts-member-settings');
    await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Bank accounts' })).toHaveCount(0);
    await visit(page, '/settings/bank-accounts', 'bank-accounts-member');
    await expect(page.getByText('Not available to your role')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add bank account' })).toHaveCount(0);
    await expectClean(page);
  });
});

test('the bank accounts page in German', async ({ page, workspace }) => {
  await workspace.seed.german();
  const added = await workspace.api('POST', '/web/api/bank_accounts', { currency: 'EUR', holder: 'Acme Studio GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });
  expect(added.status).toBe(201);
  await visit(page, '/settings/bank-accounts', 'bank-accounts-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Bankverbindungen' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Einstellungen' }).getByRole('link', { name: 'Bankverbindungen' })).toBeVisible();
  const item = page.getByRole('list', { name: 'EUR', exact: true }).getByRole('listitem');
  await expect(item).toContainText('Standard für EUR');
  await expect(item).toContainText('DE89 3704 0044 0532 0130 00');
  await page.getByRole('button', { name: 'Bankverbindung hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neue Bankverbindung' });
  await expect(dialog.getByRole('textbox', { name: 'Kontoinhaber' })).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Lokale Kontodaten (optional)' })).toBeVisible();
  await checkPage(page, 'bank-accounts-de-new');
  await expectClean(page);
});
