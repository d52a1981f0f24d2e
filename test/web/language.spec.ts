import { expect, test } from './fixtures.ts';
import { expectAccessible, visit } from './visit.ts';

/**
 * The app's language (issue 21 item 12): the person's preference for a signed-in page, the
 * browser's before anyone signs in; the shell, shared widgets and error pages are translated too.
 */

test('a German-speaking person gets the shell, the shortcuts and the error pages in German', async ({ page, workspace }) => {
  expect((await workspace.api('PATCH', '/web/api/profile', { language: 'de' })).status).toBe(200);
  await visit(page, '/', 'language-de-home');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  for (const entry of ['Start', 'Zeiten', 'Ausgaben', 'Projekte', 'Kunden', 'Aufgaben', 'Berichte', 'Rechnungen', 'Einstellungen']) {
    await expect(nav.getByRole('link', { name: entry, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();

  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Tastenkürzel' });
  await expect(help.getByRole('row', { name: /Timer starten oder stoppen/ })).toBeVisible();
  await expect(help.getByRole('button', { name: 'Schließen' })).toBeVisible();
  await expectAccessible(page, 'the German shortcuts dialog');
  await page.keyboard.press('Escape');

  await visit(page, '/no-such-page', 'language-de-not-found');
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zur Startseite' })).toBeVisible();

  // Back to English: the next page speaks it, with no reload of the app.
  expect((await workspace.api('PATCH', '/web/api/profile', { language: 'en' })).status).toBe(200);
  await visit(page, '/', 'language-en-home');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time', exact: true })).toBeVisible();
});

test.describe('before signing in', () => {
  test.use({ signedIn: false, locale: 'de-DE' });

  test('a German browser gets German pages', async ({ page }) => {
    await visit(page, '/sign-in', 'language-de-sign-in');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Passwort' })).toBeVisible();
  });
});
