import { expect, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

test('the navigation: sidebar links at 1280 px, a menu at 390 px', async ({ page }) => {
  await visit(page, '/', 'home');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL('/settings/password');
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
