import type { Locator, Page } from '@playwright/test';
import { expect, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * Issue 21, the time pickers' part: typing filters every project/task and client picker
 * (words in any order, case and accents ignored, recently used first); a running timer
 * shows its time once after a reload and in a second tab, fresh and restarted; the
 * timer is asked for once per load; the focus stays in the timer bar; the week's cell
 * errors neither overlap nor get cut off; the week loads its choices once, not per week.
 */

const DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayLabel = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`)).replace(',', '');

async function seedCatalog(workspace: TestWorkspace) {
  const acme = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  const cafe = await workspace.seed.project({ client: 'Café Noir', name: 'Programme', tasks: ['Développement'] });
  const globex = await workspace.seed.project({ client: 'Globex', name: 'Progress report', tasks: ['Writing'] });
  const code = await workspace.api('PATCH', `/api/v2/projects/${cafe.id}`, { code: 'CN-7' });
  expect(code.status, JSON.stringify(code.body)).toBe(200);
  return { acme, cafe, globex };
}

/** Types into a picker and expects exactly these options, in this order. */
async function expectOptions(page: Page, box: Locator, typed: string, options: (string | RegExp)[]) {
  await box.fill(typed);
  const listbox = page.getByRole('listbox');
  if (options.length) await expect(listbox.getByRole('option')).toHaveText(options);
  else {
    // (React Aria's virtualized list shows its empty text in a row of its own.)
    await expect(listbox).toContainText(/matches/);
    await expect(listbox.getByRole('option', { name: /Acme|Café|Globex|Website|Programme|Progress/ })).toHaveCount(0);
  }
}

const ACME = 'Acme - Website - Design';
const CAFE = 'Café Noir - Programme (CN-7) - Développement';
const GLOBEX = 'Globex - Progress report - Writing';

test('typing filters the project and task pickers of the timer bar and the week\u2019s Add row', async ({ page, workspace }) => {
  const { globex } = await seedCatalog(workspace);
  const calls = await visit(page, '/time/week', 'pickers-week');
  // A cold load asks for the running timer once (the shell's loader), and for no choices.
  expect(calls.filter((c) => c.endsWith('/web/api/timer')), calls.join(', ')).toHaveLength(1);
  expect(calls.some((c) => c.includes('time_choices')), calls.join(', ')).toBe(false);

  for (const name of ['Project and task', 'Add row']) {
    const box = page.getByRole('combobox', { name });
    await box.focus();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText([ACME, CAFE, GLOBEX]); // focused: everything
    await expectOptions(page, box, 'Prog', [CAFE, GLOBEX]);
    await expectOptions(page, box, 'cafe', [CAFE]); // accents
    await expectOptions(page, box, 'DEVELOPPEMENT', [CAFE]); // case, accents of the task
    await expectOptions(page, box, 'cn-7', [CAFE]); // project code
    await expectOptions(page, box, 'design acme', [ACME]); // words in any order
    await expectOptions(page, box, 'report globex wri', [GLOBEX]);
    await expectOptions(page, box, 'acme writing', []);
    await box.press('Escape');
    await box.press('Escape');
  }
  await checkPage(page, 'pickers-week-filtered');

  // Choosing from a filtered list adds that row; the list then offers the others.
  const addRow = page.getByRole('combobox', { name: 'Add row' });
  await addRow.fill('glob');
  await page.getByRole('option', { name: GLOBEX }).click();
  await expect(page.getByRole('rowheader', { name: /Progress report/ })).toBeVisible();
  await expect(addRow).toBeFocused(); // ready for the next row, empty and closed
  await expect(addRow).toHaveValue('');
  await addRow.press('ArrowDown');
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([ACME, CAFE]);
  await addRow.press('Escape');

  // Recently used first: time on Globex puts it at the top of the timer's list.
  const today = (await workspace.api('GET', '/web/api/timesheet')).body.today as string;
  expect((await workspace.api('POST', '/api/v2/time_entries', { project_id: globex.id, task_id: globex.taskIds[0], spent_date: today, hours: 1 })).status).toBe(201);
  await page.reload();
  const timerBox = page.getByRole('combobox', { name: 'Project and task' });
  await timerBox.focus();
  await expect(page.getByRole('listbox').getByRole('option')).toHaveText([GLOBEX, ACME, CAFE]);
  await expectOptions(page, timerBox, 'pro', [GLOBEX, CAFE]); // matches keep that order
  await page.getByRole('option', { name: CAFE }).click();
  await expect(timerBox).toHaveValue(CAFE);
  await expectClean(page);
});

test('typing filters the expense project, invoice client and project client pickers', async ({ page, workspace }) => {
  test.slow(); // a catalog seeded, three pages each checked at two widths
  await seedCatalog(workspace);
  await visit(page, '/expenses/new', 'pickers-expense');
  const project = page.getByRole('combobox', { name: 'Project', exact: true });
  await project.focus();
  await expectOptions(page, project, 'Prog', ['Café Noir - Programme (CN-7)', 'Globex - Progress report']);
  await expectOptions(page, project, 'noir cafe', ['Café Noir - Programme (CN-7)']);
  await expectOptions(page, project, 'website zzz', []);
  await project.press('Escape');
  await checkPage(page, 'pickers-expense-filtered');

  for (const [path, name] of [
    ['/invoices/new', 'pickers-invoice'],
    ['/projects/new', 'pickers-project'],
  ]) {
    await visit(page, path, name);
    const client = page.getByRole('combobox', { name: 'Client' });
    await client.focus();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText(['Acme', 'Café Noir', 'Globex']);
    await expectOptions(page, client, 'CAFE', ['Café Noir']);
    await expectOptions(page, client, 'noir', ['Café Noir']);
    await expectOptions(page, client, 'o', ['Café Noir', 'Globex']);
    await page.getByRole('option', { name: 'Globex' }).click();
    await expect(client).toHaveValue('Globex');
    // A filled field, focused again, offers everything again (not only the chosen one).
    await page.getByRole('heading', { level: 1 }).click();
    await client.focus();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText(['Acme', 'Café Noir', 'Globex']);
    await client.press('Escape');
  }
  await expectClean(page);
});

/** What the timer says, in seconds ("1:02:03" -> 3723). */
const shownSeconds = (text: string | null) => (text ?? '').split(':').reduce((sum, part) => sum * 60 + Number(part), 0);

/**
 * The timer shows `expected()` seconds, give or take 3 (the browser takes the server's time
 * from each answer's Date header, which has whole seconds). Counting the current run twice,
 * as before, was off by whole minutes here.
 */
async function expectElapsed(timer: Locator, expected: () => number) {
  await expect.poll(async () => Math.abs(shownSeconds(await timer.textContent()) - expected()), { message: 'seconds off' }).toBeLessThanOrEqual(3);
}

test('a running timer shows its time once, fresh and restarted, after a reload and in a second tab', async ({ page, workspace, sheaf }) => {
  const { acme } = await seedCatalog(workspace);
  // A timer started ten minutes ago: the server's clock is set back for the start, then put right.
  sheaf.clock.advance(-10 * 60_000);
  const start = await workspace.api('POST', '/api/v2/time_entries', { project_id: acme.id, task_id: acme.taskIds[0], is_running: true, notes: 'Fresh run' });
  sheaf.clock.advance(10 * 60_000);
  expect(start.status, JSON.stringify(start.body)).toBe(201);
  const fresh = () => (Date.now() - Date.parse(start.body.timer_started_at)) / 1000;
  expect(fresh()).toBeGreaterThan(599);

  await visit(page, '/time', 'timer-fresh');
  const timer = page.getByRole('timer');
  await expectElapsed(timer, fresh);
  await page.reload();
  await expectElapsed(timer, fresh);
  const second = await page.context().newPage();
  await second.goto('/time/week');
  await expectElapsed(second.getByRole('timer'), fresh);
  await expect(second.getByRole('link', { name: /timer running; open the day/ })).toContainText(/^0:1\d/); // the week's cell agrees

  // Stopped after those ten minutes, restarted five minutes ago: its earlier run + the current one.
  const stopped = await workspace.api('PATCH', `/api/v2/time_entries/${start.body.id}/stop`, {});
  expect(stopped.status).toBe(200);
  sheaf.clock.advance(-5 * 60_000);
  const restarted = await workspace.api('PATCH', `/api/v2/time_entries/${start.body.id}/restart`, {});
  sheaf.clock.advance(5 * 60_000);
  expect(restarted.status, JSON.stringify(restarted.body)).toBe(200);
  const total = () => stopped.body.duration_seconds + (Date.now() - Date.parse(restarted.body.timer_started_at)) / 1000;
  expect(total()).toBeGreaterThan(899);
  await page.reload();
  await expectElapsed(timer, total);
  await second.reload();
  await expectElapsed(second.getByRole('timer'), total);
  await expect(second.getByRole('link', { name: /timer running; open the day/ })).toContainText(/^0:1\d/);
  await checkPage(page, 'timer-restarted');
  await second.close();
  expect((await workspace.api('PATCH', `/api/v2/time_entries/${start.body.id}/stop`, {})).status).toBe(200);
  await expectClean(page);
});

test('Start timer moves the focus to Stop timer, and Stop back to Start', async ({ page, workspace }) => {
  await seedCatalog(workspace);
  await visit(page, '/time', 'timer-focus');
  await page.getByRole('combobox', { name: 'Project and task' }).fill('website');
  await page.getByRole('option', { name: ACME }).click();
  await page.getByRole('button', { name: 'Start timer' }).click();
  await expect(page.getByRole('button', { name: 'Stop timer' })).toBeFocused();
  await page.keyboard.press('Enter'); // the keyboard user stops it where they are
  await expect(page.getByRole('button', { name: 'Start timer' })).toBeFocused();
  await expect.poll(async () => (await workspace.api('GET', '/web/api/timer')).body.running).toBeNull();

  // Enter in Notes starts it too: the focus lands on Stop timer, not on <body>.
  await page.getByRole('combobox', { name: 'Project and task' }).fill('prog report');
  await page.getByRole('option', { name: GLOBEX }).click();
  await page.getByRole('textbox', { name: 'Notes' }).fill('Outline');
  await page.getByRole('textbox', { name: 'Notes' }).press('Enter');
  await expect(page.getByRole('button', { name: 'Stop timer' })).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON');
  await page.getByRole('button', { name: 'Stop timer' }).click();
  await expectClean(page);
});

test('errors of adjacent week cells neither overlap nor are cut off, at 1280 and 390 px', async ({ page, workspace }) => {
  await seedCatalog(workspace);
  const sheet = (await workspace.api('GET', '/web/api/timesheet')).body;
  await visit(page, '/time/week', 'week-cell-errors-empty');
  await page.getByRole('combobox', { name: 'Add row' }).fill('website');
  await page.getByRole('option', { name: ACME }).click();
  const days = [0, 1, 2].map((i) => dayLabel(new Date(Date.parse(`${sheet.from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10)));
  for (const [i, text] of ['abc', '1h 30x', '-2'].entries()) {
    const cell = page.getByRole('textbox', { name: `Website, Design, ${days[i]}` });
    await cell.fill(text);
    await cell.press('Tab');
  }
  const alerts = page.getByRole('table').getByRole('alert');
  await expect(alerts).toHaveCount(3);
  await checkPage(page, 'week-cell-errors');
  for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    const boxes = [];
    for (let i = 0; i < 3; i++) {
      const alert = alerts.nth(i);
      await alert.scrollIntoViewIfNeeded();
      // Not cut off: the whole message is inside its cell and the table's scroll box shows it whole.
      const visible = await alert.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const cell = el.closest('td')!.getBoundingClientRect();
        const scroller = el.closest('table')!.parentElement!.getBoundingClientRect();
        const inside = (outer: DOMRect) => box.left >= outer.left - 0.5 && box.right <= outer.right + 0.5 && box.top >= outer.top - 0.5 && box.bottom <= outer.bottom + 0.5;
        return { inCell: inside(cell), inScroller: inside(scroller), whole: el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1 };
      });
      expect(visible, `message ${i} at ${size.width} px`).toEqual({ inCell: true, inScroller: true, whole: true });
      boxes.push((await alert.boundingBox())!);
    }
    // Not overlapping: neighbours' boxes are apart (they scroll together, so compare after one scroll).
    await alerts.nth(1).scrollIntoViewIfNeeded();
    const now = await Promise.all([0, 1, 2].map(async (i) => (await alerts.nth(i).boundingBox())!));
    // Side by side in the grid; at 390 px the row's days stack (one line each), so one below the other.
    const apart = (a: { x: number; y: number; width: number; height: number }, b: typeof a) => a.x + a.width <= b.x + 0.5 || a.y + a.height <= b.y + 0.5;
    for (let i = 0; i < 2; i++) expect(apart(now[i], now[i + 1]), `messages ${i} and ${i + 1} at ${size.width} px`).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectClean(page);
});

test('the week asks for its choices once, not with every week', async ({ page, workspace }) => {
  await seedCatalog(workspace);
  const requests: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/web/api/')) requests.push(path);
  });
  await visit(page, '/time/week', 'week-choices-once');
  await page.getByRole('combobox', { name: 'Add row' }).focus();
  await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(3);
  await page.getByRole('combobox', { name: 'Add row' }).press('Escape');
  for (const label of ['Previous week', 'Previous week', 'Next week']) {
    await page.getByRole('link', { name: label }).click();
    await expect(page.getByRole('table')).toBeVisible();
  }
  await page.getByRole('combobox', { name: 'Project and task' }).focus(); // the timer's picker: same list, from the cache
  await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(3);
  expect(requests.filter((p) => p === '/web/api/time_choices')).toHaveLength(1);
  expect(requests.filter((p) => p === '/web/api/timesheet').length).toBeGreaterThanOrEqual(3);
  const week = await page.request.get('/web/api/timesheet');
  expect(await week.json()).not.toHaveProperty('choices');
  await expectClean(page);
});
