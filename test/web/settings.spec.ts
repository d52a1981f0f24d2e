import { expect, ok, signIn, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/** What a program does with a key (the curl line of the page, as a fetch). */
async function usersMe(baseURL: string, key: string, companyId: string) {
  return fetch(`${baseURL}/api/v2/users/me`, { headers: { Authorization: `Bearer ${key}`, 'Service-Account-Id': companyId } });
}

test.describe('workspace settings', () => {
  test('an owner changes the settings; they are kept', async ({ page, workspace }) => {
    const calls = await visit(page, '/settings/workspace', 'settings-workspace-owner');
    expect(calls.length).toBeLessThanOrEqual(3);
    await expect(page.getByLabel('Workspace name')).toHaveValue(workspace.name);

    await page.getByLabel('Address').fill('1 Main Street\n10115 Berlin');
    await page.getByLabel('Time zone').fill('Europe/Lisbon');
    await page.getByLabel('Currency').fill('usd');
    const approvals = page.getByRole('switch', { name: 'Timesheet approvals' });
    const approvalsBefore = await approvals.isChecked();
    await approvals.focus();
    await page.keyboard.press('Space');
    // A new week start moves approved weeks' locks: said under the field before saving.
    const moves = page.getByText(/^Approvals stay, but each approved week’s lock moves to the new weeks/);
    await expect(moves).toHaveCount(0);
    await page.getByRole('button', { name: /Week starts on/ }).click();
    await page.getByRole('option', { name: 'Sunday' }).click();
    await expect(moves).toBeVisible();
    await checkPage(page, 'settings-workspace-week-start');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

    await page.reload();
    await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Lisbon');
    await expect(page.getByLabel('Currency')).toHaveValue('USD');
    await expect(page.getByLabel('Address')).toHaveValue('1 Main Street\n10115 Berlin');
    await expect(approvals).toBeChecked({ checked: !approvalsBefore });
    await expect(page.getByRole('button', { name: /Week starts on/ })).toContainText('Sunday');
    await expect(moves).toHaveCount(0);
    await expectClean(page);
  });

  test('bad input is caught before sending; what the server refuses shows at the field', async ({ page }) => {
    await visit(page, '/settings/workspace', 'settings-workspace');
    let patches = 0;
    page.on('request', (r) => {
      if (r.method() === 'PATCH' && r.url().endsWith('/web/api/workspace')) patches++;
    });
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByLabel('Round to minutes').fill('90');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Enter an IANA time zone, such as Europe/Berlin.')).toBeVisible();
    await expect(page.getByText('Enter whole minutes from 1 to 60.')).toBeVisible();
    expect(patches).toBe(0);
    await checkPage(page, 'settings-workspace-invalid');

    // A code the form cannot judge (well-formed, but no currency): the server's message, under the field.
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Round to minutes').fill('15');
    await page.getByLabel('Currency').fill('QQQ');
    const answer = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/web/api/workspace'));
    await page.getByRole('button', { name: 'Save settings' }).click();
    const response = await answer;
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { field?: string; message: string };
    await expect(page.getByText(body.message)).toBeVisible();
  });

  test('a member reads the settings and cannot change them', async ({ page, workspace }) => {
    const member = await workspace.seed.memberWithPassword('Mia');
    await page.context().clearCookies();
    await signIn(page, member);
    await visit(page, '/settings/workspace', 'settings-workspace-member');
    await expect(page.getByText(workspace.name).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' })).toHaveCount(0);
  });
});

test.describe('API and Developers', () => {
  test('an administrator creates a full-access key and a program uses it', async ({ page, workspace, baseURL }) => {
    const calls = await visit(page, '/settings/api', 'settings-api-owner');
    expect(calls.length).toBeLessThanOrEqual(3);
    await expect(page.getByText(workspace.id)).toBeVisible();

    await page.getByRole('button', { name: 'Create full-access key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a full-access key' });
    // Nothing is sent without a name and a person.
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await checkPage(page, 'settings-api-create-key');
    await dialog.getByLabel('Name').fill('Payroll export');
    await dialog.getByRole('button', { name: /Acts as/ }).click();
    await page.getByRole('option', { name: /Olive Owner/ }).click();
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Copy your new key now' });
    await expect(secretDialog).toBeVisible();
    const curl = (await secretDialog.getByText(/^curl /).textContent())!;
    const secret = /Bearer ([^"]+)"/.exec(curl)![1];
    expect(curl).toBe(`curl -H "Authorization: Bearer ${secret}" -H "Service-Account-Id: ${workspace.id}" ${baseURL}/api/v2/users/me`);
    await checkPage(page, 'settings-api-secret');
    await secretDialog.getByRole('button', { name: 'Done' }).click();

    const me = await usersMe(baseURL!, secret, workspace.id);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(workspace.owner.email);
    // The list shows the key, never its value.
    await expect(page.getByRole('list', { name: 'Keys' })).toContainText('Payroll export');
    await expect(page.getByText(secret)).toHaveCount(0);
  });

  test('an administrator neither makes nor revokes a key that acts as an owner', async ({ page, workspace }) => {
    await ok(workspace.api('POST', '/web/api/keys', { kind: 'integration', name: 'Owner sync' }));
    const ada = await workspace.seed.memberWithPassword('Ada', 'administrator');
    await signIn(page, ada);
    await visit(page, '/settings/api', 'settings-api-administrator');
    // The owner's key is listed, without a Revoke.
    const keys = page.getByRole('list', { name: 'Keys' }).getByRole('listitem');
    const ownersKey = keys.filter({ hasText: 'Olive Owner' });
    await expect(ownersKey).not.toHaveCount(0);
    await expect(ownersKey.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);
    // The people a new key may act as leave the owner out.
    await page.getByRole('button', { name: 'Create full-access key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a full-access key' });
    await dialog.getByRole('button', { name: /Acts as/ }).click();
    await expect(page.getByRole('option', { name: /Ada/ })).toBeVisible();
    await expect(page.getByRole('option', { name: /Olive Owner/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expectClean(page);
  });

  test('a member rotates their personal key: the old one works until revoked', async ({ page, workspace, baseURL }) => {
    const member = await workspace.seed.memberWithPassword('Max');
    await page.context().clearCookies();
    await signIn(page, member);
    await visit(page, '/settings/api', 'settings-api-member');
    await expect(page.getByRole('button', { name: 'Create full-access key' })).toHaveCount(0);

    const secretOf = async () => {
      const dialog = page.getByRole('dialog', { name: 'Copy your new key now' });
      const curl = (await dialog.getByText(/^curl /).textContent())!;
      await dialog.getByRole('button', { name: 'Done' }).click();
      return /Bearer ([^"]+)"/.exec(curl)![1];
    };
    await page.getByRole('button', { name: 'Create personal key' }).click();
    const first = await secretOf();
    expect((await usersMe(baseURL!, first, workspace.id)).status).toBe(200);

    await page.getByRole('button', { name: 'Rotate personal key' }).click();
    const second = await secretOf();
    expect(second).not.toBe(first);
    expect((await usersMe(baseURL!, second, workspace.id)).status).toBe(200);
    expect((await usersMe(baseURL!, first, workspace.id)).status).toBe(200);
    await expect(page.getByText(/previous value stops working/i).first()).toBeVisible();
    await checkPage(page, 'settings-api-member-rotated');

    // Revoking stops the key and its previous value at once.
    await page.getByRole('button', { name: 'Revoke personal key' }).click();
    await expect(page.getByRole('button', { name: 'Create personal key' })).toBeVisible();
    expect((await usersMe(baseURL!, second, workspace.id)).status).toBe(401);
    expect((await usersMe(baseURL!, first, workspace.id)).status).toBe(401);
    await expectClean(page);
  });
});
