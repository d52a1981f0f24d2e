import { expect, signIn, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * The time area (issue 16 item 1): the timer bar on every page, the week grid and the
 * day view, as a member uses them, against a real server; what the screen says is
 * checked against what the server stored.
 */

test.use({ signedIn: false });

const DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayLabel = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`)).replace(',', '');

test('a member tracks a day with the timer and the week grid', async ({ page, workspace }) => {
  const mia = await workspace.seed.member('Mia');
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design', 'Build'], members: [mia.id] });
  await signIn(page, mia);
  const asMia = (method: 'GET' | 'PUT', url: string, body?: unknown) => workspace.api(method, url, body, mia.id);

  const calls = await visit(page, '/time/week', 'time-week-empty');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, week: no waterfall of lists
  await expect(page.getByRole('combobox', { name: 'Person' })).toHaveCount(0); // a member sees only their own time

  // The timer: type-ahead, notes, Enter starts.
  await page.getByRole('combobox', { name: 'Project and task' }).fill('webs des');
  await page.getByRole('option', { name: 'Acme - Website - Design' }).click();
  await page.getByRole('textbox', { name: 'Notes' }).fill('Homepage hero');
  await page.getByRole('textbox', { name: 'Notes' }).press('Enter');
  await expect(page.getByRole('timer')).toHaveText(/^0:00:\d\d$/);
  await expect(page.getByRole('region', { name: 'Timer' })).toContainText('Homepage hero');
  await expect.poll(async () => (await asMia('GET', '/web/api/timer')).body.running?.notes).toBe('Homepage hero');

  // It survives a reload: the server holds it.
  await page.reload();
  await expect(page.getByRole('timer')).toHaveText(/^0:00:\d\d$/);
  await checkPage(page, 'time-week-running');
  await page.getByRole('button', { name: 'Stop timer' }).click();
  await expect(page.getByRole('button', { name: 'Start timer' })).toBeVisible();
  await expect.poll(async () => (await asMia('GET', '/web/api/timer')).body.running).toBeNull();

  // The week grid: add a row, type into a cell (creates), type again (changes).
  const sheet = (await asMia('GET', '/web/api/timesheet')).body;
  const monday = sheet.from as string;
  await page.getByRole('combobox', { name: 'Add row' }).fill('build');
  await page.getByRole('option', { name: 'Acme - Website - Build' }).click();
  const cell = page.getByRole('textbox', { name: `Website, Build, ${dayLabel(monday)}` });
  await cell.fill('1:30');
  await cell.press('Enter');
  await expect(cell).toHaveValue('1:30');
  await expect.poll(async () => buildHours(await asMia('GET', '/web/api/timesheet'))).toEqual([1.5]);
  await cell.fill('2h 15m');
  await cell.press('Tab');
  await expect(cell).toHaveValue('2:15');
  await expect.poll(async () => buildHours(await asMia('GET', '/web/api/timesheet'))).toEqual([2.25]);
  await expect(page.getByRole('row', { name: /^Total/ })).toContainText('2:15');

  // Bad input is explained at the cell and nothing is sent.
  await cell.fill('abc');
  await cell.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Enter a duration such as 1:30' })).toBeVisible();
  await cell.press('Escape');
  await expect(cell).toHaveValue('2:15');
  expect(buildHours(await asMia('GET', '/web/api/timesheet'))).toEqual([2.25]);

  // The day view lists the timer's entry with its start and end, and keeps a private note.
  await visit(page, `/time/day?date=${sheet.today}`, 'time-day');
  const row = page.getByRole('row', { name: /Homepage hero/ });
  await expect(row).toContainText('Website');
  await expect(row).toContainText(/\d\d:\d\d – \d\d:\d\d/);
  await row.getByRole('button', { name: 'Private note: Website, Design' }).click();
  const dialog = page.getByRole('dialog', { name: 'Private note' });
  await dialog.getByRole('textbox', { name: 'Private note' }).fill('Client called twice');
  await expectAccessible(page, 'the private note dialog');
  await dialog.getByRole('button', { name: 'Save private note' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Private note: Client called twice');
  const entryId = sheet.entries.length ? sheet.entries[0].id : (await asMia('GET', '/web/api/timesheet')).body.entries.find((e: { notes: string }) => e.notes === 'Homepage hero').id;
  expect((await asMia('GET', `/web/api/time_entries/${entryId}/private_notes`)).body.private_notes).toBe('Client called twice');
  const viaApi = await workspace.api('GET', '/api/v2/time_entries?per_page=100');
  expect(JSON.stringify(viaApi.body)).not.toContain('Client called twice');
  await expectClean(page);
});

test("a cold load of the week asks for its data before the app's code has loaded, and once", async ({ page, workspace }) => {
  // Issue 24: web/src/early.ts sends the page's calls while the app's modules are still loading and
  // evaluating; the app's client takes those answers instead of asking again (api/early.ts).
  // Which script the browser gets first is a race on a loaded machine, so the app's entry script
  // is held back until the week has been asked for (or 10 s have passed): only early.ts can ask
  // for it then, and the app, once it runs, must take that answer rather than ask again.
  const mia = await workspace.seed.member('Mia');
  await signIn(page, mia);
  const sent: string[] = [];
  const weekUrl = '/web/api/timesheet?date=2026-11-02';
  let weekAsked: () => void = () => {};
  const weekSeen = new Promise<void>((resolve) => (weekAsked = resolve));
  page.on('request', (request) => {
    const url = new URL(request.url());
    sent.push(url.pathname + url.search);
    if (url.pathname + url.search === weekUrl) weekAsked();
  });
  let askedBeforeTheApp = false;
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    askedBeforeTheApp = await Promise.race([weekSeen.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    await route.continue();
  });
  await visit(page, '/time/week?start=2026-11-02', 'time-week-early');
  await expect(page.getByRole('button', { name: 'Start timer' })).toBeVisible();
  expect(askedBeforeTheApp, `the week asked for while the app's code was held back: ${sent.join(', ')}`).toBe(true);
  expect(sent.filter((u) => u.startsWith('/web/api/timesheet')), sent.join(', ')).toEqual([weekUrl]);
  expect(sent.filter((u) => u === '/web/api/session'), sent.join(', ')).toHaveLength(1);
});

test('starting while another timer runs offers to replace it', async ({ page, workspace }) => {
  const mia = await workspace.seed.member('Mia');
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design', 'Build'], members: [mia.id] });
  await signIn(page, mia);
  await visit(page, '/', 'home-timer-idle');
  await page.getByRole('combobox', { name: 'Project and task' }).fill('design');
  await page.getByRole('option', { name: 'Acme - Website - Design' }).click();
  // Another device starts a timer meanwhile.
  const other = await workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[1], is_running: true }, mia.id);
  expect(other.status).toBe(201);
  await page.getByRole('button', { name: 'Start timer' }).click();
  await expect(page.getByRole('alert')).toContainText(/A timer is already running on Website, since \d\d:\d\d\./);
  await checkPage(page, 'timer-conflict');
  await page.getByRole('button', { name: 'Stop it and start this one' }).click();
  await expect(page.getByRole('timer')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Timer' })).toContainText('Design');
  const running = (await workspace.api('GET', '/web/api/timer', undefined, mia.id)).body.running;
  expect(running.task_id).toBe(project.taskIds[0]);
  const stopped = await workspace.api('GET', `/api/v2/time_entries/${other.body.id}`, undefined, mia.id);
  expect(stopped.body.is_running).toBe(false);
  await expectClean(page);
});

test('a member adds an entry in the day view, by duration or by start and end', async ({ page, workspace }) => {
  const mia = await workspace.seed.member('Mia');
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design', 'Build'], members: [mia.id] });
  await signIn(page, mia);
  const today = (await workspace.api('GET', '/web/api/timesheet', undefined, mia.id)).body.today as string;
  const calls = await visit(page, `/time/day?date=${today}`, 'time-day-empty');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  const form = page.getByRole('region', { name: 'Add entry' });
  await expect(page.getByRole('cell', { name: 'No entries on this day. Start the timer, or add an entry below.' })).toBeVisible();

  // Nothing chosen, nothing typed: said under the fields, nothing sent.
  await form.getByRole('button', { name: 'Add entry' }).click();
  await expect(form).toContainText('Choose a project and task.');
  await expect(form).toContainText('Enter the hours, or a start and an end time.');

  await form.getByRole('combobox', { name: 'Project and task' }).fill('build');
  await page.getByRole('option', { name: 'Acme - Website - Build' }).click();
  await form.getByRole('textbox', { name: 'Hours' }).fill('1:45');
  await form.getByRole('textbox', { name: 'Notes' }).fill('Checkout page');
  await form.getByText('Billable', { exact: true }).click(); // React Aria's input is visually hidden: the label takes the click
  await expect(form.getByRole('checkbox', { name: 'Billable' })).not.toBeChecked();
  await form.getByRole('button', { name: 'Add entry' }).click();
  await expect(page.getByRole('row', { name: /Checkout page/ })).toContainText('1:45');
  // Hours alone have no span: one dash in the start – end column.
  await expect(page.getByRole('row', { name: /Checkout page/ }).getByRole('cell').first()).toHaveText('–');
  const entries = async () => (await workspace.api('GET', `/web/api/timesheet?date=${today}`, undefined, mia.id)).body.entries as { notes: string; hours: number; billable: boolean; spent_date: string; started_time: string | null; ended_time: string | null }[];
  const added = (await entries()).find((e) => e.notes === 'Checkout page')!;
  expect(added).toMatchObject({ hours: 1.75, billable: false, spent_date: today });

  // By start and end; an end before the start is said under its field in the app's words, nothing stored.
  await form.getByRole('combobox', { name: 'Project and task' }).fill('design');
  await page.getByRole('option', { name: 'Acme - Website - Design' }).click();
  await form.getByRole('textbox', { name: 'Start' }).fill('10:00');
  await form.getByRole('textbox', { name: 'End' }).fill('09:00');
  await form.getByRole('textbox', { name: 'Notes' }).fill('Wireframes');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await expect(form.getByRole('textbox', { name: 'End' })).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('Enter an end after the start (an entry cannot run past midnight).');
  await checkPage(page, 'time-day-add-refused');
  expect((await entries()).some((e) => e.notes === 'Wireframes')).toBe(false);
  await form.getByRole('textbox', { name: 'End' }).fill('11:30');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await expect(page.getByRole('row', { name: /Wireframes/ })).toContainText('10:00 – 11:30');
  expect((await entries()).find((e) => e.notes === 'Wireframes')).toMatchObject({ started_time: '10:00', ended_time: '11:30', hours: 1.5 });
  await expectClean(page);
});

test('a manager opens a teammate\u2019s week and sees their hours, read only', async ({ page, workspace }) => {
  const mia = await workspace.seed.member('Mia');
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id, max.id] });
  const team = await workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [mia.id] });
  expect(team.status, JSON.stringify(team.body)).toBe(200);
  const today = (await workspace.api('GET', '/web/api/timesheet', undefined, mia.id)).body.today as string;
  const made = await workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date: today, hours: 2.5, notes: 'Sprint review' }, mia.id);
  expect(made.status).toBe(201);
  await signIn(page, max);

  const calls = await visit(page, '/time/week', 'time-week-manager');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('table')).toContainText('No time this week yet');
  await page.getByRole('combobox', { name: 'Person' }).click();
  await page.getByRole('option', { name: /^Mia / }).click();
  await expect(page).toHaveURL(new RegExp(`user=${mia.id}`));
  await expect(page.getByRole('row', { name: /Website/ })).toContainText('2:30');
  await expect(page.getByRole('main')).toContainText('· Mia');
  // Read only: typing would record the manager's own time.
  await expect(page.getByRole('textbox', { name: /Website, Design/ })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Add row' })).toHaveCount(0);

  // The address alone opens it (a link to share), within the budget; the day follows the person.
  const direct = await visit(page, `/time/week?user=${mia.id}`, 'time-week-teammate');
  expect(direct.length, direct.join(', ')).toBeLessThanOrEqual(3);
  await expect(page.getByRole('row', { name: /Website/ })).toContainText('2:30');
  await page.getByRole('link', { name: new RegExp(`^${dayLabel(today)}, open the day`) }).click();
  await expect(page.getByRole('row', { name: /Sprint review/ })).toContainText('2:30');
  await expect(page.getByRole('region', { name: 'Add entry' })).toHaveCount(0);
  await expectClean(page);
});

function buildHours(res: { body: { entries: { task: { name: string } | undefined; hours: number }[] } | null }) {
  return (res.body?.entries ?? []).filter((e) => e.task?.name === 'Build').map((e) => e.hours);
}

test("a running timer's elapsed time comes from the server's clock, not the device's", async ({ page, workspace }) => {
  const mia = await workspace.seed.member('Mia');
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });
  // The device's clock is three hours fast (as a phone set by hand may be).
  await page.clock.install({ time: new Date(Date.now() + 3 * 3600_000) });
  await signIn(page, mia);
  const sheet = (await workspace.api('GET', '/web/api/timesheet', undefined, mia.id)).body;
  const started = await workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date: sheet.today, is_running: true }, mia.id);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect(started.body.is_running).toBe(true);

  await visit(page, '/time/week', 'time-week-skewed-clock');
  // By the device's clock the timer would have run 3 hours; by the server's it has just started.
  await expect(page.getByRole('timer')).toHaveText(/^0:00:\d\d$/);
  await expectClean(page);
});
