import { expect, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/** The keyboard shortcuts (issue 21 item 13): `?` lists them, `g` then a key goes, `s` runs the timer, `n` a new entry. */

test('? lists the shortcuts; g then w, d, c, h go to the week, day, calendar and home', async ({ page }) => {
  await visit(page, '/', 'shortcuts-home');
  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('row', { name: /Start or stop the timer/ })).toBeVisible();
  await expectAccessible(page, 'the shortcuts dialog');
  await page.screenshot({ path: 'test-results/screens/shortcuts-help-1280.png' });
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  for (const [key, url] of [['w', /\/time\/week$/], ['d', /\/time\/day$/], ['c', /\/time\/calendar$/], ['h', /\/$/]] as const) {
    await page.locator('body').press('g');
    await page.locator('body').press(key);
    await expect(page).toHaveURL(url);
  }
  // A key typed into a field is the field's.
  await page.getByRole('textbox', { name: 'Notes' }).first().press('g');
  await page.getByRole('textbox', { name: 'Notes' }).first().press('w');
  await expect(page).toHaveURL(/\/$/);
  await expectClean(page);
});

test('s starts and stops the timer; n opens a new entry', async ({ page, workspace }) => {
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  await visit(page, '/time/week', 'shortcuts-week');
  // Nothing chosen yet: s goes to the timer's picker.
  await page.locator('body').press('s');
  const picker = page.getByRole('region', { name: 'Timer' }).getByRole('combobox', { name: 'Project and task' });
  await expect(picker).toBeFocused();
  await picker.fill('Webs');
  await page.getByRole('option', { name: /Website - Design/ }).click();
  await page.locator('h1').click();
  await page.locator('body').press('s');
  await expect(page.getByRole('button', { name: 'Stop timer' })).toBeVisible();
  await expect.poll(async () => (await workspace.api('GET', '/api/v2/time_entries?is_running=true')).body.time_entries.length).toBe(1);
  await page.locator('body').press('s');
  await expect(page.getByRole('button', { name: 'Start timer' })).toBeVisible();
  await expect.poll(async () => (await workspace.api('GET', '/api/v2/time_entries?is_running=true')).body.time_entries.length).toBe(0);

  await page.locator('body').press('n');
  await expect(page).toHaveURL(/\/time\/day$/);
  await expect(page.getByRole('region', { name: 'Add entry' }).getByRole('combobox', { name: 'Project and task' })).toBeFocused();
  await page.keyboard.press('Escape'); // the picker's list, open on focus, hides the page from assistive tech meanwhile
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await checkPage(page, 'shortcuts-new-entry');
});

test('the arrow keys move between week cells', async ({ page, workspace }) => {
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  const made = await workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date: '2026-01-06', hours: 1 });
  expect(made.status).toBe(201);
  await visit(page, '/time/week?start=2026-01-05', 'shortcuts-week-cells');
  const cell = (day: string) => page.getByRole('textbox', { name: new RegExp(`Website.*Design.*${day}`) });
  await cell('Tue 6 Jan').focus();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowRight');
  await expect(cell('Wed 7 Jan')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(cell('Tue 6 Jan')).toBeFocused();
  // Inside the text, Left moves the caret, not the focus.
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await expect(cell('Tue 6 Jan')).toBeFocused();
});
