import type { CDPSession, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { checkPage, expectClean } from './visit.ts';

/**
 * Passkeys in the browser (issue 28 item 3), with Chromium's virtual authenticator (DevTools'
 * WebAuthn domain: a platform authenticator with resident keys and user verification): add one
 * on the profile under a name, be told when this device has one already, rename it, sign in with
 * it alone, use it as the second step after the password, and remove it. Browsers refuse
 * passkeys for an IP address, so the page is opened as localhost (which the server answers as
 * too, src/modules/people/passkeys/service.ts). Screens at 1280 and 390 px with axe.
 */

test.use({ signedIn: false });

// A sign-in costs a scrypt hash on a busy machine.
const SLOW = { timeout: 20_000 };

async function virtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return cdp;
}

async function passwordSignIn(page: Page, origin: string, who: { email: string; password: string }) {
  await page.goto(`${origin}/sign-in`);
  await page.getByLabel('E-mail address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('add a passkey on the profile, sign in with it alone and as the second step, rename and remove it', async ({ page, sheaf, workspace }) => {
  const origin = sheaf.url.replace('127.0.0.1', 'localhost');
  await virtualAuthenticator(page);

  await passwordSignIn(page, origin, workspace.owner);
  await expect(page.getByText(`You are signed in to ${workspace.name} as`)).toBeVisible(SLOW);
  await page.goto(`${origin}/settings/profile`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('You have no passkey yet.')).toBeVisible();

  await section.getByRole('textbox', { name: 'Name of the new passkey (optional)' }).fill('Work laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByText('The passkey “Work laptop” is added. You can sign in with it now.')).toBeVisible();
  const list = section.getByRole('list', { name: 'Your passkeys' });
  await expect(list.getByRole('listitem', { name: 'Work laptop' })).toContainText('not used yet');
  await checkPage(page, 'profile-passkeys');

  // The same device again: the browser refuses (the options exclude its passkey), and the page says why.
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByText('This device has a passkey for your account already.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);

  await list.getByRole('button', { name: 'Rename Work laptop' }).click();
  await list.getByRole('textbox', { name: 'Name', exact: true }).fill('Laptop');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByRole('listitem', { name: 'Laptop' })).toBeVisible();

  // Signed out, the passkey alone signs in (the virtual authenticator verifies its user).
  await page.context().clearCookies({ name: 'sheaf_session' });
  await page.goto(`${origin}/sign-in`);
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
  await checkPage(page, 'sign-in-with-passkey');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByText(`You are signed in to ${workspace.name} as`)).toBeVisible(SLOW);
  await page.goto(`${origin}/settings/profile`);
  await expect(list.getByRole('listitem', { name: 'Laptop' })).toContainText('last used');

  // With a passkey, the password is followed by the passkey as the second step.
  await page.context().clearCookies({ name: 'sheaf_session' });
  await passwordSignIn(page, origin, workspace.owner);
  await expect(page).toHaveURL(`${origin}/sign-in/code`, SLOW);
  await expect(page.getByText('Confirm that it is you with one of your passkeys.')).toBeVisible();
  await expect(page.getByLabel('Code')).toHaveCount(0);
  await checkPage(page, 'sign-in-passkey-second-step');
  await page.getByRole('button', { name: 'Continue with a passkey' }).click();
  await expect(page.getByText(`You are signed in to ${workspace.name} as`)).toBeVisible(SLOW);

  await page.goto(`${origin}/settings/profile`);
  await list.getByRole('button', { name: 'Remove Laptop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(section.getByText('You have no passkey yet.')).toBeVisible();
  await expectClean(page);
});

test('a passkey the server does not know is refused with a message, and the password still works', async ({ page, sheaf, workspace }) => {
  const origin = sheaf.url.replace('127.0.0.1', 'localhost');
  const cdp = await virtualAuthenticator(page);
  await passwordSignIn(page, origin, workspace.owner);
  await expect(page.getByText(`You are signed in to ${workspace.name} as`)).toBeVisible(SLOW);
  await page.goto(`${origin}/settings/profile`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(section.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem')).toHaveCount(1);

  // Removed on the server but still on the device: the device offers it, Sheaf refuses it.
  await section.getByRole('button', { name: 'Remove Passkey' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(section.getByText('You have no passkey yet.')).toBeVisible();
  await page.context().clearCookies({ name: 'sheaf_session' });
  await page.goto(`${origin}/sign-in`);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page.getByText('Sheaf does not know this passkey, or it did not sign in: try again, or sign in another way.')).toBeVisible(SLOW);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/sign-in-passkey-refused-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await cdp.detach();

  await page.getByLabel('E-mail address').fill(workspace.owner.email);
  await page.getByLabel('Password').fill(workspace.owner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`You are signed in to ${workspace.name} as`)).toBeVisible(SLOW);
});

test('where the workspace requires a second factor, a passkey added on the set-up page lets the person in', async ({ page, sheaf, workspace }) => {
  const origin = sheaf.url.replace('127.0.0.1', 'localhost');
  await virtualAuthenticator(page);
  const member = await workspace.seed.memberWithPassword('Pia');
  await sheaf.db.updateTable('companies').set({ require_two_factor: true }).where('id', '=', workspace.id).execute();
  await passwordSignIn(page, origin, member);
  await expect(page).toHaveURL(/\/two-factor-setup/, SLOW);
  await expect(page.getByRole('heading', { name: 'Or use a passkey' })).toBeVisible();
  await checkPage(page, 'two-factor-required-passkey');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText(`You are signed in to ${workspace.name} as`)).toBeVisible(SLOW);
  await expect(page).toHaveURL(`${origin}/`);
});
