import type { Page } from '@playwright/test';
import { expect, signIn, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * Editing time entries (issue 21 item 4): in the day view every entry changes its project
 * and task, times or hours, notes and billable flag, is deleted after a confirmation or
 * continued; a week cell with several entries opens them all in the same editor; locked
 * entries say why and offer no edit. What the screen says is checked against the server.
 */

async function ok(pending: Promise<{ status: number; body: any }>) {
  const res = await pending;
  if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayLabel = (date: string) => DAY.format(new Date(`${date}T00:00:00Z`)).replace(',', '');
const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function setup(workspace: TestWorkspace) {
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design', 'Build'] });
  const sheet = await ok(workspace.api('GET', '/web/api/timesheet'));
  return { project, design: project.taskIds[0], build: project.taskIds[1], today: sheet.today as string, from: sheet.from as string };
}

const entryOf = async (workspace: TestWorkspace, id: string, as?: string) => workspace.api('GET', `/api/v2/time_entries/${id}`, undefined, as);

/** Sets a React Aria checkbox (its input is visually hidden: the label takes the click). */
async function setBillable(page: Page, scope: ReturnType<Page['getByRole']>, on: boolean) {
  const box = scope.getByRole('checkbox', { name: 'Billable' });
  if ((await box.isChecked()) !== on) await scope.getByText('Billable', { exact: true }).click();
  await expect(box).toBeChecked({ checked: on });
}

test('every field of an entry is edited in the day view, and a refusal shows under its field', async ({ page, workspace }) => {
  const t = await setup(workspace);
  const entry = await ok(
    workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.design, spent_date: t.today, started_time: '09:00', ended_time: '10:30', notes: 'Draft', billable: true }),
  );
  await visit(page, `/time/day?date=${t.today}`, 'time-edit-day');
  await page.getByRole('button', { name: 'Edit entry: Website, Design' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit entry' });
  await expect(dialog.getByRole('textbox', { name: 'Start' })).toHaveValue('09:00');
  await expect(dialog.getByRole('textbox', { name: 'Hours' })).toHaveValue('1:30');
  await expectAccessible(page, 'the entry editor');
  await checkPage(page, 'time-edit-dialog');

  // Project and task, start and end (typed loosely), notes, billable: one save.
  await dialog.getByRole('combobox', { name: 'Project and task' }).fill('build');
  await page.getByRole('option', { name: 'Acme - Website - Build' }).click();
  await dialog.getByRole('textbox', { name: 'Start' }).fill('830');
  await dialog.getByRole('textbox', { name: 'End' }).fill('11am');
  await dialog.getByRole('textbox', { name: 'Notes' }).fill('Final');
  await setBillable(page, dialog, false);
  await dialog.getByRole('button', { name: 'Save entry' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Final/ })).toContainText('08:30 – 11:00');
  expect((await entryOf(workspace, entry.id)).body).toMatchObject({ task_id: t.build, started_time: '08:30', ended_time: '11:00', hours: 2.5, notes: 'Final', billable: false });

  // Hours alone: the times go, as the API does it.
  await page.getByRole('button', { name: 'Edit entry: Website, Build' }).click();
  await dialog.getByRole('textbox', { name: 'Hours' }).fill('1h 45m');
  await dialog.getByRole('button', { name: 'Save entry' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Final/ })).toContainText('1:45');
  expect((await entryOf(workspace, entry.id)).body).toMatchObject({ hours: 1.75, started_time: null, ended_time: null });

  // A time the parser cannot read, then an end before the start (which the API would refuse in its
  // English words): each under its field in the app's, nothing changed.
  await page.getByRole('button', { name: 'Edit entry: Website, Build' }).click();
  await dialog.getByRole('textbox', { name: 'Start' }).fill('nine');
  await dialog.getByRole('button', { name: 'Save entry' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Start' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('Enter a time such as 9:30, 930 or 9:30pm.');
  await dialog.getByRole('textbox', { name: 'Start' }).fill('10');
  await dialog.getByRole('textbox', { name: 'End' }).fill('9');
  await dialog.getByRole('textbox', { name: 'Hours' }).fill('');
  await dialog.getByRole('button', { name: 'Save entry' }).click();
  await expect(dialog.getByRole('textbox', { name: 'End' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('Enter an end after the start (an entry cannot run past midnight).');
  await checkPage(page, 'time-edit-refused');
  expect((await entryOf(workspace, entry.id)).body).toMatchObject({ hours: 1.75, started_time: null });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expectClean(page);
});

test('continue restarts today\u2019s entry and starts a new timer from an earlier day\u2019s; delete asks first', async ({ page, workspace }) => {
  const t = await setup(workspace);
  const yesterday = addDays(t.today, -1);
  const todays = await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.design, spent_date: t.today, hours: 1, notes: 'Today work' }));
  const earlier = await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.build, spent_date: yesterday, hours: 2, notes: 'Earlier work', billable: false }));

  await visit(page, `/time/day?date=${t.today}`, 'time-continue-today');
  await page.getByRole('button', { name: 'Continue: Website, Design' }).click();
  await expect(page.getByRole('button', { name: 'Stop timer' })).toBeVisible();
  await expect.poll(async () => (await entryOf(workspace, todays.id)).body.is_running).toBe(true);
  await ok(workspace.api('PATCH', `/api/v2/time_entries/${todays.id}/stop`, {}));

  await visit(page, `/time/day?date=${yesterday}`, 'time-continue-earlier');
  await page.getByRole('button', { name: 'Continue: Website, Build' }).click();
  await expect(page.getByRole('button', { name: 'Stop timer' })).toBeVisible();
  const running = async () => (await ok(workspace.api('GET', '/api/v2/time_entries?is_running=true'))).time_entries;
  await expect.poll(async () => (await running()).length).toBe(1);
  expect((await running())[0]).toMatchObject({ task_id: t.build, spent_date: t.today, notes: 'Earlier work', billable: false });
  expect((await running())[0].id).not.toBe(earlier.id);
  expect((await entryOf(workspace, earlier.id)).body).toMatchObject({ is_running: false, hours: 2 });

  // Continue while that timer runs: said, with the one action.
  await page.getByRole('button', { name: 'Continue: Website, Build' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Another timer is running.' })).toBeVisible();
  const first = (await running())[0].id;
  await page.getByRole('button', { name: 'Stop it and continue this one' }).click();
  // Waited for by the new timer's id: one timer ran before the press too (the poll on the count was flaky in CI).
  await expect.poll(async () => (await running()).map((e: { id: string }) => e.id !== first)).toEqual([true]);
  // The first new timer was stopped for it, not deleted: today holds three entries.
  expect((await ok(workspace.api('GET', `/api/v2/time_entries?from=${t.today}&to=${t.today}`))).time_entries).toHaveLength(3);
  await ok(workspace.api('PATCH', `/api/v2/time_entries/${(await running())[0].id}/stop`, {}));

  // Delete: the confirmation names the entry; "Keep it" keeps it.
  await page.reload();
  await page.getByRole('button', { name: 'Edit entry: Website, Build' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Edit entry' });
  await dialog.getByRole('button', { name: 'Delete entry: Website, Build' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this entry?' });
  await expect(confirm).toContainText('2:00 on Website, Build');
  await expectAccessible(page, 'the delete confirmation');
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  expect((await entryOf(workspace, earlier.id)).status).toBe(200);
  await dialog.getByRole('button', { name: 'Delete entry: Website, Build' }).click();
  await confirm.getByRole('button', { name: 'Delete entry' }).press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Earlier work/ })).toHaveCount(0);
  // The Edit button that opened the dialog went with its row: focus goes to the day's entries, not the page body, and the deletion is said.
  await expect(page.getByRole('region', { name: /^Entries of/ })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Entry deleted: Website, Build' })).toHaveCount(1);
  expect((await entryOf(workspace, earlier.id)).status).toBe(404);
  await expectClean(page);
});

test('a week cell with several entries opens them all in the entry editor', async ({ page, workspace }) => {
  const t = await setup(workspace);
  const first = await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.design, spent_date: t.from, hours: 1, notes: 'Morning' }));
  const second = await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.design, spent_date: t.from, hours: 2, notes: 'Afternoon' }));
  await visit(page, `/time/week?start=${t.from}`, 'time-cell-several');
  await page.getByRole('button', { name: `Website, Design, ${dayLabel(t.from)}: 3:00, 2 entries; edit them` }).click();
  const dialog = page.getByRole('dialog', { name: `Website, Design, ${dayLabel(t.from)}` });
  await expect(dialog.getByRole('region')).toHaveCount(2);
  await checkPage(page, 'time-cell-several-dialog');

  const morning = dialog.getByRole('region', { name: 'Entry 1' });
  await expect(morning).toContainText('Morning');
  await morning.getByRole('textbox', { name: 'Hours' }).fill('0:30');
  await morning.getByRole('textbox', { name: 'Notes' }).fill('Standup');
  await morning.getByRole('button', { name: 'Save entry' }).click();
  await expect(morning.getByRole('heading')).toHaveText('0:30 · Standup');
  expect((await entryOf(workspace, first.id)).body).toMatchObject({ hours: 0.5, notes: 'Standup' });

  await dialog.getByRole('region', { name: 'Entry 2' }).getByRole('button', { name: 'Delete entry: Website, Design' }).click();
  await page.getByRole('dialog', { name: 'Delete this entry?' }).getByRole('button', { name: 'Delete entry' }).click();
  // The press starts the delete; the entry is gone once its answer came (not at the click).
  await expect.poll(async () => (await entryOf(workspace, second.id)).status).toBe(404);
  // One entry left: the cell is typed into again.
  await expect(page.getByRole('textbox', { name: `Website, Design, ${dayLabel(t.from)}` })).toHaveValue('0:30');
  await expectClean(page);
});

test('approved and billed entries say why and offer no edit', async ({ page, workspace }) => {
  const mia = await workspace.seed.memberWithPassword('Mia');
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = await ok(workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 100 }));
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: mia.id }));
  const sheet = await ok(workspace.api('GET', '/web/api/timesheet', undefined, mia.id));
  const from = sheet.from as string;
  const lastWeek = addDays(from, -7);
  const add = (date: string, notes: string) => ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: date, hours: 1, notes }, mia.id));
  await add(lastWeek, 'Invoiced work');
  await add(from, 'Approved work');

  // Last week billed (with approvals off: with them on, only approved time is invoiced); this week approved.
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: false }));
  await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, line_items_import: { project_ids: [project.id], time: { summary_type: 'project', from: lastWeek, to: addDays(lastWeek, 6) } } }));
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from, to: addDays(from, 6) }, mia.id));
  const approve = (extra: object) => workspace.api('POST', '/api/v2/approvals/approve', { user_id: mia.id, from, to: addDays(from, 6), ...extra });
  const first = await approve({});
  if (first.status === 409) await ok(approve({ preflight_fingerprint: first.body.preflight.fingerprint, acknowledged_warning_codes: first.body.preflight.warnings.map((w: { code: string }) => w.code) }));
  else expect(first.status).toBe(200);

  await signIn(page, mia);
  await visit(page, `/time/day?date=${from}`, 'time-edit-approved');
  const approved = page.getByRole('row', { name: /Approved work/ });
  await expect(approved).toContainText('Approved, so it cannot be changed or deleted. Ask an approver to withdraw the approval.');
  await expect(approved.getByRole('button', { name: /^Edit entry/ })).toHaveCount(0);
  await expect(approved.getByRole('checkbox', { name: /^Billable/ })).toBeDisabled();

  await visit(page, `/time/day?date=${lastWeek}`, 'time-edit-billed');
  const billed = page.getByRole('row', { name: /Invoiced work/ });
  await expect(billed).toContainText('Billed on an invoice, so it cannot be changed or deleted. Only deleting that invoice, while it is still a draft, releases it.');
  await expect(billed.getByRole('button', { name: /^Edit entry/ })).toHaveCount(0);
  // The week grid says the same, in its short words.
  await visit(page, `/time/week?start=${lastWeek}`, 'time-edit-billed-week');
  await expect(page.getByRole('link', { name: `Website, Design, ${dayLabel(lastWeek)}: 1:00, billed, locked; open the day` })).toBeVisible();
  await expectClean(page);
});

const WEEKDAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' });
/** A day as the calendar's columns are named: its weekday and the person's date pattern (YYYY-MM-DD unless set). */
const longDayLabel = (date: string) => `${WEEKDAY.format(new Date(`${date}T00:00:00Z`))} ${date}`;
/** The calendar's scale: 48 px an hour. */
const PX_PER_MINUTE = 0.8;

test('the calendar places entries by time, edits them, creates by drag and resizes by drag and by key', async ({ page, workspace }) => {
  const t = await setup(workspace);
  const planning = await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.design, spent_date: t.today, started_time: '09:00', ended_time: '10:30', notes: 'Planning' }));
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.build, spent_date: t.today, hours: 2, notes: 'Admin' }));
  const calls = await visit(page, `/time/calendar?start=${t.from}`, 'time-calendar');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3);

  // 09:00–10:30 spans that range of the day's timeline; the untimed entry is listed at the top of its day.
  const timeline = page.getByTestId(`timeline-${t.today}`);
  const block = page.getByRole('button', { name: /^Website, Design, 09:00 – / });
  await expect(block).toHaveAccessibleName('Website, Design, 09:00 – 10:30, Planning');
  await block.scrollIntoViewIfNeeded();
  const place = async () => {
    const [tl, b] = [(await timeline.boundingBox())!, (await block.boundingBox())!];
    return { top: (b.y - tl.y) / PX_PER_MINUTE, bottom: (b.y + b.height - tl.y) / PX_PER_MINUTE, tl };
  };
  const at = await place();
  expect(Math.abs(at.top - 540)).toBeLessThanOrEqual(3);
  expect(Math.abs(at.bottom - 630)).toBeLessThanOrEqual(3);
  const day = page.getByRole('region', { name: longDayLabel(t.today) });
  await expect(day.getByRole('list', { name: 'Without times' }).getByRole('button')).toHaveAccessibleName('Website, Build: 2:00 · Admin');

  // A click opens the entry editor.
  await block.click();
  const dialog = page.getByRole('dialog', { name: 'Edit entry' });
  await dialog.getByRole('textbox', { name: 'Notes' }).fill('Sprint planning');
  await dialog.getByRole('button', { name: 'Save entry' }).click();
  await expect(dialog).toBeHidden();
  expect((await entryOf(workspace, planning.id)).body.notes).toBe('Sprint planning');

  // Keyboard: Alt+ArrowDown and + lengthen by 15 minutes, - shortens.
  await block.focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(async () => (await entryOf(workspace, planning.id)).body.ended_time).toBe('10:45');
  await expect(block).toHaveAccessibleName(/09:00 – 10:45/);
  await page.keyboard.press('-');
  await expect.poll(async () => (await entryOf(workspace, planning.id)).body).toMatchObject({ ended_time: '10:30', hours: 1.5 });
  // The block shows the server's 10:30 before its edge is measured: an edge still at 10:45 when the
  // page catches up is empty timeline by the time the mouse presses there (a new-entry drag, not a resize).
  await expect(block).toHaveAccessibleName(/09:00 – 10:30/);

  // Drag the bottom edge to 11:30 (snapped from 11:27).
  const edge = page.getByTestId(`resize-${planning.id}`);
  const e = (await edge.boundingBox())!;
  const tl = (await timeline.boundingBox())!;
  await page.mouse.move(e.x + e.width / 2, e.y + e.height / 2);
  await page.mouse.down();
  await page.mouse.move(e.x + e.width / 2, tl.y + 600 * PX_PER_MINUTE, { steps: 4 });
  await page.mouse.move(e.x + e.width / 2, tl.y + 687 * PX_PER_MINUTE, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await entryOf(workspace, planning.id)).body).toMatchObject({ started_time: '09:00', ended_time: '11:30', hours: 2.5 });
  await expect(block).toHaveAccessibleName(/09:00 – 11:30/);

  // Drag over empty space of another day: the editor opens with that span (snapped), and adds the entry.
  const other = t.today === t.from ? addDays(t.from, 1) : t.from;
  const empty = (await page.getByTestId(`timeline-${other}`).boundingBox())!;
  await page.mouse.move(empty.x + empty.width / 2, empty.y + 542 * PX_PER_MINUTE);
  await page.mouse.down();
  await page.mouse.move(empty.x + empty.width / 2, empty.y + 580 * PX_PER_MINUTE, { steps: 4 });
  await page.mouse.move(empty.x + empty.width / 2, empty.y + 628 * PX_PER_MINUTE, { steps: 4 });
  await page.mouse.up();
  const create = page.getByRole('dialog', { name: `New entry, ${dayLabel(other)}` });
  await expect(create.getByRole('textbox', { name: 'Start' })).toHaveValue('09:00');
  await expect(create.getByRole('textbox', { name: 'End' })).toHaveValue('10:30');
  await checkPage(page, 'time-calendar-new');
  await create.getByRole('combobox', { name: 'Project and task' }).fill('design');
  await page.getByRole('option', { name: 'Acme - Website - Design' }).click();
  await create.getByRole('textbox', { name: 'Notes' }).fill('Dragged');
  await create.getByRole('button', { name: 'Add entry' }).click();
  await expect(create).toBeHidden();
  const made = (await ok(workspace.api('GET', `/api/v2/time_entries?from=${other}&to=${other}`))).time_entries;
  expect(made).toMatchObject([{ spent_date: other, started_time: '09:00', ended_time: '10:30', hours: 1.5, notes: 'Dragged', task_id: t.design }]);
  await expect(page.getByRole('button', { name: 'Website, Design, 09:00 – 10:30, Dragged' })).toBeVisible();

  // "New entry", the keyboard's way to create: the slot after the day's last block.
  await page.getByRole('button', { name: `New entry on ${dayLabel(t.today)}` }).click();
  const next = page.getByRole('dialog', { name: `New entry, ${dayLabel(t.today)}` });
  await expect(next.getByRole('textbox', { name: 'Start' })).toHaveValue('11:30');
  await expect(next.getByRole('textbox', { name: 'End' })).toHaveValue('12:30');
  await next.getByRole('button', { name: 'Close' }).click();

  // Deleting the dragged entry from its block: focus goes to the timeline, not the page body, and the deletion is said.
  await page.getByRole('button', { name: 'Website, Design, 09:00 – 10:30, Dragged' }).click();
  await page.getByRole('dialog', { name: 'Edit entry' }).getByRole('button', { name: 'Delete entry: Website, Design' }).click();
  await page.getByRole('dialog', { name: 'Delete this entry?' }).getByRole('button', { name: 'Delete entry' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'The week by time' })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Entry deleted: Website, Design' })).toHaveCount(1);
  await expectClean(page);
});

test('at 390 px the calendar shows one day at a time, with the next and previous day a button away', async ({ page, workspace }) => {
  const t = await setup(workspace);
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.design, spent_date: t.from, started_time: '09:00', ended_time: '10:00', notes: 'Monday work' }));
  await visit(page, `/time/calendar?start=${t.from}`, 'time-calendar-narrow');
  await page.setViewportSize({ width: 390, height: 844 });
  const first = page.getByRole('button', { name: /Monday work/ });
  const days = Array.from({ length: 7 }, (_, i) => addDays(t.from, i));
  const shown = days.indexOf(t.today);
  await expect(page.getByRole('region', { name: longDayLabel(t.today) })).toBeVisible();
  await expect(page.getByRole('region', { name: longDayLabel(days[(shown + 1) % 7]) })).toBeHidden();
  for (let i = shown; i > 0; i--) await page.getByRole('button', { name: /^Previous day/ }).click();
  await expect(page.getByRole('region', { name: longDayLabel(t.from) })).toBeVisible();
  await expect(first).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous day' })).toBeDisabled();
  await page.getByRole('button', { name: `Next day (${dayLabel(days[1])})` }).click();
  await expect(first).toBeHidden();
  await checkPage(page, 'time-calendar-narrow-next');
  await expectClean(page);
});
