import type { Browser, Page } from '@playwright/test';
import { expect, ok, signIn, test, type SheafServer } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

// A real SMTP sink and the outbox worker in this file's server: the invitation travels by e-mail.
test.use({ mail: true });

/** The token of the invitation link e-mailed to `email` (quoted-printable soft breaks undone). */
async function invitationToken(sheaf: SheafServer, email: string, nth = 1): Promise<string> {
  const mine = () => sheaf.mail!.received.filter((m) => m.rcpt.includes(email));
  await expect.poll(() => mine().length, { message: `invitation e-mail to ${email}`, timeout: 10_000 }).toBeGreaterThanOrEqual(nth);
  const text = mine()[nth - 1].raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  return /\/invitations\/accept#([A-Za-z0-9_.~-]+)/.exec(text)![1];
}

/** A page of its own browser context (its own cookies), on the test server. */
async function freshPage(browser: Browser, sheaf: SheafServer) {
  const context = await browser.newContext({ baseURL: sheaf.url });
  return context.newPage();
}

async function apiStatus(page: Page, path: string) {
  return (await page.context().request.get(path)).status();
}

test('invite by e-mail, accept, and the new member sees only what a member may', async ({ page, workspace, sheaf, browser }) => {
  test.setTimeout(180_000); // two browsers, an e-mail and five pages checked at both widths
  const calls = await visit(page, '/settings/invitations', 'invitations-empty');
  expect(calls.length).toBeLessThanOrEqual(3);
  await expect(page.getByText('No invitations yet.')).toBeVisible();

  const email = `nina.${Date.now()}@example.com`;
  await page.getByRole('button', { name: 'Invite someone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite someone' });
  await dialog.getByLabel('E-mail address').fill('not an address');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByLabel('E-mail address')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('E-mail address').fill(email);
  await dialog.getByRole('button', { name: /Role/ }).click();
  await page.getByRole('option', { name: 'Manager' }).click();
  await dialog.getByText('See invoices').click();
  await checkPage(page, 'invitations-dialog');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation sent to ${email}.` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Invitations' })).toContainText(`${email}Manager · Pending`);
  await checkPage(page, 'invitations-list');

  // The same address again: the API's refusal, in words, and nothing more created.
  await page.getByRole('button', { name: 'Invite someone' }).click();
  await dialog.getByLabel('E-mail address').fill(email);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('This address has an invitation waiting: resend that one instead.')).toBeVisible();
  await expect(dialog.getByLabel('E-mail address')).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('list', { name: 'Invitations' }).getByRole('listitem')).toHaveCount(1);

  const token = await invitationToken(sheaf, email);
  const invited = await freshPage(browser, sheaf);
  await visit(invited, `/invitations/accept#${token}`, 'invitation-accept-new');
  await expect(invited.getByRole('heading', { level: 1 })).toHaveText(`Join ${workspace.name}`);
  await invited.getByLabel('First name').fill('Nina');
  await invited.getByLabel('Last name').fill('Newcomer');
  await invited.getByLabel('Choose a password').fill('short');
  await invited.getByRole('button', { name: 'Accept and sign in' }).click();
  await expect(invited.getByText('Use at least 12 characters.')).toBeVisible();
  // Accepting asks the server nothing it refuses (it once re-asked for the used link: a 400 in the console).
  const refused: string[] = [];
  invited.on('response', (r) => {
    if (r.status() >= 400) refused.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  await invited.getByLabel('Choose a password').fill('a long enough password');
  await invited.getByRole('button', { name: 'Accept and sign in' }).click();
  await expect(invited).toHaveURL('/');
  await expect(invited.getByRole('heading', { level: 1 })).toHaveText('Welcome, Nina');
  await invited.waitForLoadState('networkidle');
  expect(refused).toEqual([]);

  // A manager: no Members or Invitations, no full-access keys; the server agrees.
  await visit(invited, '/settings/api', 'settings-api-manager');
  const settingsNav = invited.getByRole('navigation', { name: 'Settings' });
  await expect(settingsNav.getByRole('link', { name: 'Members' })).toHaveCount(0);
  await expect(settingsNav.getByRole('link', { name: 'Invitations' })).toHaveCount(0);
  await expect(invited.getByRole('button', { name: 'Create full-access key' })).toHaveCount(0);
  await expect(invited.getByRole('button', { name: 'Create personal key' })).toBeVisible();
  expect(await apiStatus(invited, '/web/api/members')).toBe(403);
  await expectClean(invited);

  // The link is used up.
  const again = await freshPage(browser, sheaf);
  await again.goto(`/invitations/accept#${token}`);
  await expect(again.getByRole('heading', { level: 1 })).toHaveText('This invitation can’t be used');

  await page.reload();
  await expect(page.getByRole('list', { name: 'Invitations' })).toContainText('Accepted');
  await invited.context().close();
  await again.context().close();
});

test('a wrong invitation link gives a clear page', async ({ browser, sheaf }) => {
  const page = await freshPage(browser, sheaf);
  await visit(page, '/invitations/accept#not-a-real-token', 'invitation-accept-invalid');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This invitation can’t be used');
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.context().close();
});

test('resend sends a new link and the old one stops; revoke ends it', async ({ page, sheaf }) => {
  await visit(page, '/settings/invitations', 'invitations');
  const email = `rex.${Date.now()}@example.com`;
  await page.getByRole('button', { name: 'Invite someone' }).click();
  await page.getByRole('dialog').getByLabel('E-mail address').fill(email);
  await page.getByRole('dialog').getByRole('button', { name: 'Send invitation' }).click();
  const first = await invitationToken(sheaf, email, 1);
  await page.getByRole('button', { name: `Resend to ${email}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Invitation sent again to ${email}.` })).toBeVisible();
  const second = await invitationToken(sheaf, email, 2);
  expect(second).not.toBe(first);
  const lookup = (token: string) => page.context().request.post('/web/api/invitations/lookup', { data: { token }, headers: { origin: sheaf.url } });
  expect((await lookup(first)).status()).toBe(400);
  expect((await lookup(second)).status()).toBe(200);
  await page.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
  await expect(page.getByRole('list', { name: 'Invitations' })).toContainText('Revoked');
  expect((await lookup(second)).status()).toBe(400);
});

test('a role change applies on the member’s next request', async ({ page, workspace, browser, sheaf }) => {
  const mia = await workspace.seed.memberWithPassword('Mia');
  const miaPage = await freshPage(browser, sheaf);
  await signIn(miaPage, mia);
  expect(await apiStatus(miaPage, '/web/api/members')).toBe(403);

  const calls = await visit(page, '/settings/members', 'members');
  expect(calls.length).toBeLessThanOrEqual(3);
  await page.getByRole('button', { name: 'Edit Mia Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Mia Tester' });
  await dialog.getByLabel('Expected hours per week').fill('lots');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Enter hours such as 40 or 37.5.')).toBeVisible();
  await dialog.getByLabel('Expected hours per week').fill('32');
  await dialog.getByRole('button', { name: /Role/ }).click();
  await page.getByRole('option', { name: 'Administrator' }).click();
  await checkPage(page, 'members-edit-dialog');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Members' })).toContainText('Administrator');

  // Her next request, on the session she already has.
  expect(await apiStatus(miaPage, '/web/api/members')).toBe(200);
  await visit(miaPage, '/settings/workspace', 'settings-workspace-promoted');
  await expect(miaPage.getByRole('button', { name: 'Save settings' })).toBeVisible();

  // Deactivated: her session stops working on the next request.
  await page.getByRole('button', { name: 'Edit Mia Tester' }).click();
  await dialog.getByText(/^Active/).click();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('list', { name: 'Members' })).toContainText('Deactivated');
  expect(await apiStatus(miaPage, '/web/api/members')).not.toBe(200);
  await miaPage.context().close();
  await expectClean(page);
});

test('an agent is added: no sign-in, keys only', async ({ page }) => {
  await visit(page, '/settings/members', 'members-owner');
  await page.getByRole('button', { name: 'Add agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add an agent' });
  await checkPage(page, 'members-agent-dialog');
  await dialog.getByLabel('Name').fill('Invoice bot');
  await dialog.getByRole('button', { name: 'Add agent' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('listitem').filter({ hasText: 'Invoice bot' });
  await expect(row).toContainText('Agent');
  await expect(row).toContainText('No sign-in');
});

test('a manager of a large team: the teammates are searched, the chosen ones come first and are counted', async ({ page, workspace }) => {
  test.setTimeout(120_000);
  const max = await workspace.seed.memberWithoutPassword('Max', 'manager');
  const people = ['Anna', 'Ben', 'Chloé', 'Dana', 'Emil', 'Fritz', 'Greta', 'Hugo', 'Ida', 'Jonas', 'Karla', 'Lena', 'Mats', 'Nora'];
  const ids: Record<string, string> = {};
  for (const name of people) ids[name] = (await workspace.seed.memberWithoutPassword(name)).id;
  await ok(workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [ids.Nora] }));

  await visit(page, '/settings/members', 'members-large-team');
  await page.getByRole('button', { name: 'Edit Max Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Max Tester' });
  const teammates = dialog.getByRole('group', { name: /^Teammates/ });
  await expect(teammates.getByText('1 person chosen.')).toBeVisible();
  // Nora, chosen before, is first though she is last by name.
  await expect(teammates.getByRole('checkbox').first()).toHaveAccessibleName('Nora Tester');
  await teammates.getByLabel('Find a person').fill('chloe');
  await expect(teammates.getByRole('status')).toHaveText('1 person matching “chloe”.');
  await expect(teammates.getByRole('checkbox')).toHaveCount(1);
  await teammates.getByText('Chloé Tester').click();
  await expect(teammates.getByText('2 people chosen.')).toBeVisible();
  await teammates.getByLabel('Find a person').fill('zz');
  await expect(teammates.getByRole('status')).toHaveText('0 people matching “zz”.');
  await teammates.getByLabel('Find a person').fill('');
  await expect(teammates.getByRole('checkbox')).toHaveCount(people.length + 1); // and the owner
  await checkPage(page, 'members-teammates-search');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toHaveCount(0);
  const saved = await ok(workspace.api('GET', '/web/api/members'));
  const manager = (saved.members ?? saved).find((m: { id: string }) => m.id === max.id);
  expect([...manager.teammate_ids].sort()).toEqual([ids.Chloé, ids.Nora].sort());
  await expectClean(page);
});
