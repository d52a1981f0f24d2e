import { expect, ok, signIn, test } from './fixtures.ts';
import { typeDate } from './dates.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * Time off, public holidays, break rules and working patterns (the capacity pages): a member
 * records a vacation beside the workspace's holidays, is refused an overlapping one at its
 * first day, edits and deletes it; an administrator adds a holiday, imports an iCalendar file
 * and sets the break rules of German law; an administrator gives a member a working pattern;
 * the day view shows the break between two timed entries; a member has no Holidays settings;
 * an administrator adds a half-day holiday and makes it a whole day (at 1280 and at 390 px);
 * the pages in German.
 */

const YEAR = new Date().getUTCFullYear();
const day = (mmdd: string) => `${YEAR}-${mmdd}`;

const timeOffOf = async (workspace: { api: (m: 'GET', url: string, body?: unknown, as?: string) => Promise<{ status: number; body: any }> }, userId: string) =>
  (await ok(workspace.api('GET', `/web/api/time_off?from=${YEAR}-01-01&to=${YEAR}-12-31&user_id=${userId}`, undefined, userId))).time_off as Array<Record<string, unknown>>;

test.describe('as a member', () => {
  test.use({ signedIn: false });

  test('a member adds a vacation beside the holidays, is refused an overlap at its first day, edits and deletes it', async ({ page, workspace }) => {
    test.setTimeout(480_000); // several dialogs checked at both widths
    const mia = await workspace.seed.memberWithPassword('Mia');
    await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { expected_weekly_hours: '40' }));
    await ok(workspace.api('POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: day('05-01'), name: 'Labour Day' }));
    await signIn(page, mia);

    await visit(page, '/', 'time-off-home');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time off' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Time off' })).toBeVisible();
    const calls = await visit(page, '/time-off', 'time-off-member');
    expect(calls.filter((c) => c === 'GET /web/api/time_off'), calls.join(', ')).toHaveLength(1);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time off' })).toHaveAttribute('aria-current', 'page');
    // The workspace's holiday, read-only; no way to manage holidays for a member.
    const table = page.getByRole('table', { name: `Time off in ${YEAR}` });
    const holiday = table.getByRole('row', { name: /Labour Day/ });
    await expect(holiday).toContainText('Public holiday');
    await expect(holiday).toContainText('For everyone');
    await expect(holiday.getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Manage the public holidays' })).toHaveCount(0);
    // What is expected this month: 40 hours a week, Monday to Friday.
    await expect(page.getByRole('region', { name: /This month/ })).toContainText('Expected of you');

    // A vacation of five days; public holidays are not a member's to choose.
    await page.getByRole('button', { name: 'Add time off' }).click();
    const dialog = page.getByRole('dialog', { name: 'New time off' });
    await dialog.getByRole('button', { name: /Kind/ }).click();
    await expect(page.getByRole('option')).toHaveText(['Vacation', 'Sick', 'Unpaid leave', 'Other']);
    await page.getByRole('option', { name: 'Vacation' }).click();
    await typeDate(dialog, 'First day', day('08-03'));
    await typeDate(dialog, 'Last day', day('08-07'));
    await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Baltic Sea');
    await checkPage(page, 'time-off-new');
    await dialog.getByRole('button', { name: 'Save time off' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: /^Vacation, .+, is added\.$/ })).toBeVisible();
    const vacation = table.getByRole('row', { name: /Baltic Sea/ });
    await expect(vacation).toContainText('Vacation');
    await expect(vacation).toContainText('Whole days (5)');
    expect(await timeOffOf(workspace, mia.id)).toEqual(
      expect.arrayContaining([expect.objectContaining({ user_id: mia.id, kind: 'vacation', starts_on: day('08-03'), ends_on: day('08-07'), hours: null, name: 'Baltic Sea' })]),
    );

    // A sick day inside it is refused: the app's sentence, naming the vacation's days, under the first day.
    await page.getByRole('button', { name: 'Add time off' }).click();
    await dialog.getByRole('button', { name: /Kind/ }).click();
    await page.getByRole('option', { name: 'Sick' }).click();
    await typeDate(dialog, 'First day', day('08-05'));
    await dialog.getByRole('button', { name: 'Save time off' }).click();
    const firstDay = dialog.getByRole('group', { name: 'First day' });
    await expect(dialog.getByText(`This overlaps other time off (${day('08-03')} – ${day('08-07')}): change that one instead.`, { exact: true })).toBeVisible();
    await expect(firstDay.getByRole('spinbutton').first()).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'the time off dialog refused');
    await checkPage(page, 'time-off-overlap');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await timeOffOf(workspace, mia.id)).toHaveLength(2); // the vacation and the holiday

    // Part of a day: 4 hours off on each of two days.
    await page.getByRole('button', { name: 'Add time off' }).click();
    await dialog.getByRole('button', { name: /Kind/ }).click();
    await page.getByRole('option', { name: 'Other' }).click();
    await typeDate(dialog, 'First day', day('09-14'));
    await typeDate(dialog, 'Last day', day('09-15'));
    // The radio's own input is visually hidden (React Aria): press its label, as a person does.
    await dialog.locator('label', { hasText: 'Hours per day' }).click();
    await expect(dialog.getByRole('radio', { name: 'Hours per day' })).toBeChecked();
    await dialog.getByRole('textbox', { name: 'Hours off per day' }).fill('4');
    await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Training');
    await dialog.getByRole('button', { name: 'Save time off' }).click();
    await expect(dialog).toBeHidden();
    await expect(table.getByRole('row', { name: /Training/ })).toContainText('4 h per day');

    // Edit the vacation: a day shorter, another note.
    await page.getByRole('button', { name: /^Edit Vacation, / }).click();
    const edit = page.getByRole('dialog', { name: 'Edit time off' });
    await expect(edit.getByRole('textbox', { name: 'Note (optional)' })).toHaveValue('Baltic Sea');
    await typeDate(edit, 'Last day', day('08-06'));
    await edit.getByRole('textbox', { name: 'Note (optional)' }).fill('North Sea');
    await edit.getByRole('button', { name: 'Save time off' }).click();
    await expect(edit).toBeHidden();
    const edited = table.getByRole('row', { name: /North Sea/ });
    await expect(edited).toContainText('Whole days (4)');
    await checkPage(page, 'time-off');

    // Delete it, after a question.
    await page.getByRole('button', { name: /^Delete Vacation, / }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this time off?' });
    await expectAccessible(page, 'the delete question');
    await confirm.getByRole('button', { name: 'Delete time off' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Vacation, .*, is deleted\.$/ })).toBeVisible();
    await expect(edited).toHaveCount(0);
    const left = await timeOffOf(workspace, mia.id);
    expect(left.map((t) => t.kind).sort()).toEqual(['other', 'public_holiday']);
    await expectClean(page);
  });

  test('a member finds no Holidays & breaks in the settings, and the address says why', async ({ page, workspace }) => {
    const mia = await workspace.seed.memberWithPassword('Mia');
    await signIn(page, mia);
    await visit(page, '/settings/profile', 'holidays-member-settings');
    await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Holidays & breaks' })).toHaveCount(0);
    await visit(page, '/settings/holidays', 'holidays-member');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not available to your role');
    await expectClean(page);
  });
});

test('an administrator adds a holiday, imports a calendar and sets the break rules of German law', async ({ page, workspace }) => {
  test.setTimeout(360_000);
  await visit(page, '/settings/workspace', 'holidays-nav');
  await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Holidays & breaks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Holidays & breaks' })).toBeVisible();
  const calls = await visit(page, '/settings/holidays', 'holidays-empty');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(4); // session, timer, the year's holidays, the break rules
  await expect(page.getByText(`No public holidays in ${YEAR} yet.`)).toBeVisible();

  // One by one.
  await page.getByRole('button', { name: 'Add holiday' }).click();
  const dialog = page.getByRole('dialog', { name: 'New public holiday' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Founders Day');
  await typeDate(dialog, 'First day', day('06-12'));
  await checkPage(page, 'holidays-new');
  await dialog.getByRole('button', { name: 'Save holiday' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Founders Day is added.' })).toBeVisible();
  const table = page.getByRole('table', { name: `Public holidays in ${YEAR}` });
  await expect(table.getByRole('row', { name: /Founders Day/ })).toBeVisible();

  // From an iCalendar file: a yearly event, a day's event, one on a day that has a holiday, one with a time (not a holiday).
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Sheaf tests//EN',
    'BEGIN:VEVENT',
    'UID:new-year@example.org',
    'DTSTART;VALUE=DATE:20200101',
    'DTEND;VALUE=DATE:20200102',
    'RRULE:FREQ=YEARLY',
    "SUMMARY:New Year's Day",
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:labour@example.org',
    `DTSTART;VALUE=DATE:${YEAR}0501`,
    `DTEND;VALUE=DATE:${YEAR}0502`,
    'SUMMARY:Labour Day',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:founders@example.org',
    `DTSTART;VALUE=DATE:${YEAR}0612`,
    'SUMMARY:Founders Day (calendar)',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:meeting@example.org',
    `DTSTART:${YEAR}0610T090000Z`,
    `DTEND:${YEAR}0610T100000Z`,
    'SUMMARY:Team meeting',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  await page.getByLabel('iCalendar file (.ics)').setInputFiles({ name: 'holidays.ics', mimeType: 'text/calendar', buffer: Buffer.from(ics) });
  await page.getByRole('button', { name: `Import holidays of ${YEAR}` }).click();
  await expect(page.getByRole('status').filter({ hasText: '2 imported, 1 already there, 1 skipped.' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(4); // the header and three holidays
  await expect(table.getByRole('row', { name: /New Year's Day/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Labour Day/ })).toBeVisible();

  // The break rules: German working-time law, saved.
  await expect(page.getByText('No break rules: no day needs a break.')).toBeVisible();
  await page.getByRole('button', { name: 'Use German working-time law' }).click();
  const rules = page.getByRole('list', { name: 'Break rules' });
  await expect(rules.getByRole('group', { name: 'Rule 1' }).getByRole('textbox', { name: 'Rule 1: more than this many hours a day' })).toHaveValue('6');
  await expect(rules.getByRole('group', { name: 'Rule 2' }).getByRole('textbox', { name: 'Rule 2: minutes of break needed' })).toHaveValue('45');
  await checkPage(page, 'holidays');
  await page.getByRole('button', { name: 'Save break rules' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The break rules are saved.' })).toBeVisible();
  expect((await ok(workspace.api('GET', '/web/api/break_rules'))).break_rules).toEqual([
    { after_hours: '6', break_minutes: 30 },
    { after_hours: '9', break_minutes: 45 },
  ]);
  const holidays = (await ok(workspace.api('GET', `/web/api/time_off?from=${YEAR}-01-01&to=${YEAR}-12-31&user_id=${workspace.owner.id}`))).time_off;
  expect(holidays.map((h: { name: string; starts_on: string; user_id: null }) => [h.starts_on, h.name, h.user_id])).toEqual([
    [day('01-01'), "New Year's Day", null],
    [day('05-01'), 'Labour Day', null],
    [day('06-12'), 'Founders Day', null],
  ]);

  // Delete one; the administrator's own Time off page lists the rest, read-only, with the way here.
  await page.getByRole('button', { name: /^Delete Labour Day, / }).click();
  await page.getByRole('dialog', { name: 'Delete this public holiday?' }).getByRole('button', { name: 'Delete holiday' }).click();
  await expect(table.getByRole('row', { name: /Labour Day/ })).toHaveCount(0);
  await visit(page, '/time-off', 'time-off-owner');
  await expect(page.getByRole('table', { name: `Time off in ${YEAR}` }).getByRole('row', { name: /Founders Day/ })).toContainText('Public holiday');
  await expect(page.getByRole('link', { name: 'Manage the public holidays' })).toHaveAttribute('href', '/settings/holidays');
  await expectClean(page);
});

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`an administrator adds a half-day holiday, sees its hours in the list and makes it a whole day, at ${size.width} px`, async ({ page, workspace }) => {
    test.setTimeout(360_000);
    const at = `${size.width}px`;
    const holidays = async () => (await ok(workspace.api('GET', `/web/api/time_off?from=${YEAR}-01-01&to=${YEAR}-12-31&user_id=${workspace.owner.id}`))).time_off as Array<Record<string, unknown>>;
    // Christmas Day is there already, imported as a whole day; it stays as it is.
    await ok(workspace.api('POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: day('12-25'), name: 'Christmas Day' }));
    await visit(page, '/settings/holidays', `holidays-half-day-list-${at}`);
    // checkPage leaves the page at 1280 px: each step below is taken at this test's width.
    await page.setViewportSize(size);
    const table = page.getByRole('table', { name: `Public holidays in ${YEAR}` });
    await expect(table.getByRole('columnheader', { name: 'Length' })).toBeAttached();
    await expect(table.getByRole('row', { name: /Christmas Day/ })).toContainText('Whole day');

    // Half a day: 4 hours off on Christmas Eve. Hours that do not read are refused in the field.
    await page.getByRole('button', { name: 'Add holiday' }).click();
    const dialog = page.getByRole('dialog', { name: 'New public holiday' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Christmas Eve (half day)');
    await typeDate(dialog, 'First day', day('12-24'));
    const hours = dialog.getByRole('textbox', { name: 'Hours off per day (optional)' });
    await expect(hours).toHaveValue('');
    await expect(dialog.getByText('Empty: the whole day. For part of a day, such as 4 or 3:30; at most 24.')).toBeVisible();
    await hours.fill('half');
    await dialog.getByRole('button', { name: 'Save holiday' }).click();
    await expect(dialog.getByText('Enter hours such as 4 or 3:30, at most 24.')).toBeVisible();
    await hours.fill('0');
    await dialog.getByRole('button', { name: 'Save holiday' }).click();
    await expect(dialog.getByText('Enter more than 0 hours, or leave the field empty for the whole day.')).toBeVisible();
    expect(await holidays()).toHaveLength(1);
    await hours.fill('4:00');
    await checkPage(page, `holidays-half-day-new-${at}`);
    await page.setViewportSize(size);
    await dialog.getByRole('button', { name: 'Save holiday' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Christmas Eve (half day) is added.' })).toBeVisible();
    const eve = table.getByRole('row', { name: /Christmas Eve/ });
    await expect(eve).toContainText('4 h');
    await expect(eve).not.toContainText('Whole day');
    await expect(table.getByRole('row', { name: /Christmas Day/ })).toContainText('Whole day');
    expect(await holidays()).toEqual([
      expect.objectContaining({ user_id: null, kind: 'public_holiday', starts_on: day('12-24'), ends_on: day('12-24'), hours: 4, name: 'Christmas Eve (half day)' }),
      expect.objectContaining({ starts_on: day('12-25'), hours: null, name: 'Christmas Day' }),
    ]);
    await checkPage(page, `holidays-half-day-${at}`);
    await page.setViewportSize(size);

    // Edit it: the dialog holds its values; a last day on Christmas Day is refused under the first day.
    await page.getByRole('button', { name: /^Edit Christmas Eve \(half day\), / }).click();
    const edit = page.getByRole('dialog', { name: 'Edit public holiday' });
    await expect(edit.getByRole('textbox', { name: 'Name' })).toHaveValue('Christmas Eve (half day)');
    await expect(edit.getByRole('textbox', { name: 'Hours off per day (optional)' })).toHaveValue('4');
    await typeDate(edit, 'Last day', day('12-25'));
    await edit.getByRole('button', { name: 'Save holiday' }).click();
    await expect(edit.getByText(`This overlaps another holiday (${day('12-25')}): change that one instead.`, { exact: true })).toBeVisible();
    await expectAccessible(page, `the holiday dialog refused at ${at}`);

    // The whole day, under its own name: the hours emptied.
    await typeDate(edit, 'Last day', day('12-24'));
    await edit.getByRole('textbox', { name: 'Name' }).fill('Christmas Eve');
    await edit.getByRole('textbox', { name: 'Hours off per day (optional)' }).fill('');
    await checkPage(page, `holidays-half-day-edit-${at}`);
    await page.setViewportSize(size);
    await edit.getByRole('button', { name: 'Save holiday' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Christmas Eve is saved.' })).toBeVisible();
    const whole = table.getByRole('row', { name: /Christmas Eve/ });
    await expect(whole).toContainText('Whole day');
    await expect(whole).not.toContainText('4 h');
    await expect(whole).not.toContainText('half day');
    expect(await holidays()).toEqual([
      expect.objectContaining({ starts_on: day('12-24'), ends_on: day('12-24'), hours: null, name: 'Christmas Eve' }),
      expect.objectContaining({ starts_on: day('12-25'), hours: null, name: 'Christmas Day' }),
    ]);
    await checkPage(page, `holidays-half-day-whole-${at}`);
    await expectClean(page);
  });
}

test('an administrator gives a member a working pattern, changes and deletes it', async ({ page, workspace }) => {
  test.setTimeout(300_000);
  const mia = await workspace.seed.memberWithPassword('Mia');
  await visit(page, '/settings/members', 'members-patterns');
  await page.getByRole('button', { name: 'Working pattern of Mia Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Working pattern of Mia Tester' });
  await expect(dialog).toContainText('No working pattern yet.');
  // 8 hours Monday to Friday to begin with; a shorter Friday.
  await expect(dialog.getByRole('textbox', { name: 'Monday' })).toHaveValue('8');
  await expect(dialog.getByRole('textbox', { name: 'Saturday' })).toHaveValue('0');
  await typeDate(dialog, 'Applies from', day('01-05'));
  await dialog.getByRole('textbox', { name: 'Friday' }).fill('6');
  await expect(dialog.getByText('Per week: 38:00')).toBeVisible();
  await checkPage(page, 'members-pattern-new');
  await dialog.getByRole('button', { name: 'Add pattern' }).click();
  const list = dialog.getByRole('table', { name: 'Working patterns of Mia Tester' });
  const row = list.getByRole('row').nth(1);
  await expect(row).toContainText('38:00');
  const patterns = async () => (await ok(workspace.api('GET', `/web/api/working_patterns?user_id=${mia.id}`))).working_patterns;
  expect(await patterns()).toEqual([expect.objectContaining({ effective_from: day('01-05'), monday: 8, friday: 6, saturday: 0, weekly_hours: 38 })]);
  await checkPage(page, 'members-pattern');

  // Change it: Monday 7:30.
  await dialog.getByRole('button', { name: /^Edit the pattern from / }).click();
  await expect(dialog.getByRole('heading', { name: /^Change the pattern from / })).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Monday' }).fill('7:30');
  await dialog.getByRole('button', { name: 'Save pattern' }).click();
  await expect(row).toContainText('37:30');
  expect(await patterns()).toEqual([expect.objectContaining({ monday: 7.5, weekly_hours: 37.5 })]);

  // Delete it.
  await dialog.getByRole('button', { name: /^Delete the pattern from / }).click();
  await page.getByRole('dialog', { name: 'Delete this working pattern?' }).getByRole('button', { name: 'Delete pattern' }).click();
  await expect(dialog).toContainText('No working pattern yet.');
  expect(await patterns()).toEqual([]);
  await expectClean(page);
});

test('the day view shows the break between two timed entries', async ({ page, workspace }) => {
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  const today = (await ok(workspace.api('GET', '/web/api/timesheet'))).today as string;
  const entry = (started_time: string, ended_time: string, notes: string) =>
    ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date: today, started_time, ended_time, notes }));
  await entry('09:00', '12:00', 'Morning');
  await entry('12:30', '14:00', 'Afternoon');
  await entry('18:52', '19:30', 'Evening');
  await visit(page, `/time/day?date=${today}`, 'time-day-break');
  const rows = page.getByRole('table', { name: /^Entries of / }).getByRole('row');
  await expect(rows.filter({ hasText: 'Break 12:00–12:30 · 30 min' })).toHaveCount(1);
  // An hour or more reads as hours and minutes, not 292 min.
  await expect(rows.filter({ hasText: 'Break 14:00–18:52 · 4:52 h' })).toHaveCount(1);
  // Between the two entries, with nothing to press.
  const texts = await rows.allInnerTexts();
  const at = (s: string) => texts.findIndex((t) => t.includes(s));
  expect(at('Morning')).toBeLessThan(at('Break 12:00–12:30'));
  expect(at('Break 12:00–12:30')).toBeLessThan(at('Afternoon'));
  await expect(rows.filter({ hasText: 'Break' }).getByRole('button')).toHaveCount(0);
  await expectClean(page);
});

test('the time off page and the holidays settings in German', async ({ page, workspace }) => {
  test.setTimeout(300_000);
  await workspace.seed.german();
  await ok(workspace.api('POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: day('10-03'), name: 'Tag der Deutschen Einheit' }));
  await ok(workspace.api('POST', '/web/api/time_off', { user_id: null, kind: 'public_holiday', starts_on: day('12-24'), hours: 4, name: 'Heiligabend (halber Tag)' }));
  await ok(workspace.api('POST', '/web/api/time_off', { kind: 'vacation', starts_on: day('07-20'), ends_on: day('07-24'), name: 'Ostsee' }));
  await ok(workspace.api('POST', '/web/api/time_off', { kind: 'other', starts_on: day('09-14'), hours: 2.5 }));

  await visit(page, '/time-off', 'time-off-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Abwesenheiten' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Abwesenheiten' })).toHaveAttribute('aria-current', 'page');
  const table = page.getByRole('table', { name: `Abwesenheiten ${YEAR}` });
  await expect(table.getByRole('row', { name: /Tag der Deutschen Einheit/ })).toContainText('Feiertag');
  await expect(table.getByRole('row', { name: /Tag der Deutschen Einheit/ })).toContainText('Für alle');
  await expect(table.getByRole('row', { name: /Ostsee/ })).toContainText('Urlaub');
  await expect(table.getByRole('row', { name: /Ostsee/ })).toContainText('Ganze Tage (5)');
  await expect(table.getByRole('row', { name: /Sonstiges/ })).toContainText('2,5 Std. pro Tag');
  await expect(table.getByRole('row', { name: /Ostsee/ })).toContainText(`20.07.${YEAR} – 24.07.${YEAR}`);
  await page.getByRole('button', { name: 'Abwesenheit eintragen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neue Abwesenheit' });
  await expect(dialog.getByRole('group', { name: 'Erster Tag' })).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Ganze Tage' })).toBeChecked();
  await checkPage(page, 'time-off-de-new');
  // A day inside the vacation is refused in German, its days in the person's date format.
  await typeDate(dialog, 'Erster Tag', day('07-22'));
  await dialog.getByRole('button', { name: 'Abwesenheit speichern' }).click();
  await expect(dialog.getByText(`Das überschneidet sich mit einer anderen Abwesenheit (20.07.${YEAR} – 24.07.${YEAR}): Ändern Sie stattdessen diese.`, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Erster Tag' }).getByRole('spinbutton').first()).toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'time-off-de-overlap');
  await page.keyboard.press('Escape');

  await visit(page, '/settings/holidays', 'holidays-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Feiertage & Pausen' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Einstellungen' }).getByRole('link', { name: 'Feiertage & Pausen' })).toHaveAttribute('aria-current', 'page');
  // A half day in German: its hours as German writes them, typed with a decimal comma.
  const holidays = page.getByRole('table', { name: `Feiertage ${YEAR}` });
  await expect(holidays.getByRole('columnheader', { name: 'Umfang' })).toBeAttached();
  await expect(holidays.getByRole('row', { name: /Tag der Deutschen Einheit/ })).toContainText('Ganzer Tag');
  await expect(holidays.getByRole('row', { name: /Heiligabend/ })).toContainText('4 Std.');
  await page.getByRole('button', { name: /^Heiligabend \(halber Tag\), .* bearbeiten$/ }).click();
  const edit = page.getByRole('dialog', { name: 'Feiertag bearbeiten' });
  const hours = edit.getByRole('textbox', { name: 'Freie Stunden pro Tag (optional)' });
  await expect(hours).toHaveValue('4');
  await expect(edit.getByText('Leer: der ganze Tag. Für einen Teil des Tages z. B. 4, 3:30 oder 3,5; höchstens 24.')).toBeVisible();
  await hours.fill('3,5');
  await checkPage(page, 'holidays-de-edit');
  await edit.getByRole('button', { name: 'Feiertag speichern' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Heiligabend (halber Tag) ist gespeichert.' })).toBeVisible();
  await expect(holidays.getByRole('row', { name: /Heiligabend/ })).toContainText('3,5 Std.');
  expect((await ok(workspace.api('GET', `/web/api/time_off?from=${YEAR}-12-24&to=${YEAR}-12-24&user_id=${workspace.owner.id}`))).time_off).toEqual([
    expect.objectContaining({ name: 'Heiligabend (halber Tag)', hours: 3.5 }),
  ]);
  await page.getByRole('button', { name: 'Arbeitszeitgesetz übernehmen' }).click();
  await expect(page.getByRole('group', { name: 'Regel 1' })).toContainText('Mehr als');
  await expect(page.getByRole('button', { name: `Feiertage ${YEAR} importieren` })).toBeVisible();
  await checkPage(page, 'holidays-de-rules');
  await expectClean(page);
});
