import { expect, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

// Issue 27 item 4: the profile page's calendar feed: create (the link shown once, to copy),
// rotate, revoke; the link works until then and is 404 at once after. Both widths (checkPage)
// and both languages.

/** The feed link's path on the test server (the link carries the server's public URL). */
const pathOf = (url: string) => new URL(url).pathname;

test('create, copy, rotate and revoke the calendar feed on the profile page', async ({ page, workspace }) => {
  await visit(page, '/settings/profile', 'profile-calendar-feed');
  const section = page.getByRole('region', { name: 'Calendar feed' });
  await expect(section.getByRole('heading', { name: 'Calendar feed' })).toBeVisible();
  await expect(section.getByText('You have no calendar feed.')).toBeVisible();

  await section.getByRole('button', { name: 'Create feed link' }).click();
  const link = section.getByRole('textbox', { name: 'Your feed link (shown only now)' });
  await expect(link).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  const first = await link.inputValue();
  await expect(section.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(section.getByText(/^Your feed link works\./)).toBeVisible();
  const feed = await page.request.get(pathOf(first));
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  expect(await feed.text()).toContain('BEGIN:VCALENDAR');
  await checkPage(page, 'profile-calendar-feed-created');

  // A new link ends the old one at once.
  await section.getByRole('button', { name: 'Make a new link' }).click();
  await expect(link).not.toHaveValue(first);
  const second = await link.inputValue();
  expect((await page.request.get(pathOf(first))).status()).toBe(404);
  expect((await page.request.get(pathOf(second))).status()).toBe(200);

  await section.getByRole('button', { name: 'Revoke link' }).click();
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(dialog.getByText('Revoke your calendar feed?')).toBeVisible();
  await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(section.getByText('Your calendar feed is revoked.')).toBeVisible();
  await expect(section.getByText('You have no calendar feed.')).toBeVisible();
  await expect(link).toHaveCount(0);
  expect((await page.request.get(pathOf(second))).status()).toBe(404);
  expect((await workspace.api('GET', '/web/api/profile/calendar-feed')).body).toMatchObject({ active: false });
  await expectClean(page);
});

test('the calendar feed section in German', async ({ page, workspace }) => {
  await workspace.seed.german();
  await visit(page, '/settings/profile', 'profile-calendar-feed-de');
  const section = page.getByRole('region', { name: 'Kalender-Feed' });
  await expect(section.getByRole('heading', { name: 'Kalender-Feed' })).toBeVisible();
  await expect(section.getByText('Sie haben keinen Kalender-Feed.')).toBeVisible();
  await section.getByRole('button', { name: 'Feed-Link erstellen' }).click();
  await expect(section.getByRole('textbox', { name: 'Ihr Feed-Link (nur jetzt sichtbar)' })).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(section.getByRole('button', { name: 'Link kopieren' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Neuen Link erstellen' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Link widerrufen' })).toBeVisible();
  await checkPage(page, 'profile-calendar-feed-de');
  await expectClean(page);
});
