import type { Locator, Page } from '@playwright/test';
import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';
import { typeDate } from './dates.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * Planning (issue 26 item 2): an administrator plans a member on a project in the schedule
 * (hours per day) and sees the week's cell change and turn over-allocated, moves the bar a
 * week with Alt+→ and another by dragging it with the mouse, edits it to a total and deletes
 * it; adds a placeholder, plans it and staffs it with a person; sees Planned vs tracked per
 * project under Reports. A member has no Planning and is refused the page, and finds their
 * week's plan on the home page. On a phone the schedule scrolls sideways and still plans. In
 * German, the planner speaks German. Planned hours read as Home writes them, in the person's
 * duration style: "22:30" in English (hours:minutes), "22,50" in a German profile (decimal).
 */

const DAY = 86_400_000;
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

interface Team {
  admin: { id: string; email: string; password: string };
  mia: { id: string; email: string; password: string };
  website: { id: string };
  shop: { id: string };
  /** Monday of this week (the workspace's). */
  monday: string;
}

/** Ada (administrator), Mia (member, 40 h a week), projects Acme – Website and Bolt – Shop; this week's Monday. */
async function team(workspace: TestWorkspace): Promise<Team> {
  const admin = await workspace.seed.memberWithPassword('Ada', 'administrator');
  const mia = await workspace.seed.memberWithPassword('Mia');
  await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { expected_weekly_hours: '40' }));
  await ok(workspace.api('PATCH', `/web/api/members/${admin.id}`, { expected_weekly_hours: '40' }));
  const website = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });
  const shop = await workspace.seed.project({ client: 'Bolt', name: 'Shop', tasks: ['Build'], members: [mia.id] });
  const today = (await ok(workspace.api('GET', '/web/api/home'))).today as string;
  const monday = (await ok(workspace.api('GET', `/web/api/schedule?from=${today}&weeks=1`))).weeks[0] as string;
  return { admin, mia, website, shop, monday };
}

/** The assignments of the schedule from `monday`, as the server has them. */
async function assignments(workspace: TestWorkspace, monday: string) {
  return (await ok(workspace.api('GET', `/web/api/schedule?from=${monday}&weeks=12`))).assignments as Array<{
    id: string;
    project: { name: string };
    user_id: string | null;
    placeholder_id: string | null;
    starts_on: string;
    ends_on: string;
    hours_per_day: number | null;
    total_hours: number | null;
  }>;
}

/** A row's week cells (the load row: its header is the name; the bars' row under it starts with its Add button). */
const weekCells = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) }).getByRole('cell');

/** Picks an option of a type-ahead field inside `scope`. */
async function pick(scope: Locator, label: string, typed: string, option: string) {
  await scope.getByRole('combobox', { name: label }).fill(typed);
  await scope.page().getByRole('option', { name: option }).click();
}

test('an administrator plans a person, sees the week fill and go over, moves the bar by keyboard and mouse, edits it to a total and deletes it', async ({ page, workspace }) => {
  test.setTimeout(300_000); // the page and two dialogs checked at both widths
  const t = await team(workspace);
  // Mia already has 2 hours a day on Shop this week.
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.shop.id, user_id: t.mia.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), hours_per_day: 2 }));
  await signIn(page, t.admin);

  await visit(page, '/', 'planning-admin-home');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Planning' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Planning' })).toBeVisible();
  const calls = await visit(page, '/planning', 'planning-schedule');
  expect(calls.filter((c) => c === 'GET /web/api/schedule'), calls.join(', ')).toHaveLength(1);
  await expect(page.getByRole('columnheader', { name: /^Week of/ })).toHaveCount(12);
  await expect(page.getByRole('columnheader', { name: /this week$/ })).toHaveCount(1);
  const mia = weekCells(page, 'Mia Tester');
  await expect(mia.first()).toHaveText('10:00 / 40:00');
  await expect(weekCells(page, 'Ada Tester').first()).toHaveText('0:00 / 40:00');

  // Add assignment on Mia's row: 8 hours a day on Website this week (the dialog starts on this week, Monday to Friday).
  await page.getByRole('button', { name: 'Add assignment for Mia Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add assignment' });
  await expect(dialog.getByRole('combobox', { name: 'Person or placeholder' })).toHaveValue('Mia Tester');
  await pick(dialog, 'Project', 'webs', 'Acme – Website');
  await dialog.getByRole('textbox', { name: 'Hours per day' }).fill('8');
  await expectAccessible(page, 'the assignment dialog');
  await dialog.getByRole('button', { name: 'Add assignment' }).click();
  await expect(dialog).toBeHidden();

  // 50 of 40 hours: over-allocated, in words (read out) and with the marker, not only in colour.
  await expect(mia.first()).toHaveText('50:00 / 40:00, over-allocated');
  await expect(mia.nth(1)).toHaveText('0:00 / 40:00');
  // Bold and with its marker, the over-allocated week still fits its cell.
  const [scroll, client] = await mia.first().evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scroll, 'the over-allocated cell’s text is cut off').toBeLessThanOrEqual(client);
  const bar = page.getByRole('button', { name: /^Website \(Acme\)/ });
  await expect(bar).toHaveAccessibleName(/, 8:00 h a day$/);
  let website = (await assignments(workspace, t.monday)).find((a) => a.project.name === 'Website')!;
  expect(website).toMatchObject({ user_id: t.mia.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), hours_per_day: 8, total_hours: null });
  await checkPage(page, 'planning-over');

  // Alt+→ moves it a week, said in the live region; the server has the new dates.
  await bar.press('Alt+ArrowRight');
  await expect(page.getByRole('status').filter({ hasText: /^Website moved to/ })).toBeAttached();
  await expect.poll(async () => (await assignments(workspace, t.monday)).find((a) => a.id === website.id)?.starts_on).toBe(plusDays(t.monday, 7));
  await expect(mia.first()).toHaveText('10:00 / 40:00');
  await expect(mia.nth(1)).toHaveText('40:00 / 40:00');
  await expect(bar).toBeFocused();
  // Alt+Shift+→ makes it a week longer: it now ends on the Friday after.
  await bar.press('Alt+Shift+ArrowRight');
  await expect.poll(async () => (await assignments(workspace, t.monday)).find((a) => a.id === website.id)?.ends_on).toBe(plusDays(t.monday, 18));
  await bar.press('Alt+Shift+ArrowLeft');
  await expect.poll(async () => (await assignments(workspace, t.monday)).find((a) => a.id === website.id)?.ends_on).toBe(plusDays(t.monday, 11));

  // Dragged with the mouse one week column to the right: another week later.
  const week = (await page.getByRole('columnheader', { name: /^Week of/ }).first().boundingBox())!.width;
  const box = (await bar.boundingBox())!;
  await page.mouse.move(box.x + 12, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 12 + week * 0.6, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + 12 + week + 4, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await assignments(workspace, t.monday)).find((a) => a.id === website.id)).toMatchObject({ starts_on: plusDays(t.monday, 14), ends_on: plusDays(t.monday, 18) });
  await expect(page.getByRole('dialog')).toHaveCount(0); // the drag's release opened nothing
  await expect(mia.nth(1)).toHaveText('0:00 / 40:00');
  await expect(mia.nth(2)).toHaveText('40:00 / 40:00');

  // Its right edge dragged a week further: it ends a week later.
  const moved = (await bar.boundingBox())!;
  await page.mouse.move(moved.x + moved.width - 3, moved.y + moved.height / 2);
  await page.mouse.down();
  await page.mouse.move(moved.x + moved.width - 3 + week + 4, moved.y + moved.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await assignments(workspace, t.monday)).find((a) => a.id === website.id)).toMatchObject({ starts_on: plusDays(t.monday, 14), ends_on: plusDays(t.monday, 25) });

  // Opened, it becomes 20 hours in total (spread over its ten working days).
  await bar.click();
  const edit = page.getByRole('dialog', { name: 'Edit assignment' });
  await expect(edit.getByRole('textbox', { name: 'Hours per day' })).toHaveValue('8:00');
  await edit.getByRole('button', { name: /Plan by/ }).click();
  await page.getByRole('option', { name: 'Total hours' }).click();
  await edit.getByRole('textbox', { name: 'Total hours' }).fill('20');
  await checkPage(page, 'planning-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  website = (await assignments(workspace, t.monday)).find((a) => a.id === website.id)!;
  expect(website).toMatchObject({ hours_per_day: null, total_hours: 20 });
  await expect(bar).toHaveAccessibleName(/, 20:00 h in total$/);
  await expect(mia.nth(2)).toHaveText('10:00 / 40:00');

  // More than 24 hours a day is refused, under the field.
  await bar.click();
  await expect(edit.getByRole('textbox', { name: 'Total hours' })).toHaveValue('20:00');
  await edit.getByRole('textbox', { name: 'Total hours' }).fill('500');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('That is more than 24 hours a day over its 10 working days: plan fewer hours or more days.')).toBeVisible();
  // Hours are typed as every duration in the app: 37:30 is thirty-seven and a half, not 3,730.
  await edit.getByRole('textbox', { name: 'Total hours' }).fill('37:30');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect.poll(async () => (await assignments(workspace, t.monday)).find((a) => a.id === website.id)?.total_hours).toBe(37.5);
  await bar.click();
  await edit.getByRole('textbox', { name: 'Total hours' }).fill('7 apples');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Enter a duration such as 1:30, 1.5 or 1h 30m.')).toBeVisible();

  // Deleted: gone from the schedule and from the server's.
  await edit.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this assignment?' }).getByRole('button', { name: 'Delete assignment' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(bar).toHaveCount(0);
  expect((await assignments(workspace, t.monday)).map((a) => a.project.name)).toEqual(['Shop']);
  await expect(mia.nth(2)).toHaveText('0:00 / 40:00');
  await expectClean(page);
});

test('a Sunday-start workspace: the planner’s columns, this week and a new plan’s dates are its weeks; the date picker’s calendar starts on Sunday', async ({ page, workspace }) => {
  test.setTimeout(240_000);
  await ok(workspace.api('PATCH', '/web/api/workspace', { week_start: 'sunday' }));
  const t = await team(workspace);
  const sunday = t.monday; // the schedule's first week: this workspace week's Sunday
  expect(new Date(`${sunday}T00:00:00Z`).getUTCDay()).toBe(0);
  const label = (day: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
  // 2 hours a working day from this Sunday to Saturday: Mia's Monday to Friday, all in this week's column.
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.shop.id, user_id: t.mia.id, starts_on: sunday, ends_on: plusDays(sunday, 6), hours_per_day: 2 }));
  await signIn(page, t.admin);
  await visit(page, '/planning', 'planning-sunday');
  const heads = page.getByRole('columnheader', { name: /^Week of/ });
  await expect(heads).toHaveCount(12);
  await expect(heads.first()).toHaveText(label(sunday));
  await expect(heads.nth(1)).toHaveText(label(plusDays(sunday, 7)));
  expect((await heads.allTextContents()).every((text) => text.startsWith('Sun '))).toBe(true);
  await expect(page.getByRole('columnheader', { name: /this week$/ })).toHaveAccessibleName(`Week of ${label(sunday)}, this week`);
  const mia = weekCells(page, 'Mia Tester');
  await expect(mia.first()).toHaveText('10:00 / 40:00');
  await expect(mia.nth(1)).toHaveText('0:00 / 40:00');

  // A new plan takes this week's Monday to Friday (its second to sixth day); the calendar starts its weeks on Sunday.
  await page.getByRole('button', { name: 'Add assignment for Mia Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add assignment' });
  await pick(dialog, 'Project', 'webs', 'Acme – Website');
  await dialog.getByRole('textbox', { name: 'Hours per day' }).fill('4');
  await dialog.getByRole('group', { name: 'Starts on' }).getByRole('button', { name: 'Calendar' }).click();
  const calendar = page.getByRole('dialog').getByRole('grid');
  // The weekday row is hidden from screen readers (each day's name says its weekday), so it is read with includeHidden.
  await expect(calendar.getByRole('columnheader', { includeHidden: true })).toHaveText(['S', 'M', 'T', 'W', 'T', 'F', 'S']);
  await checkPage(page, 'planning-sunday-calendar');
  await page.keyboard.press('Escape');
  await expect(calendar).toBeHidden();
  await dialog.getByRole('button', { name: 'Add assignment' }).click();
  await expect(dialog).toBeHidden();
  const website = (await assignments(workspace, sunday)).find((a) => a.project.name === 'Website')!;
  expect(website).toMatchObject({ starts_on: plusDays(sunday, 1), ends_on: plusDays(sunday, 5), hours_per_day: 4 });
  await expect(mia.first()).toHaveText('30:00 / 40:00');

  // Alt+→ moves it a week: into the next Sunday-to-Saturday column, whole.
  await page.getByRole('button', { name: /^Website \(Acme\)/ }).press('Alt+ArrowRight');
  await expect.poll(async () => (await assignments(workspace, sunday)).find((a) => a.id === website.id)?.starts_on).toBe(plusDays(sunday, 8));
  await expect(mia.first()).toHaveText('10:00 / 40:00');
  await expect(mia.nth(1)).toHaveText('20:00 / 40:00');
  await expectClean(page);
});

test('a placeholder is added, planned, and staffed with a person', async ({ page, workspace }) => {
  test.setTimeout(240_000);
  const t = await team(workspace);
  await signIn(page, t.admin);
  await visit(page, '/planning', 'planning-placeholders-empty');
  await expect(page.getByText('No placeholders. Add one for a role still to staff.')).toBeVisible();

  await page.getByRole('button', { name: 'Add placeholder' }).click();
  const add = page.getByRole('dialog', { name: 'Add placeholder' });
  await add.getByRole('textbox', { name: 'Name' }).fill('Senior designer');
  await expect(add.getByRole('textbox', { name: 'Hours a week' })).toHaveValue('40');
  await expectAccessible(page, 'the placeholder dialog');
  await add.getByRole('button', { name: 'Add placeholder' }).click();
  await expect(add).toBeHidden();
  await expect(weekCells(page, 'Senior designer').first()).toHaveText('0:00 / 40:00');

  await page.getByRole('button', { name: 'Add assignment for Senior designer' }).click();
  const plan = page.getByRole('dialog', { name: 'Add assignment' });
  await expect(plan.getByRole('combobox', { name: 'Person or placeholder' })).toHaveValue('Senior designer (placeholder)');
  await pick(plan, 'Project', 'shop', 'Bolt – Shop');
  await plan.getByRole('textbox', { name: 'Hours per day' }).fill('6');
  await plan.getByRole('button', { name: 'Add assignment' }).click();
  await expect(plan).toBeHidden();
  await expect(weekCells(page, 'Senior designer').first()).toHaveText('30:00 / 40:00');
  await checkPage(page, 'planning-placeholder');

  await page.getByRole('button', { name: 'Replace Senior designer with a person' }).click();
  const replace = page.getByRole('dialog', { name: 'Replace Senior designer with a person' });
  await pick(replace, 'Person', 'mia', 'Mia Tester');
  await expectAccessible(page, 'the replace dialog');
  await replace.getByRole('button', { name: 'Replace with person' }).click();
  await expect(replace).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Senior designer is staffed: 1 assignment moved to Mia Tester.' })).toBeAttached();
  await expect(page.getByRole('row', { name: /^Senior designer/ })).toHaveCount(0);
  await expect(weekCells(page, 'Mia Tester').first()).toHaveText('30:00 / 40:00');
  const [shop] = await assignments(workspace, t.monday);
  expect(shop).toMatchObject({ project: { name: 'Shop' }, user_id: t.mia.id, placeholder_id: null });
  await expectClean(page);
});

test('planned hours read as Home writes them: in the person’s duration style, in English and in a German profile', async ({ page, workspace }) => {
  test.setTimeout(240_000);
  const t = await team(workspace);
  // Ada plans herself on Website, 4.5 hours a day for two weeks: 22.5 hours in each.
  await ok(workspace.api('POST', `/api/v2/projects/${t.website.id}/user_assignments`, { user_id: t.admin.id }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, user_id: t.admin.id, starts_on: t.monday, ends_on: plusDays(t.monday, 11), hours_per_day: 4.5 }, t.admin.id));
  await signIn(page, t.admin);

  await visit(page, '/', 'planning-hours-home');
  await expect(page.getByRole('region', { name: 'Your plan this week' }).getByRole('listitem').filter({ hasText: 'Website' })).toContainText('22:30 h');
  await visit(page, '/planning', 'planning-hours');
  const ada = weekCells(page, 'Ada Tester');
  await expect(ada.first()).toHaveText('22:30 / 40:00');
  await expect(ada.nth(1)).toHaveText('22:30 / 40:00');
  await expect(ada.nth(2)).toHaveText('0:00 / 40:00');
  const bar = page.getByRole('button', { name: /^Website \(Acme\)/ });
  await expect(bar).toHaveAccessibleName(/, 4:30 h a day$/);
  await expect(bar.getByText('4:30 h/day')).toBeVisible();

  await workspace.seed.german(t.admin.id);
  await visit(page, '/', 'planning-hours-home-de');
  await expect(page.getByRole('region', { name: 'Ihr Plan für diese Woche' }).getByRole('listitem').filter({ hasText: 'Website' })).toContainText('22,50 Std.');
  await visit(page, '/planning', 'planning-hours-de');
  await expect(ada.first()).toHaveText('22,50 / 40,00');
  await expect(ada.nth(2)).toHaveText('0,00 / 40,00');
  await expect(bar).toHaveAccessibleName(/, 4,50 Std\. pro Tag$/);
  await expect(bar.getByText('4,50 Std./Tag')).toBeVisible();
  await expectClean(page);
});

test('someone planned without working hours: the page says why every hour is over-allocated, and where patterns are set', async ({ page, workspace }) => {
  const t = await team(workspace);
  // Olive (the owner) has no working pattern and no weekly hours; Mia has 40.
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, user_id: workspace.owner.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), hours_per_day: 1 }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, user_id: t.mia.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), hours_per_day: 1 }));
  await signIn(page, t.admin);
  await visit(page, '/planning', 'planning-no-capacity');
  await expect(weekCells(page, 'Olive Owner').first()).toHaveText('5:00 / 0:00, over-allocated');
  const note = page.getByRole('note');
  await expect(note).toHaveText('Olive Owner has no working hours in these weeks, so every hour planned for them shows as over-allocated. Set working patterns under Settings → Members');
  await note.getByRole('link', { name: 'Set working patterns under Settings → Members' }).click();
  await expect(page).toHaveURL(/\/settings\/members$/);

  // A manager cannot open Members: the note says who can.
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  await signIn(page, max);
  await visit(page, '/planning', 'planning-no-capacity-manager');
  await expect(page.getByRole('note')).toContainText('Owners and administrators set working patterns under Settings → Members.');
  await expect(page.getByRole('note').getByRole('link')).toHaveCount(0);

  // Once Olive has hours a week, the note is gone.
  await ok(workspace.api('PATCH', `/web/api/members/${workspace.owner.id}`, { expected_weekly_hours: '40' }));
  await visit(page, '/planning', 'planning-capacity-set');
  await expect(weekCells(page, 'Olive Owner').first()).toHaveText('5:00 / 40:00');
  await expect(page.getByRole('note')).toHaveCount(0);
  await expectClean(page);
});

test('a manager moves the plans of the projects they manage; another project’s bar is read-only', async ({ page, workspace }) => {
  const t = await team(workspace);
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  await ok(workspace.api('POST', `/api/v2/projects/${t.website.id}/user_assignments`, { user_id: max.id, is_project_manager: true }));
  // On Shop Max works but does not manage: he sees it, and may not plan it.
  await ok(workspace.api('POST', `/api/v2/projects/${t.shop.id}/user_assignments`, { user_id: max.id }));
  const week = { user_id: t.mia.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), hours_per_day: 2 };
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, ...week }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.shop.id, ...week }));
  await signIn(page, max);
  await visit(page, '/planning', 'planning-manager');

  const shop = page.getByRole('button', { name: /^Shop \(Bolt\)/ });
  await shop.press('Alt+ArrowRight');
  await expect(page.getByRole('status').filter({ hasText: 'Shop is not yours to change.' })).toBeAttached();
  await shop.click();
  const view = page.getByRole('dialog', { name: 'Assignment' });
  await expect(view).toContainText('Not yours to change');
  await expect(view.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(view.getByRole('textbox', { name: 'Hours per day' })).toBeDisabled();
  await view.getByRole('button', { name: 'Close' }).first().click();
  await expect(view).toBeHidden();

  // A new assignment offers the projects Max plans: Website, not Shop (which the server would refuse).
  await page.getByRole('button', { name: 'Add assignment for Mia Tester' }).click();
  const add = page.getByRole('dialog', { name: 'Add assignment' });
  await add.getByRole('button', { name: 'Show suggestions' }).first().click();
  await expect(page.getByRole('option', { name: 'Acme – Website' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Bolt – Shop' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await add.getByRole('button', { name: 'Close' }).first().click();
  await expect(add).toBeHidden();

  await page.getByRole('button', { name: /^Website \(Acme\)/ }).press('Alt+ArrowRight');
  await expect.poll(async () => (await assignments(workspace, t.monday)).map((a) => [a.project.name, a.starts_on]).sort()).toEqual([
    ['Shop', t.monday],
    ['Website', plusDays(t.monday, 7)],
  ]);
  await expectClean(page);
});

test('Planned vs tracked: a project’s planned and tracked hours and their difference', async ({ page, workspace }) => {
  const t = await team(workspace);
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, user_id: t.mia.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), hours_per_day: 4 }));
  const tasks = (await ok(workspace.api('GET', `/api/v2/projects/${t.website.id}/task_assignments`))).task_assignments as Array<{ task: { id: string } }>;
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.website.id, task_id: tasks[0].task.id, spent_date: t.monday, hours: 2.5 }, t.mia.id));
  await signIn(page, t.admin);

  await visit(page, `/reports/planned?from=${t.monday}&to=${plusDays(t.monday, 6)}`, 'planning-report');
  const tabs = page.getByRole('navigation', { name: 'Reports' });
  await expect(tabs.getByRole('link', { name: 'Planned vs tracked' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Planned vs tracked' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Planned and tracked hours per project' });
  await expect(table.getByRole('columnheader')).toHaveText(['Client', 'Project', 'Planned', 'Tracked', 'Difference']);
  const row = table.getByRole('row', { name: /Website/ });
  await expect(row.getByRole('cell')).toHaveText(['Acme', 'Website', '20:00', '2:30', '−17:30']);
  await expect(table.getByRole('row', { name: /Shop/ })).toHaveCount(0);
  await expectClean(page);
});

test.describe('as a member', () => {
  test.use({ signedIn: false });

  test('a member has no Planning and is refused the page; their home shows the week’s plan once they are planned', async ({ page, workspace }) => {
    const t = await team(workspace);
    await signIn(page, t.mia);
    await visit(page, '/', 'planning-member-home-before');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Planning' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Your plan this week' })).toHaveCount(0);

    await visit(page, '/planning', 'planning-member-refused');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not available to your role');
    expect((await page.context().request.get(`/web/api/schedule?from=${t.monday}`)).status()).toBe(403);

    // The administrator plans Mia this week, Monday to Friday: 4 hours a day on Website, 10 hours in total on Shop.
    await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, user_id: t.mia.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), hours_per_day: 4 }, t.admin.id));
    await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.shop.id, user_id: t.mia.id, starts_on: t.monday, ends_on: plusDays(t.monday, 4), total_hours: 10 }, t.admin.id));
    await visit(page, '/', 'planning-member-home');
    const plan = page.getByRole('region', { name: 'Your plan this week' });
    await expect(plan.getByRole('listitem')).toHaveCount(2);
    await expect(plan.getByRole('listitem').filter({ hasText: 'Website' })).toContainText('Acme');
    await expect(plan.getByRole('listitem').filter({ hasText: 'Website' })).toContainText('20:00 h');
    await expect(plan.getByRole('listitem').filter({ hasText: 'Shop' })).toContainText('10:00 h');
    await expectClean(page);
  });
});

test('on a phone the schedule scrolls sideways and still plans', async ({ page, workspace }) => {
  const t = await team(workspace);
  await signIn(page, t.admin);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/planning');
  await expect(page.getByRole('heading', { level: 1, name: 'Planning' })).toBeVisible();
  // The page itself does not scroll sideways: the schedule does, in its own region.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const region = page.getByRole('region', { name: 'Schedule' });
  expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await page.getByRole('button', { name: 'Add assignment for Mia Tester' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add assignment' });
  await pick(dialog, 'Project', 'webs', 'Acme – Website');
  await dialog.getByRole('textbox', { name: 'Hours per day' }).fill('4');
  await dialog.getByRole('button', { name: 'Add assignment' }).click();
  await expect(dialog).toBeHidden();
  await expect(weekCells(page, 'Mia Tester').first()).toHaveText('20:00 / 40:00');
  await page.getByRole('button', { name: /^Website \(Acme\)/ }).press('Alt+ArrowRight');
  await expect.poll(async () => (await assignments(workspace, t.monday))[0]?.starts_on).toBe(plusDays(t.monday, 7));
  // 26 weeks from the menu.
  await page.getByRole('button', { name: /Weeks shown/ }).click();
  await page.getByRole('option', { name: '26 weeks' }).click();
  await expect(page).toHaveURL(/weeks=26/);
  await expect(page.getByRole('columnheader', { name: /^Week of/ })).toHaveCount(26);
  await expectClean(page);
});

test('a long schedule: the rows past the first screenful follow at once, down to the placeholders', async ({ page, workspace }) => {
  for (let i = 0; i < 34; i++) await workspace.seed.memberWithoutPassword(`Person${String(i).padStart(2, '0')}`);
  await visit(page, '/planning', 'planning-long');
  await expect(page.getByRole('row', { name: /^Person33 Tester/ })).toBeAttached();
  await expect(page.getByRole('row', { name: /^Person\d\d Tester/ })).toHaveCount(34);
  await expect(page.getByRole('table').getByRole('button', { name: 'Add placeholder' })).toBeAttached();
  await expectClean(page);
});

test('in German: the planner in German', async ({ page, workspace }) => {
  await workspace.seed.german();
  const mia = await workspace.seed.memberWithPassword('Mia');
  await visit(page, '/planning', 'planning-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Planung' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Planung' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('button', { name: 'Mia Tester einplanen' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Platzhalter hinzufügen' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /^Woche vom/ })).toHaveCount(12);
  await expect(page.getByText('Geplante Stunden / Kapazität:')).toBeVisible();
  // Mia has no working hours: planned for, she is named in German.
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });
  const today = (await ok(workspace.api('GET', '/web/api/home'))).today as string;
  const monday = (await ok(workspace.api('GET', `/web/api/schedule?from=${today}&weeks=1`))).weeks[0] as string;
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: project.id, user_id: mia.id, starts_on: monday, ends_on: monday, hours_per_day: 2 }));
  await page.reload();
  await expect(page.getByRole('note')).toHaveText(
    'Mia Tester hat in diesen Wochen keine Arbeitszeit: Jede dort geplante Stunde erscheint als überplant. Arbeitszeitmodelle unter Einstellungen → Mitglieder festlegen',
  );

  // The dialog's refusals in German, under their fields, before anything is sent: more than a day
  // holds, and an end before the start.
  const posts: string[] = [];
  page.on('request', (r) => void (r.method() === 'POST' && r.url().includes('/web/api/planning_assignments') && posts.push(r.url())));
  await page.getByRole('button', { name: 'Mia Tester einplanen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Einplanen' });
  await pick(dialog, 'Projekt', 'webs', 'Acme – Website');
  const perDay = dialog.getByRole('textbox', { name: 'Stunden pro Tag' });
  await perDay.fill('30');
  await typeDate(dialog, 'Endet am', '2020-01-01');
  await dialog.getByRole('button', { name: 'Einplanen' }).click();
  await expect(perDay).toHaveAccessibleDescription('Ein Tag hat höchstens 24 Stunden.');
  await perDay.fill('4,5');
  await dialog.getByRole('button', { name: 'Einplanen' }).click();
  await expect(dialog.getByText('Geben Sie ein Ende am oder nach dem Beginn ein.')).toBeVisible();
  expect(posts).toEqual([]);
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expectClean(page);
});

/**
 * The filter bar (at agency size): Ada's team with ten more people, Zoë and Chloé among them,
 * and a placeholder. Mia is planned on Website and Shop (over her 40 hours), Zoë on Shop, the
 * placeholder on Website, and Person00 on Website only long after the weeks shown.
 */
async function agency(workspace: TestWorkspace) {
  const t = await team(workspace);
  const zoe = await workspace.seed.memberWithoutPassword('Zoë');
  await ok(workspace.api('PATCH', `/web/api/members/${zoe.id}`, { expected_weekly_hours: '40' }));
  await workspace.seed.memberWithoutPassword('Chloé');
  const later = await workspace.seed.memberWithoutPassword('Person00');
  for (let i = 1; i < 10; i++) await workspace.seed.memberWithoutPassword(`Person${String(i).padStart(2, '0')}`);
  const designer = await ok(workspace.api('POST', '/web/api/planning_placeholders', { name: 'Senior designer', weekly_hours: 40 }));
  const week = { starts_on: t.monday, ends_on: plusDays(t.monday, 4) };
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, user_id: t.mia.id, ...week, hours_per_day: 8 }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.shop.id, user_id: t.mia.id, ...week, hours_per_day: 2 }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.shop.id, user_id: zoe.id, ...week, hours_per_day: 4 }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, placeholder_id: designer.id, ...week, hours_per_day: 6 }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: t.website.id, user_id: later.id, starts_on: plusDays(t.monday, 7 * 20), ends_on: plusDays(t.monday, 7 * 20 + 4), hours_per_day: 4 }));
  return t;
}

/** The people's and placeholders' names as the schedule's rows show them (the load rows' headers). */
const rowNames = (page: Page) => page.getByRole('table').getByRole('rowheader');

test('the filter bar: search by name, filter by project with its bars marked, only over-allocated, people or placeholders; kept in the URL', async ({ page, workspace }) => {
  test.setTimeout(300_000);
  const t = await agency(workspace);
  await signIn(page, t.admin);
  const schedules: string[] = [];
  page.on('request', (r) => void (r.url().includes('/web/api/schedule') && schedules.push(r.url())));
  await visit(page, '/planning', 'planning-filters');
  const filters = page.getByRole('group', { name: 'Filter the schedule' });
  await expect(filters).toContainText('15 people, 1 placeholder');
  await expect(page.getByRole('row', { name: /^Person\d\d Tester/ })).toHaveCount(10);
  const loads = schedules.length;

  // By name, without the accent: Zoë alone; the count is said in the live region and the URL keeps the search.
  const search = filters.getByRole('searchbox', { name: 'Search people and placeholders' });
  // A row that stays keeps its elements: filtering does not draw its bars again.
  const zoeBar = await page.getByRole('cell', { name: 'Assignments of Zoë Tester' }).getByRole('button', { name: /^Shop \(Bolt\)/ }).elementHandle();
  await search.fill('zoe');
  await expect(rowNames(page)).toHaveText(['Zoë Tester', /^Placeholders/]);
  expect(await zoeBar!.evaluate((el) => el.isConnected)).toBe(true);
  await expect(filters).toContainText('1 of 15 people, 0 of 1 placeholder');
  await expect(page.getByRole('status').filter({ hasText: /^1 of 15 people, 0 of 1 placeholder$/ })).toBeAttached();
  await expect(page.getByText('No placeholder matches these filters.')).toBeVisible();
  await expect(page).toHaveURL(/[?&]search=zoe(&|$)/);

  // By project: the rows with a plan on Website in these weeks (not Person00's, months later); the other projects' bars are pale.
  await search.fill('');
  await expect(page).not.toHaveURL(/search=/);
  await filters.getByRole('combobox', { name: 'Filter by project' }).fill('webs');
  await page.getByRole('option', { name: 'Acme – Website' }).click();
  await expect(rowNames(page)).toHaveText(['Mia Tester', /^Placeholders/, 'Senior designer']);
  await expect(filters).toContainText('1 of 15 people, 1 of 1 placeholder');
  await expect(filters.getByRole('button', { name: 'Remove the filter Acme – Website' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]project=${t.website.id}`));
  const mia = page.getByRole('cell', { name: 'Assignments of Mia Tester' });
  const colour = (bar: Locator) => bar.evaluate((el) => getComputedStyle(el).backgroundColor);
  const websiteBar = mia.getByRole('button', { name: /^Website \(Acme\)/ });
  const shopBar = mia.getByRole('button', { name: /^Shop \(Bolt\)/ });
  const placeholderBar = page.getByRole('cell', { name: 'Assignments of Senior designer' }).getByRole('button', { name: /^Website \(Acme\)/ });
  const [chosen, other, placeholderChosen] = [await colour(websiteBar), await colour(shopBar), await colour(placeholderBar)];
  expect(other, 'the other project’s bar stands back').not.toBe(chosen);
  expect(other).not.toBe(placeholderChosen);
  await checkPage(page, 'planning-filter-project');

  // Both projects: Zoë (Shop) joins; the bars are all as usual again.
  await filters.getByRole('combobox', { name: 'Filter by project' }).fill('shop');
  await page.getByRole('option', { name: 'Bolt – Shop' }).click();
  await expect(rowNames(page)).toHaveText(['Mia Tester', 'Zoë Tester', /^Placeholders/, 'Senior designer']);
  expect(await colour(shopBar)).toBe(chosen);
  // Only over-allocated: Mia (50 of 40 hours).
  await filters.getByText('Only over-allocated').click();
  await expect(rowNames(page)).toHaveText(['Mia Tester', /^Placeholders/]);
  await expect(filters).toContainText('1 of 15 people, 0 of 1 placeholder');
  // People only: the placeholders' part goes.
  await filters.getByRole('button', { name: / Show$/ }).click();
  await page.getByRole('option', { name: 'People', exact: true }).click();
  await expect(rowNames(page)).toHaveText(['Mia Tester']);
  await expect(filters.getByText('1 of 15 people', { exact: true })).toBeVisible();

  // Later keeps the filters (Mia's plans are this week: nobody in the weeks from four weeks on), and so does a reload.
  await page.getByRole('button', { name: /Later/ }).click();
  await expect(page).toHaveURL(/[?&]from=/);
  await expect(page.getByText('No one matches these filters.')).toBeVisible();
  await page.getByRole('button', { name: /Earlier/ }).click();
  await expect(rowNames(page)).toHaveText(['Mia Tester']);
  // None of the filter changes asked for the schedule again (only the weeks moved did).
  expect(schedules.length - loads, schedules.join('\n')).toBeLessThanOrEqual(2);
  await page.reload();
  await expect(rowNames(page)).toHaveText(['Mia Tester']);
  await expect(filters.getByRole('checkbox', { name: 'Only over-allocated' })).toBeChecked();
  await expect(filters.getByRole('button', { name: 'Remove the filter Acme – Website' })).toBeVisible();
  await expect(filters.getByRole('button', { name: 'Remove the filter Bolt – Shop' })).toBeVisible();

  // Placeholders only, with the rest: nobody matches; the empty state clears every filter.
  await filters.getByRole('button', { name: / Show$/ }).click();
  await page.getByRole('option', { name: 'Placeholders', exact: true }).click();
  await expect(page.getByText('No one matches these filters.')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await checkPage(page, 'planning-filter-empty');
  await page.getByRole('button', { name: 'Clear filters' }).last().click();
  await expect(page.getByRole('row', { name: /^Person\d\d Tester/ })).toHaveCount(10);
  await expect(filters).toContainText('15 people, 1 placeholder');
  // The weeks stay as they were (Later, then Earlier, left them in the URL); no filter is left.
  expect([...new URL(page.url()).searchParams.keys()]).toEqual(['from']);
  await expectClean(page);
});

test('on a phone the filters fold behind one button and the schedule stays on screen', async ({ page, workspace }) => {
  test.setTimeout(240_000);
  const t = await agency(workspace);
  await signIn(page, t.admin);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/planning');
  const filters = page.getByRole('group', { name: 'Filter the schedule' });
  await expect(filters.getByRole('searchbox', { name: 'Search people and placeholders' })).toBeVisible();
  await expect(filters.getByRole('combobox', { name: 'Filter by project' })).toBeHidden();
  const more = filters.getByRole('button', { name: /^Filters( \(\d\))?$/ });
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  // The schedule starts on the first screen, with its first rows.
  const second = (await rowNames(page).nth(1).boundingBox())!;
  expect(second.y + second.height, 'the schedule’s second row is below the first screen').toBeLessThanOrEqual(844);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  await pick(filters, 'Filter by project', 'shop', 'Bolt – Shop');
  await expect(rowNames(page)).toHaveText(['Mia Tester', 'Zoë Tester', /^Placeholders/]);
  await more.click();
  await expect(filters.getByRole('button', { name: 'Filters (1)' })).toHaveAttribute('aria-expanded', 'false');
  await expect(filters.getByRole('button', { name: 'Remove the filter Bolt – Shop' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/planning-filter-phone-390.png', fullPage: true });
  await expectAccessible(page, 'the folded filters at 390 px');
  await expectClean(page);
});

test('in German: the filter bar in German', async ({ page, workspace }) => {
  await workspace.seed.german();
  await workspace.seed.memberWithoutPassword('Mia');
  await visit(page, '/planning', 'planning-filters-de');
  const filters = page.getByRole('group', { name: 'Planung filtern' });
  await expect(filters).toContainText('2 Personen, 0 Platzhalter');
  await expect(filters.getByRole('combobox', { name: 'Nach Projekt filtern' })).toBeVisible();
  await expect(filters.getByRole('checkbox', { name: 'Nur überplante' })).toBeVisible();
  await expect(filters.getByRole('button', { name: / Anzeigen$/ })).toContainText('Personen und Platzhalter');
  await filters.getByRole('searchbox', { name: 'Personen und Platzhalter suchen' }).fill('mia');
  await expect(filters).toContainText('1 von 2 Personen, 0 von 0 Platzhaltern');
  await filters.getByRole('searchbox', { name: 'Personen und Platzhalter suchen' }).fill('niemand');
  await expect(page.getByText('Niemand passt zu diesen Filtern.')).toBeVisible();
  await checkPage(page, 'planning-filters-empty-de');
  await page.getByRole('button', { name: 'Filter zurücksetzen' }).last().click();
  await expect(rowNames(page)).toHaveText(['Olive Owner', 'Mia Tester', /^Platzhalter/]);
  await expectClean(page);
});
