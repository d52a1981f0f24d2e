import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Settings → Import (issue 27 item 3): an owner previews a Toggl Track export (what it would
 * create, a repeat of a line counted as an entry of its own, a member matched by e-mail and a newcomer to invite,
 * the rates with their dates), imports it (the result, the entries there through the API,
 * Projects one link away) and previews the same file again: all skipped, nothing to import.
 * A file that is no known export, a file refused for its rows, the wrong tracker chosen and
 * a file over 10 MiB each say why and import nothing. A member finds no Import in the settings
 * and is told at its address that it is not for their role. The page in German once.
 * Screenshots at 1280 and 390 px (checkPage).
 */

const settingsNav = (page: Page, name = 'Settings') => page.getByRole('navigation', { name });
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const fileInput = (page: Page, name = 'CSV export') => page.getByLabel(name, { exact: true });

/** The Toggl fixture with Ada as a member of this workspace (by her e-mail) and a newcomer of this test's own. */
function togglExport(adaEmail: string, beaEmail: string): Buffer {
  const text = readFileSync('test/fixtures/import/toggl.csv', 'utf8').replaceAll('ada.known@import.test', adaEmail).replaceAll('bea.new@import.test', beaEmail);
  return Buffer.from(text);
}

/** A count of a "would create" / "Created" list: its label and number. */
const count = (list: Locator, label: string) => list.getByText(label, { exact: true }).locator('..');

const entriesOfMarch2024 = async (workspace: { api: (m: 'GET', url: string) => Promise<{ status: number; body: any }> }) => {
  const res = await workspace.api('GET', '/api/v2/time_entries?from=2024-03-01&to=2024-03-31&per_page=100');
  expect(res.status).toBe(200);
  return res.body.time_entries as { notes: string | null; hours: number; user_id: string }[];
};

test('an owner previews a Toggl export, imports it, and the same file again is all skipped', async ({ page, workspace }) => {
  test.setTimeout(400_000); // several checked views with axe at two widths, on a shared machine
  const ada = await workspace.seed.memberWithPassword('Ada');
  const beaEmail = `bea.${unique()}@import.test`;
  const csv = { name: 'toggl-march.csv', mimeType: 'text/csv', buffer: togglExport(ada.email, beaEmail) };

  await visit(page, '/settings/workspace', 'import-nav');
  await settingsNav(page).getByRole('link', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  const calls = await visit(page, '/settings/import', 'import-empty');
  expect(calls.filter((c) => c.includes('/imports')), calls.join(', ')).toEqual([]);
  const preview = page.getByRole('button', { name: 'Preview' });
  await expect(preview).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Import \d+ entr/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Detect automatically/ })).toBeVisible();
  for (const [tracker, hint] of [
    ['Toggl Track', 'Detailed report, exported as CSV'],
    ['Harvest', 'Detailed time report, exported as CSV'],
    ['Kimai', 'Timesheets, exported as CSV'],
  ]) {
    await expect(page.getByRole('region', { name: 'Which export to use' }).getByText(tracker, { exact: true }).locator('..')).toContainText(hint);
  }

  // The preview: nothing written yet.
  await fileInput(page).setInputFiles(csv);
  await preview.click();
  const section = page.getByRole('region', { name: 'Preview of the Toggl Track export' });
  await expect(section.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(section).toContainText('The file has 7 entries. Nothing has been written yet.');
  const creates = section.getByRole('region', { name: 'The import would create' });
  for (const [label, n] of [['Time entries', '7'], ['Clients', '2'], ['Projects', '2'], ['Tasks', '2'], ['People', '1'], ['Invitations', '1'], ['Rates', '3']]) {
    await expect(count(creates, label), label).toHaveText(`${label}${n}`);
  }
  // Line 9 repeats line 2: an entry of its own (two identical rows are twice the time), nothing skipped.
  await expect(section.getByRole('heading', { level: 3, name: /skipped/ })).toHaveCount(0);
  const people = section.getByRole('table', { name: 'People in the file and whom they are in this workspace' });
  await expect(people.getByRole('row').filter({ hasText: beaEmail })).toContainText('Will be invited');
  await expect(people.getByRole('row').filter({ hasText: ada.email })).toContainText('Member');
  await expect(section.getByRole('table', { name: 'Clients in the file' }).getByRole('row').filter({ hasText: 'Northwind' })).toContainText('New');
  await expect(section.getByRole('table', { name: 'Projects in the file' }).getByRole('row').filter({ hasText: 'Website relaunch' })).toContainText('Northwind');
  const rates = section.getByRole('table', { name: 'Hourly rates from the file, each from the first day it was used' }).getByRole('row');
  await expect(rates.filter({ hasText: '2024-03-11' })).toContainText('New€120.00');
  await expect(rates.filter({ hasText: '2024-03-04' })).toContainText('€100.00');
  await expect(rates.filter({ hasText: 'Bea Newcomer' })).toContainText('€90.00');
  expect(await entriesOfMarch2024(workspace)).toEqual([]);
  await checkPage(page, 'import-preview');

  // Another tracker chosen: the preview is gone until asked for again.
  await page.getByRole('button', { name: /^Detect automatically/ }).click();
  await page.getByRole('option', { name: 'Toggl Track' }).click();
  await expect(section).toHaveCount(0);
  await preview.click();
  await expect(section).toBeVisible();

  // The import: what it created, once.
  const importButton = section.getByRole('button', { name: 'Import 7 entries' });
  await importButton.click();
  const result = page.getByRole('region', { name: 'Imported' });
  await expect(result.getByRole('status')).toHaveText('Imported 7 time entries from the Toggl Track export. 1 person was e-mailed an invitation to choose a password.');
  await expect(result.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(count(result.getByRole('region', { name: 'Created' }), 'Time entries')).toHaveText('Time entries7');
  await expect(result.getByRole('heading', { name: /skipped/ })).toHaveCount(0);
  await expect(section).toHaveCount(0);
  await checkPage(page, 'import-done');
  const entries = await entriesOfMarch2024(workspace);
  expect(entries).toHaveLength(7);
  expect(entries.filter((e) => e.user_id === ada.id)).toHaveLength(5);
  expect(entries.map((e) => e.notes)).toContain('Wireframes, first round');

  await result.getByRole('link', { name: 'Go to Projects' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Website relaunch' }).first()).toBeVisible();

  // The same file again: every row skipped, nothing to import.
  await visit(page, '/settings/import', 'import-empty-again');
  await fileInput(page).setInputFiles(csv);
  await preview.click();
  await expect(section.getByRole('heading', { level: 3, name: '7 rows skipped' })).toBeVisible();
  await expect(section.getByRole('list', { name: '7 rows skipped' }).getByRole('listitem').first()).toHaveText('Line 2: Imported before (the same entry is in the workspace).');
  for (const label of ['Time entries', 'Clients', 'People', 'Rates']) await expect(count(section.getByRole('region', { name: 'The import would create' }), label)).toHaveText(`${label}0`);
  await expect(section).toContainText('Nothing new to import: the entries of this file are in the workspace already.');
  await expect(section.getByRole('button', { name: /^Import/ })).toHaveCount(0);
  await expect(section.getByRole('table', { name: 'Clients in the file' }).getByRole('row').filter({ hasText: 'Northwind' })).toContainText('Existing');
  // The file's rates are in force now: listed as existing, none counted as created.
  const ratesAgain = section.getByRole('table', { name: 'Hourly rates from the file, each from the first day it was used' }).getByRole('row');
  await expect(ratesAgain.filter({ hasText: '2024-03-11' })).toContainText('Existing€120.00');
  await checkPage(page, 'import-again');
  expect(await entriesOfMarch2024(workspace)).toHaveLength(7);
  await expectClean(page);
});

test('a file that cannot be imported says which lines and why, and imports nothing', async ({ page, workspace }) => {
  test.setTimeout(300_000);
  await visit(page, '/settings/import', 'import-errors');
  const preview = page.getByRole('button', { name: 'Preview' });
  const alert = page.getByRole('alert');

  // Not a known export.
  await fileInput(page).setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('Foo,Bar,Baz\n1,2,3\n') });
  await preview.click();
  await expect(alert).toContainText('This file cannot be imported');
  await expect(alert).toContainText('The header is not that of a known export (Toggl Track, Clockify, Harvest, solidtime, Kimai): it has Foo, Bar, Baz.');
  // Said once: the file's header is the problem, not a line of it.
  await expect(alert.getByRole('list', { name: 'Lines at fault' })).toHaveCount(0);
  await expect(page.getByLabel('CSV export', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'import-unknown-header');

  // Rows that cannot be read: each named.
  const header = readFileSync('test/fixtures/import/toggl.csv', 'utf8').split('\n')[0];
  const bad = [
    header,
    'Ada Known,ada.known@import.test,Northwind,Website,,Fine,Yes,2024-03-04,09:00:00,2024-03-04,10:00:00,01:00:00,,',
    'Ada Known,ada.known@import.test,Northwind,Website,,Bad date,Yes,yesterday,09:00:00,2024-03-04,10:00:00,01:00:00,,',
    'Ada Known,not-an-address,Northwind,Website,,Bad e-mail,Yes,2024-03-05,09:00:00,2024-03-05,10:00:00,01:00:00,,',
  ].join('\n');
  await fileInput(page).setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await expect(alert).toHaveCount(0); // another file: the old error goes
  await preview.click();
  const lines = alert.getByRole('list', { name: 'Lines at fault' }).getByRole('listitem');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toHaveText('Line 3: Start date ‘yesterday’ is not a date (YYYY-MM-DD, MM/DD/YYYY, DD/MM/YYYY or DD.MM.YYYY).');
  await expect(lines.nth(1)).toHaveText('Line 4: Email ‘not-an-address’ is not an e-mail address.');
  await expect(alert).toContainText('Nothing of it was imported');
  await checkPage(page, 'import-bad-rows');

  // The fixture as another tracker's: refused for its header.
  await fileInput(page).setInputFiles({ name: 'toggl.csv', mimeType: 'text/csv', buffer: readFileSync('test/fixtures/import/toggl.csv') });
  await page.getByRole('button', { name: /^Detect automatically/ }).click();
  await page.getByRole('option', { name: 'Clockify' }).click();
  await preview.click();
  await expect(alert).toContainText('This is not a Clockify export: the header lacks');

  // Over 10 MiB: said at once, nothing sent.
  const sent: string[] = [];
  page.on('request', (r) => void (r.url().includes('/imports') && sent.push(r.url())));
  await fileInput(page).setInputFiles({ name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
  await expect(alert).toContainText('The file is larger than the 10 MiB limit.');
  await expect(preview).toBeDisabled();
  expect(sent).toEqual([]);
  await checkPage(page, 'import-too-large');
  // The server's own limit, which the page words the same way (failure.ts): 413 payload_too_large.
  const request = page.context().request;
  const session = await (await request.get('/web/api/session')).json();
  const refused = await request.post('/web/api/imports/preview', {
    headers: { 'X-CSRF-Token': session.csrf_token },
    multipart: { file: { name: 'huge.csv', mimeType: 'text/csv', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') } },
  });
  expect(refused.status()).toBe(413);
  expect(await refused.json()).toMatchObject({ error: 'payload_too_large', field: 'file' });

  expect(await entriesOfMarch2024(workspace)).toEqual([]);
  expect((await workspace.api('GET', '/api/v2/clients')).body.clients).toEqual([]);
  await expectClean(page);
});

test('a Clockify export whose dates read either way: warned of, read day first once chosen', async ({ page, workspace }) => {
  await visit(page, '/settings/import', 'import-dates');
  const [header, row] = readFileSync('test/fixtures/import/clockify.csv', 'utf8').split('\n');
  const email = `ada.${unique()}@import.test`;
  // 05/03/2024 and 06/03/2024: the 5th and 6th of March as a European Clockify writes them, or May and June.
  const rows = ['05/03/2024', '06/03/2024'].map((d) => row.replaceAll('"03/04/2024"', `"${d}"`).replace('Login screen', `Login screen ${d}`).replace('ada.known@import.test', email));
  await fileInput(page).setInputFiles({ name: 'clockify.csv', mimeType: 'text/csv', buffer: Buffer.from([header, ...rows].join('\n')) });
  const preview = page.getByRole('button', { name: 'Preview' });
  await preview.click();
  const warnings = page.getByRole('list', { name: 'Warnings' }).getByRole('listitem');
  await expect(warnings).toHaveText([
    /^Line 2: Start Date ‘05\/03\/2024’ and the file’s other dates read either way: they were read month first \(3 May 2024\)\. If the file writes the day first, choose “Day first” under Date order/,
  ]);
  await checkPage(page, 'import-dates-warned');

  await page.getByRole('button', { name: /^Detect from the file/ }).click();
  await page.getByRole('option', { name: 'Day first (31/03/2026)' }).click();
  // Another order is another preview: the old one goes.
  await expect(page.getByRole('list', { name: 'Warnings' })).toHaveCount(0);
  await preview.click();
  await page.getByRole('button', { name: 'Import 2 entries' }).click();
  await expect(page.getByRole('region', { name: 'Imported' }).getByRole('status')).toContainText('Imported 2 time entries from the Clockify export.');
  const march = await entriesOfMarch2024(workspace);
  expect(march.filter((e) => e.notes?.startsWith('Login screen 0')).map((e) => e.notes).sort()).toEqual(['Login screen 05/03/2024', 'Login screen 06/03/2024']);
  await expectClean(page);
});

test('a member finds no Import', async ({ page, workspace }) => {
  const mia = await workspace.seed.memberWithPassword('Mia');
  await page.context().clearCookies();
  await signIn(page, mia);
  await visit(page, '/settings/profile', 'import-member-profile');
  await expect(settingsNav(page).getByRole('link', { name: 'Import' })).toHaveCount(0);
  const calls = await visit(page, '/settings/import', 'import-member');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available to your role' })).toBeVisible();
  expect(calls.filter((c) => c.includes('import')), calls.join(', ')).toEqual([]);
  await expectClean(page);
});

test('the import page in German', async ({ page, workspace }) => {
  test.setTimeout(200_000);
  await workspace.seed.german();
  await visit(page, '/settings/import', 'import-de');
  await expect(settingsNav(page, 'Einstellungen').getByRole('link', { name: 'Import' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Automatisch erkennen/ })).toBeVisible();
  await fileInput(page, 'CSV-Export').setInputFiles({ name: 'toggl.csv', mimeType: 'text/csv', buffer: togglExport(`ada.${unique()}@import.test`, `bea.${unique()}@import.test`) });
  await page.getByRole('button', { name: 'Vorschau' }).click();
  const section = page.getByRole('region', { name: 'Vorschau: Export aus Toggl Track' });
  await expect(section).toContainText('Die Datei enthält 7 Einträge. Noch wurde nichts gespeichert.');
  await expect(section.getByRole('table', { name: 'Personen in der Datei und wem sie in diesem Arbeitsbereich entsprechen' }).getByRole('row').filter({ hasText: 'Bea Newcomer' })).toContainText('Wird eingeladen');
  // German money and the person's DD.MM.YYYY days.
  await expect(section.getByRole('table', { name: /^Stundensätze aus der Datei/ }).getByRole('row').filter({ hasText: '11.03.2024' })).toContainText('120,00 €');
  await expect(section.getByRole('button', { name: '7 Einträge importieren' })).toBeVisible();
  await checkPage(page, 'import-de-preview');

  // A file's problems in German too: the server names each as a word with its values.
  const header = readFileSync('test/fixtures/import/toggl.csv', 'utf8').split('\n')[0];
  const bad = [header, 'Ada Known,ada.known@import.test,Northwind,Website,,Bad date,Vielleicht,2024-03-04,09:00:00,2024-03-04,10:00:00,01:00:00,,'].join('\n');
  await fileInput(page, 'CSV-Export').setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await page.getByRole('button', { name: 'Vorschau' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Nichts davon wurde importiert.');
  await expect(alert.getByRole('listitem')).toHaveText(['Zeile 2: Billable muss Yes oder No sein, nicht „Vielleicht“.']);
  await checkPage(page, 'import-de-problems');
  await expectClean(page);
});
