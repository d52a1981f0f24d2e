import type { Page } from '@playwright/test';
import { expect, test, type SheafServer, type TestWorkspace } from './fixtures.ts';
import { startProvider, type TestProvider } from '../fixtures/oidc-provider.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Single sign-on in the browser (issue 28 item 1), against a real oidc-provider on 127.0.0.1:
 * the administrator sets it up on Settings → Single sign-on; a member then signs in through the
 * provider's own login page, end to end, at 1280 and at 390 px; the failures, each back at
 * sign-in with its reason: a disallowed domain, a forged state, a replayed code, an ID token
 * expired by Sheaf's clock, and a provider that is down.
 */

const SLOW = { timeout: 30_000 };

/** A provider whose one client redirects to this worker's server (its public URL is where it listens: test/web/fixtures.ts). */
async function providerFor(sheaf: SheafServer): Promise<TestProvider> {
  return startProvider([`${sheaf.url}/web/api/sso/callback`]);
}

const domainOf = (email: string) => email.slice(email.indexOf('@') + 1);

/** Points the workspace's single sign-on at `provider`, with its own button name and the domains that may join. */
async function configureProvider(workspace: TestWorkspace, provider: TestProvider, display_name: string, allowed_domains: string[]) {
  const saved = await workspace.api('PUT', '/web/api/single-sign-on', {
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    allowed_domains,
    new_member_role: 'member',
    allow_password_sign_in: true,
    display_name,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

test('an administrator sets up single sign-on for the workspace', async ({ page, sheaf, workspace }) => {
  test.setTimeout(SLOW.timeout);
  const provider = await providerFor(sheaf);
  try {
    await visit(page, '/settings/single-sign-on', 'single-sign-on-off');
    await expect(page.getByText('Single sign-on is off.')).toBeVisible();
    await expect(page.getByText(`${sheaf.url}/web/api/sso/callback`)).toBeVisible();
    await page.getByLabel('Issuer URL').fill(provider.issuer);
    await page.getByLabel('Client ID').fill(provider.clientId);
    await page.getByLabel('Client secret').fill(provider.clientSecret);
    await page.getByLabel('Button name').fill('Acme ID');
    await page.getByLabel('E-mail domains that may join').fill('example.com\nacme.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expect(page.getByText('Single sign-on is on: the sign-in page offers “Sign in with Acme ID”.')).toBeVisible();
    // The secret is gone from the page, and the server keeps it sealed.
    await expect(page.getByLabel('Client secret')).toHaveValue('');
    const state = await workspace.api('GET', '/web/api/single-sign-on');
    expect(state.body).toMatchObject({ enabled: true, client_secret_set: true, allowed_domains: ['example.com', 'acme.example'], display_name: 'Acme ID' });
    expect(JSON.stringify(state.body)).not.toContain(provider.clientSecret);
    await checkPage(page, 'single-sign-on-on');

    // An issuer that is no provider is refused under its field.
    await page.getByLabel('Issuer URL').fill('http://127.0.0.1:9/');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(/No OpenID Connect provider answers/)).toBeVisible();
    await expectClean(page);
  } finally {
    await provider.stop();
  }
});

test.describe('signing in', () => {
  test.use({ signedIn: false });

  // Each test's provider has a button name of its own: the workers' tests share a server, and
  // their workspaces all allow the seed's example.com, so the sign-in page may offer several.
  async function signInThroughProvider(page: Page, email: string, accountId: string, button: string) {
    await page.context().clearCookies();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('link', { name: `Sign in with ${button}`, exact: true }).click();
    // The provider's own (development) login page.
    await page.locator('input[name="login"]').fill(accountId);
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  test('a member signs in through the provider, at 1280 and at 390 px', async ({ page, sheaf, workspace }) => {
    test.setTimeout(60_000);
    const provider = await providerFor(sheaf);
    try {
      await configureProvider(workspace, provider, 'Mia ID', [domainOf(workspace.owner.email)]);
      const member = await workspace.seed.memberWithoutPassword('Mia');
      provider.accounts.set('mia-subject', { email: member.email, email_verified: true, given_name: 'Mia' });

      // The sign-in page offers the button once the address's domain is known.
      await visit(page, '/sign-in', 'sign-in-sso-empty');
      await page.getByLabel('E-mail address').fill(member.email);
      await expect(page.getByRole('link', { name: 'Sign in with Mia ID' })).toBeVisible();
      await checkPage(page, 'sign-in-sso-button');

      for (const size of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(size);
        await signInThroughProvider(page, member.email, 'mia-subject', 'Mia ID');
        await expect(page).toHaveURL(`${sheaf.url}/`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.screenshot({ path: `test-results/screens/sso-signed-in-${size.width}.png`, fullPage: true, animations: 'disabled', caret: 'hide' });
        const session = await page.context().request.get('/web/api/session');
        expect((await session.json()).user.email).toBe(member.email);
      }

      // A new person of the allowed domain joins with the configured role.
      const newcomer = `nora.${Date.now().toString(36)}@${domainOf(workspace.owner.email)}`;
      provider.accounts.set('nora-subject', { email: newcomer, email_verified: true, given_name: 'Nora', family_name: 'New' });
      await page.setViewportSize({ width: 1280, height: 800 });
      await signInThroughProvider(page, newcomer, 'nora-subject', 'Mia ID');
      await expect(page).toHaveURL(`${sheaf.url}/`);
      const joined = await page.context().request.get('/web/api/session');
      expect((await joined.json()).workspace).toMatchObject({ id: workspace.id, role: 'member' });
    } finally {
      await provider.stop();
    }
  });

  test('a failed sign-in says why on the sign-in page; a workspace link shows its button', async ({ page, sheaf, workspace }) => {
    test.setTimeout(SLOW.timeout);
    const provider = await providerFor(sheaf);
    try {
      await configureProvider(workspace, provider, 'Acme ID', []);
      await visit(page, `/sign-in?workspace=${workspace.id}&sso_error=domain`, 'sign-in-sso-error');
      await expect(page.getByRole('alert')).toContainText('domain may not join this workspace');
      await expect(page.getByRole('link', { name: 'Sign in with Acme ID' })).toBeVisible();
      // A stranger at the provider: back at sign-in with the reason.
      provider.accounts.set('stranger', { email: 'stranger@not-allowed.example', email_verified: true });
      await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
      await page.locator('input[name="login"]').fill('stranger');
      await page.locator('input[name="password"]').fill('anything');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await expect(page).toHaveURL(`${sheaf.url}/sign-in?sso_error=domain`);
      await expect(page.getByRole('alert')).toContainText('domain may not join this workspace');
    } finally {
      await provider.stop();
    }
  });

  test('a forged state, a replayed code, an expired ID token and a provider that is down each end at sign-in with the reason', async ({ page, sheaf, workspace }) => {
    test.setTimeout(90_000);
    // ID tokens live a minute: Sheaf's clock moves two on while one is on its way back.
    const provider = await startProvider([`${sheaf.url}/web/api/sso/callback`], { idTokenTtlSeconds: 60 });
    let running = true;
    try {
      await configureProvider(workspace, provider, 'Mo ID', [domainOf(workspace.owner.email)]);
      const member = await workspace.seed.memberWithoutPassword('Mo');
      const button = 'Mo ID';
      provider.accounts.set('mo-subject', { email: member.email, email_verified: true });
      const reason = (text: string | RegExp) => expect(page.getByRole('alert')).toContainText(text);

      // A callback with a state this server never gave out.
      await page.goto('/web/api/sso/callback?state=forged-state&code=forged-code');
      await expect(page).toHaveURL(`${sheaf.url}/sign-in?sso_error=state`);
      await reason('could not be matched to one started here');

      // A code used once cannot sign in again: the same callback a second time.
      let callback = '';
      page.on('request', (r) => {
        if (r.url().includes('/web/api/sso/callback')) callback = r.url();
      });
      await signInThroughProvider(page, member.email, 'mo-subject', button);
      await expect(page).toHaveURL(`${sheaf.url}/`, SLOW);
      await page.context().clearCookies();
      await page.goto(callback);
      await expect(page).toHaveURL(`${sheaf.url}/sign-in?sso_error=state`);
      expect((await page.context().request.get('/web/api/session')).status()).toBe(401);

      // An ID token past its expiry by Sheaf's clock: it moves two minutes on while the person is at the provider.
      await page.context().clearCookies();
      await page.goto('/sign-in');
      await page.getByLabel('E-mail address').fill(member.email);
      await page.getByRole('link', { name: `Sign in with ${button}`, exact: true }).click();
      await expect(page.locator('input[name="login"]')).toBeVisible();
      sheaf.clock.advance(120_000);
      try {
        await page.locator('input[name="login"]').fill('mo-subject');
        await page.locator('input[name="password"]').fill('anything');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await expect(page).toHaveURL(`${sheaf.url}/sign-in?sso_error=expired`, SLOW);
        await reason('took too long');
      } finally {
        sheaf.clock.advance(-120_000);
      }

      // The provider is down: the button leads back with the reason, and the password still works.
      await provider.stop();
      running = false;
      await page.goto(`/sign-in?workspace=${workspace.id}`);
      await page.getByRole('link', { name: `Sign in with ${button}` }).click();
      await expect(page).toHaveURL(`${sheaf.url}/sign-in?sso_error=provider`, SLOW);
      await reason('could not be reached');
      await page.screenshot({ path: 'test-results/screens/sign-in-sso-provider-down-390.png', fullPage: true });
    } finally {
      if (running) await provider.stop();
    }
  });
});
