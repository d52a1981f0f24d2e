import { expect, ok, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

test('the navigation: sidebar links at 1280 px, a menu at 390 px', async ({ page }) => {
  await visit(page, '/', 'home');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL('/settings/workspace');
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused(); // a screen reader reads the new page
  await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await expectAccessible(page, 'the menu open at 390 px');
  await page.screenshot({ path: 'test-results/screens/menu-open-390.png' });
  await menu.getByRole('link', { name: 'Home' }).click();
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL('/');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeFocused();
  await expectClean(page);
});

test('switching workspace changes where you are', async ({ page, workspace }) => {
  const other = await workspace.seed.otherWorkspace(`Beta ${Date.now()}`, 'member');
  await visit(page, '/settings/password', 'settings-two-workspaces');
  await page.getByRole('button', { name: /Workspace/ }).click();
  await page.getByRole('option', { name: new RegExp(other.name) }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByText(`You are signed in to ${other.name} as`)).toBeVisible();
  await expect(page.getByRole('main').getByText('Member', { exact: true })).toBeVisible();
  await checkPage(page, 'home-second-workspace');
});

test('an unknown address inside the app says so, in the shell', async ({ page }) => {
  await visit(page, '/no/such/page', 'not-found');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('signing out in one tab signs out the others', async ({ page, context }) => {
  await visit(page, '/', 'home');
  const other = await context.newPage();
  await other.goto('/settings/password');
  await expect(other.getByRole('heading', { level: 1, name: 'Change your password' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in\?reason=signed-out/);
  await expect(other).toHaveURL(/\/sign-in\?reason=signed-out&next=%2Fsettings%2Fpassword/);
  await expect(other.getByRole('status')).toHaveText('You are signed out.');
});

test('a session that ended elsewhere leads to sign-in at the next call, and back after it', async ({ page, workspace }) => {
  await visit(page, '/settings/password', 'settings-password');
  // The same session, ended from outside the page (as "sign out everywhere" or an expiry would).
  const request = page.context().request;
  const session = await (await request.get('/web/api/session')).json();
  expect((await request.delete('/web/api/session', { headers: { 'X-CSRF-Token': session.csrf_token } })).status()).toBe(204);

  await page.getByLabel('Current password').fill(workspace.owner.password);
  await page.getByLabel('New password').fill('another new password 7');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/sign-in\?reason=ended&next=%2Fsettings%2Fpassword/);
  await expect(page.getByRole('status')).toHaveText('Your session has ended. Sign in again to continue.');
  await page.getByLabel('E-mail address').fill(workspace.owner.email);
  await page.getByLabel('Password').fill(workspace.owner.password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL('/settings/password');
});

test('when your membership of the current workspace ends, its session ends and you sign in to the one you keep', async ({ page, workspace }) => {
  const other = await workspace.seed.otherWorkspace(`Gamma ${Date.now()}`, 'member');
  await visit(page, '/', 'home');
  await page.getByRole('button', { name: /Workspace/ }).click();
  await page.getByRole('option', { name: new RegExp(other.name) }).click();
  await expect(page.getByText(`You are signed in to ${other.name} as`)).toBeVisible();

  // Deactivation ends the member's sessions open in that workspace (a lost laptop must not keep it).
  await workspace.seed.deactivateOwnerIn(other.id);
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByLabel('E-mail address').fill(workspace.owner.email);
  await page.getByLabel('Password').fill(workspace.owner.password);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByText(`You are signed in to ${workspace.name} as`)).toBeVisible();
});

test('a long workspace name is cut to the sidebar and the bar, and shows whole on hover', async ({ page, workspace }) => {
  const name = `Acme ${'Werbeagentur und Unternehmensberatung '.repeat(6).trim()}`;
  await ok(workspace.api('PATCH', '/web/api/workspace', { name }));
  await visit(page, '/', 'home-long-name');
  const inSidebar = page.getByRole('complementary').getByText(name, { exact: true });
  await expect(inSidebar).toHaveAttribute('title', name);
  const box = await inSidebar.boundingBox();
  expect(box!.height).toBeLessThan(30); // one line, not seven
  await page.setViewportSize({ width: 390, height: 844 });
  const inBar = page.getByRole('banner').getByText(name, { exact: true });
  await expect(inBar).toHaveAttribute('title', name);
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectClean(page);
});

test('the keyboard’s place is visible on every control it reaches', async ({ page }) => {
  // Tailwind 4's `outline-none` sets the outline style that a focus rule's `outline-2` reads:
  // the ring was 2 px of `none` on every button and link until the rule named its style.
  await visit(page, '/time/week', 'week-keyboard');
  const seen: string[] = [];
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 && !style.outlineColor.endsWith(', 0)');
      return { name: `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`, shown: outlined || style.boxShadow !== 'none' };
    });
    if (!focused) continue;
    seen.push(focused.name);
    expect(focused.shown, `${focused.name} shows no focus ring`).toBe(true);
  }
  // The walk went through the navigation, the week's links and its buttons, not one field.
  expect(seen.some((s) => s.startsWith('a '))).toBe(true);
  expect(seen.some((s) => s.startsWith('button '))).toBe(true);
  await page.screenshot({ path: 'test-results/screens/week-keyboard-focus-1280.png' });
  await expectClean(page);
});
