import { expect, test } from './fixtures.ts';
import { visit } from './visit.ts';

/**
 * The dark theme (issue 21 item 13): it follows the system's colour scheme, every page keeps
 * its contrast there (visit() runs axe, whose colour-contrast rule is serious), and a person's
 * own choice (data-theme on <html>) wins over the system in both directions.
 */

const background = (page: import('@playwright/test').Page, selector = 'body') =>
  page.locator(selector).first().evaluate((el) => getComputedStyle(el).backgroundColor);
/** Relative darkness from a computed rgb()/lab()/oklch() colour: the lightness a canvas reads back. */
const lightness = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const c = document.createElement('canvas').getContext('2d')!;
    c.fillStyle = getComputedStyle(document.body).backgroundColor;
    c.fillRect(0, 0, 1, 1);
    const [r, g, b] = c.getImageData(0, 0, 1, 1).data;
    return (r + g + b) / 3 / 255;
  });

test('follows a dark system theme, with every page readable', async ({ page, workspace }) => {
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const [path, name] of [
    ['/', 'dark-home'],
    ['/time/week', 'dark-week'],
    ['/projects', 'dark-projects'],
    ['/invoices', 'dark-invoices'],
    ['/settings/workspace', 'dark-settings'],
  ] as const) {
    await visit(page, path, name);
    expect(await lightness(page), path).toBeLessThan(0.2);
  }
});

test('a chosen theme wins over the system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await visit(page, '/', 'dark-chosen-home');
  const dark = await background(page);
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
  expect(await lightness(page)).toBeGreaterThan(0.9);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  expect(await background(page)).toBe(dark);
  expect(await lightness(page)).toBeLessThan(0.2);
});

test('the profile’s theme holds dark whatever the device says', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await visit(page, '/settings/profile', 'profile-theme');
  await page.getByRole('button', { name: /Theme$/ }).click();
  await page.getByRole('option', { name: 'Dark' }).click();
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Your preferences are saved.')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await lightness(page)).toBeLessThan(0.2);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
