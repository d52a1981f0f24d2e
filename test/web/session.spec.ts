import { expect, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

test.describe('signed out', () => {
  test.use({ signedIn: false });

  test('the sign-in page renders and is accessible at both widths', async ({ page }) => {
    await visit(page, '/sign-in', 'sign-in');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('E-mail address')).toBeFocused();
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
  });

  test('a wrong password shows the API’s message, and the right one signs in', async ({ page, workspace }) => {
    await visit(page, '/sign-in', 'sign-in-empty');
    await page.getByLabel('E-mail address').fill(workspace.owner.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toBeVisible();
    await checkPage(page, 'sign-in-wrong-password');
    const message = await alert.textContent();
    expect(message).toMatch(/\S/);

    await page.getByLabel('Password').fill(workspace.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).press('Enter');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Olive');
    await expect(page.getByText(workspace.name).first()).toBeVisible();
    await checkPage(page, 'home');
    await expectClean(page);
  });

  test('too many attempts: the page says how long to wait', async ({ page, workspace }) => {
    // The limiter's answer, as the server words it (a 429 with Retry-After), without spending real attempts.
    await page.route('**/web/api/session', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 429,
            headers: { 'retry-after': '42' },
            json: { error: 'rate_limited', error_description: 'Rate limit reached.', message: 'Rate limit reached.', retry_after: 42 },
          })
        : route.fallback(),
    );
    await visit(page, '/sign-in', 'sign-in-rate-limited-empty');
    await page.getByLabel('E-mail address').fill(workspace.owner.email);
    await page.getByLabel('Password').fill(workspace.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Too many attempts. Try again in 42 s.');
    await expect(page).toHaveURL('/sign-in');
  });

  test('a signed-in page sends you to sign in and back', async ({ page, workspace }) => {
    await page.goto('/settings/password');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fsettings%2Fpassword$/);
    await page.getByLabel('E-mail address').fill(workspace.owner.email);
    await page.getByLabel('Password').fill(workspace.owner.password);
    await page.getByLabel('Password').press('Enter');
    await expect(page).toHaveURL('/settings/password');
    await expect(page.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
  });
});

test.describe('signed in', () => {
  test('home says who and where; sign out ends the session', async ({ page, workspace }) => {
    await visit(page, '/', 'home-owner');
    await expect(page.getByText(`You are signed in to ${workspace.name} as Olive Owner (${workspace.owner.email}).`)).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in\?reason=signed-out/);
    await page.goto('/');
    await expect(page).toHaveURL('/sign-in');
  });
});

test.describe('one-time links', () => {
  test.use({ signedIn: false });

  // Each link in a page of its own: a change of the fragment alone is no new page load.
  test('a sign-in link without a token explains itself', async ({ page }) => {
    await visit(page, '/sign-in/link', 'sign-in-link-missing');
    await expect(page.getByRole('heading', { level: 1, name: 'This link can’t be used' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in with your password' })).toBeVisible();
  });

  test('an unknown sign-in link explains itself, never an error page', async ({ page }) => {
    await visit(page, '/sign-in/link#not-a-real-token', 'sign-in-link-invalid');
    await expect(page.getByRole('heading', { level: 1, name: 'This link can’t be used' })).toBeVisible();
    await expect(page).toHaveURL('/sign-in/link#not-a-real-token');
  });

  test('a reset link without a token explains itself', async ({ page }) => {
    await visit(page, '/reset-password', 'reset-password-missing');
    await expect(page.getByRole('link', { name: 'Request a new reset link' })).toBeVisible();
  });

  test('an unknown reset link says so when it opens, with the way on', async ({ page }) => {
    await visit(page, '/reset-password#not-a-real-token', 'reset-password');
    await expect(page.getByRole('heading', { level: 1, name: 'This link can’t be used' })).toBeVisible();
    await expect(page.getByLabel('New password')).toHaveCount(0); // no form to type into first
    await expect(page.getByRole('link', { name: 'Request a new reset link' })).toBeVisible();
    await expectClean(page);
  });

  test('forgot password: the same answer whether or not the account exists', async ({ page }) => {
    await visit(page, '/forgot-password', 'forgot-password');
    await page.getByLabel('E-mail address').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('If nobody@example.com has an account, a link to choose a new password is on its way.');
    await checkPage(page, 'forgot-password-sent');
  });
});

test.describe('one-time links that work', () => {
  test.use({ signedIn: false });

  test('the first start’s link signs in, then asks for a password, once', async ({ page, workspace }) => {
    const newcomer = await workspace.seed.memberWithoutPassword('Nora');
    const token = await workspace.seed.link(newcomer.id, 'sign_in');
    await page.goto(`/sign-in/link#${token}`);
    await expect(page).toHaveURL('/settings/password');
    await expect(page.getByRole('heading', { level: 1, name: 'Set your password' })).toBeVisible();
    await checkPage(page, 'set-password-first');
    await expect(page.getByLabel('Current password')).toHaveCount(0); // a session from a fresh link needs none
    await page.getByLabel('Password', { exact: true }).fill('my very first password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('status')).toContainText('Your password is set.');
    await checkPage(page, 'set-password-done');
    await page.getByRole('link', { name: 'Continue to your workspace' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Nora');

    // Used once: the same link again is a dead end with a way on, and the new password works.
    await page.goto('about:blank');
    await page.goto(`/sign-in/link#${token}`);
    await expect(page.getByRole('heading', { level: 1, name: 'This link can’t be used' })).toBeVisible();
    const signIn = await page.context().request.post('/web/api/session', { data: { email: newcomer.email, password: 'my very first password' } });
    expect(signIn.status()).toBe(200);
    await expectClean(page);
  });

  test('a reset link sets a new password and signs in', async ({ page, workspace }) => {
    const token = await workspace.seed.link(workspace.owner.id, 'password_reset');
    await visit(page, `/reset-password#${token}`, 'reset-password-valid');
    await page.getByLabel('New password').fill('a reset password of mine');
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('status')).toHaveText('Your new password is saved, and you are signed in.');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Olive');
    const old = await page.context().request.post('/web/api/session', { data: { email: workspace.owner.email, password: workspace.owner.password } });
    expect(old.status()).toBe(401);
    await expectClean(page);
  });

  test('a used reset link says so when it opens, before any typing, with the way to a new one', async ({ page, workspace }) => {
    const token = await workspace.seed.link(workspace.owner.id, 'password_reset');
    const used = await page.context().request.post('/web/api/password-resets/redeem', { data: { token, password: 'a reset password of mine' } });
    expect(used.status()).toBe(200);
    await page.context().clearCookies();
    await visit(page, `/reset-password#${token}`, 'reset-password-used');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link was already used');
    await expect(page.getByLabel('New password')).toHaveCount(0);
    await page.getByRole('link', { name: 'Request a new reset link' }).click();
    await expect(page).toHaveURL('/forgot-password');
    await expectClean(page);
  });

  test('an expired reset link says so when it opens, and is not used up by looking', async ({ page, workspace, sheaf }) => {
    const token = await workspace.seed.link(workspace.owner.id, 'password_reset');
    // Looking does not use the link: the page opens the form, and the link is still usable after.
    await page.goto(`/reset-password#${token}`);
    await expect(page.getByLabel('New password')).toBeVisible();
    const looked = await page.context().request.post('/web/api/password-resets/lookup', { data: { token } });
    expect(await looked.json()).toEqual({ state: 'usable' });
    sheaf.clock.advance(61 * 60_000);
    try {
      await page.goto('about:blank'); // the same address again would only move to its fragment
      await visit(page, `/reset-password#${token}`, 'reset-password-expired');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link has expired');
      await expect(page.getByRole('link', { name: 'Request a new reset link' })).toBeVisible();
    } finally {
      sheaf.clock.advance(-61 * 60_000);
    }
    await expectClean(page);
  });
});

test.describe('password', () => {
  test('change it: the current one is checked; the new one works', async ({ page, workspace }) => {
    await visit(page, '/settings/password', 'settings-password');
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel('New password').fill('a brand new password 42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password is changed.')).toBeHidden();
    await expect(page.getByRole('alert').or(page.locator('[aria-invalid="true"]')).first()).toBeVisible();
    await checkPage(page, 'settings-password-wrong-current');

    await page.getByLabel('Current password').fill(workspace.owner.password);
    await page.getByLabel('New password').fill('a brand new password 42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password is changed.')).toBeVisible();
    await expect(page.getByLabel('New password')).toHaveValue('');
    const signIn = await page.context().request.post('/web/api/session', { data: { email: workspace.owner.email, password: 'a brand new password 42' } });
    expect(signIn.status()).toBe(200);
    await expectClean(page);
  });
});
