import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';
import type { Page } from '@playwright/test';

/**
 * The approvals area (issue 16 item 3), against a real server: a member submits a week,
 * a manager reviews the preflight, acknowledges its warning and approves, the week shows
 * locked in the time grid, an administrator withdraws and it unlocks; a withdrawal that
 * billed work depends on is refused with the reason. Seeded through the API.
 */

test.use({ signedIn: false });

// A week as the person's default date pattern (YYYY-MM-DD) shows it.
const weekText = (from: string, to: string) => `${from} – ${to}`;

/** Mia (member, 40 h expected) with 2 h on Monday of this week; Max, her manager; Ada, an administrator. */
async function team(workspace: TestWorkspace, billable = false) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  const mia = await workspace.seed.memberWithPassword('Mia');
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  const ada = await workspace.seed.memberWithPassword('Ada', 'administrator');
  await ok(workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [mia.id] }));
  await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { expected_weekly_hours: '40' }));
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = await ok(
    workspace.api('POST', '/api/v2/projects', {
      client_id: client.id,
      name: 'Website',
      task_ids: [task.id],
      ...(billable ? { is_billable: true, bill_by: 'project', hourly_rate: 100 } : {}),
    }),
  );
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: mia.id }));
  const week = await ok(workspace.api('GET', '/web/api/approvals/week', undefined, mia.id));
  const entry = await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: week.from, hours: 2 }, mia.id));
  return { mia, max, ada, client, project, task, entry, from: week.from as string, to: week.to as string };
}

async function signInAs(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await signIn(page, who);
}

const statusOf = async (workspace: TestWorkspace, id: string, as: string) => (await workspace.api('GET', `/api/v2/time_entries/${id}`, undefined, as)).body.approval_status;

test('submit, review the preflight, acknowledge and approve, see the lock, withdraw', async ({ page, workspace }) => {
  test.slow(); // three people, seven pages, each checked by axe at two widths, and two dialogs
  const t = await team(workspace);
  const week = weekText(t.from, t.to);

  // Mia submits her week.
  await signInAs(page, t.mia);
  const calls = await visit(page, '/approvals', 'approvals-member');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, week
  await expect(page.getByRole('heading', { name: `Your week: ${week}` })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Waiting for your approval' })).toHaveCount(0); // members review nobody
  await page.getByRole('button', { name: 'Submit week for approval' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Submitted 1 item (2:00) for approval.' })).toBeVisible();
  await expect.poll(() => statusOf(workspace, t.entry.id, t.mia.id)).toBe('submitted');

  // Max sees it waiting, reviews the preflight's warning, acknowledges it and approves.
  await signInAs(page, t.max);
  const managerCalls = await visit(page, '/approvals', 'approvals-queue');
  expect(managerCalls.length, managerCalls.join(', ')).toBeLessThanOrEqual(4); // session, timer, week, queue: side by side
  await page.getByRole('button', { name: `Review Mia Tester, ${week}` }).click();
  const dialog = page.getByRole('dialog');
  const warning = dialog.getByRole('checkbox', { name: /^2 h tracked, below the 40 h expected for the week\.$/ });
  await expect(warning).toBeVisible();
  const approve = dialog.getByRole('button', { name: 'Acknowledge and approve' });
  await expect(approve).toBeDisabled();
  await checkPage(page, 'approvals-review');
  await dialog.getByText(/2 h tracked, below/).click(); // React Aria's input is visually hidden: the label takes the click
  await expect(warning).toBeChecked();
  await approve.click();
  await expect(page.getByRole('status').filter({ hasText: `Approved 1 item of Mia Tester, ${week}.` })).toBeVisible();
  await expect.poll(() => statusOf(workspace, t.entry.id, t.mia.id)).toBe('approved');
  await expect(page.getByRole('button', { name: `Withdraw approval of Mia Tester, ${week}` })).toBeVisible();

  // Mia's week grid shows the week locked.
  await signInAs(page, t.mia);
  await visit(page, `/time/week?start=${t.from}`, 'approvals-time-locked');
  await expect(page.getByRole('link', { name: /Website, Design, .*: 2:00, approved, locked; open the day/ })).toBeVisible();
  // Nothing in the week takes typing (every try was a 409 after the typing), and the page says why up front.
  await expect(page.getByRole('status').filter({ hasText: 'This week is approved and locked. Ask an approver to withdraw the approval.' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Website, Design, / })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Add row' })).toHaveCount(0);
  await visit(page, `/time/day?date=${t.to}`, 'approvals-day-locked');
  await expect(page.getByRole('status').filter({ hasText: 'This week is approved and locked.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add entry' })).toHaveCount(0);
  // The empty day does not point to a form that is not there.
  await expect(page.getByRole('cell', { name: 'No entries on this day.', exact: true })).toBeVisible();
  await visit(page, '/approvals', 'approvals-member-approved');
  await expect(page.getByRole('button', { name: 'Submit week for approval' })).toBeDisabled();

  // Ada withdraws the approval: the week unlocks.
  await signInAs(page, t.ada);
  await visit(page, '/approvals', 'approvals-admin');
  await page.getByRole('button', { name: `Withdraw approval of Mia Tester, ${week}` }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Reason (optional)' }).fill('Approved too early');
  await checkPage(page, 'approvals-withdraw');
  await page.getByRole('dialog').getByRole('button', { name: 'Withdraw approval' }).click();
  await expect(page.getByRole('status').filter({ hasText: `the week of ${week} is unlocked` })).toBeVisible();
  await expect.poll(() => statusOf(workspace, t.entry.id, t.mia.id)).toBe('submitted');

  await signInAs(page, t.mia);
  await visit(page, `/time/week?start=${t.from}`, 'approvals-time-unlocked');
  await expect(page.getByRole('textbox', { name: /^Website, Design, / }).first()).toBeEditable();
  await expectClean(page);
});

/** Approves a person's submitted time of a period, acknowledging the preflight's warnings as the API asks. */
async function approve(workspace: TestWorkspace, userId: string, from: string, to: string) {
  const first = await workspace.api('POST', '/api/v2/approvals/approve', { user_id: userId, from, to, acknowledged_warning_codes: [] });
  if (first.status !== 409) return ok(Promise.resolve(first));
  return ok(
    workspace.api('POST', '/api/v2/approvals/approve', {
      user_id: userId,
      from,
      to,
      preflight_fingerprint: first.body.preflight.fingerprint,
      acknowledged_warning_codes: first.body.preflight.warnings.map((w: { code: string }) => w.code),
    }),
  );
}

test('many approved weeks: fifty at a time, and narrowed to a person', async ({ page, workspace }) => {
  test.setTimeout(120_000);
  const t = await team(workspace);
  const lea = await workspace.seed.memberWithPassword('Lea');
  await ok(workspace.api('POST', `/api/v2/projects/${t.project.id}/user_assignments`, { user_id: lea.id }));
  // 30 weeks each for Mia and Lea before this one; the list has the last 26 of each: 52 weeks.
  const daysBack = (days: number) => new Date(Date.parse(`${t.from}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
  const [from, to] = [daysBack(30 * 7), daysBack(1)];
  for (const who of [t.mia, lea]) {
    for (let w = 1; w <= 30; w++) await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: t.project.id, task_id: t.task.id, spent_date: daysBack(w * 7), hours: 1 }, who.id));
    await ok(workspace.api('POST', '/api/v2/approvals/submit', { from, to }, who.id));
    await approve(workspace, who.id, from, to);
  }
  await signInAs(page, t.ada);
  await visit(page, '/approvals', 'approvals-many');
  const approved = page.getByRole('region', { name: 'Approved lately' });
  const rows = approved.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(51); // the header and 50 weeks
  const pager = approved.getByRole('navigation', { name: 'Pages' });
  await expect(pager).toContainText('Page 1 of 2 (52 weeks)');
  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(rows).toHaveCount(3);
  await expect(pager).toContainText('Page 2 of 2 (52 weeks)');
  await checkPage(page, 'approvals-many-page-2');
  const find = approved.getByRole('searchbox', { name: 'Find a person' });
  await find.fill('lea');
  await expect(approved.getByRole('status')).toHaveText('26 weeks of people matching “lea”.');
  await expect(rows).toHaveCount(27);
  await expect(rows.nth(1)).toContainText('Lea Tester');
  await expect(pager).toHaveCount(0);
  await find.fill('nobody');
  await expect(approved.getByRole('status')).toHaveText('0 weeks of people matching “nobody”.');
  await expect(approved.getByRole('table')).toHaveCount(0);
  await expect(approved).not.toContainText('No approved weeks');
  await expectClean(page);
});

test('a withdrawal that billed work depends on is refused with the reason', async ({ page, workspace }) => {
  const t = await team(workspace, true);
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: t.from, to: t.to }, t.mia.id));
  await ok(workspace.api('POST', '/api/v2/approvals/approve', { user_id: t.mia.id, from: t.from, to: t.to, preflight_fingerprint: undefined, acknowledged_warning_codes: [] }).then(async (r) => {
    if (r.status !== 409) return r;
    // the preflight warns (40 h expected): acknowledge as the API says
    return workspace.api('POST', '/api/v2/approvals/approve', {
      user_id: t.mia.id,
      from: t.from,
      to: t.to,
      preflight_fingerprint: r.body.preflight.fingerprint,
      acknowledged_warning_codes: r.body.preflight.warnings.map((w: { code: string }) => w.code),
    });
  }));
  const invoice = await ok(
    workspace.api('POST', '/api/v2/invoices', { client_id: t.client.id, line_items_import: { project_ids: [t.project.id], time: { summary_type: 'project', from: t.from, to: t.to } } }),
  );
  await expect.poll(async () => (await workspace.api('GET', `/api/v2/time_entries/${t.entry.id}`, undefined, t.mia.id)).body.is_locked).toBe(true);

  await signIn(page, workspace.owner);
  await visit(page, '/approvals', 'approvals-owner');
  await page.getByRole('button', { name: `Withdraw approval of Mia Tester, ${weekText(t.from, t.to)}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Withdraw approval' }).click();
  const refusal = page.getByRole('dialog').getByRole('alert');
  await expect(refusal).toContainText('Cannot withdraw: billed work depends on this approval');
  await expect(refusal).toContainText(`billed on invoice ${invoice.number}`);
  await checkPage(page, 'approvals-withdraw-refused');
  expect(await statusOf(workspace, t.entry.id, t.mia.id)).toBe('approved');
  await expectClean(page);
});

test('a week returned for correction says so, who returned it and why, in the person’s timesheet', async ({ page, workspace }) => {
  const t = await team(workspace);
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: t.from, to: t.to }, t.mia.id));
  await ok(workspace.api('POST', '/api/v2/approvals/reject', { user_id: t.mia.id, from: t.from, to: t.to, reason: 'Monday is the workshop: book it on Design.' }, t.max.id));

  await signInAs(page, t.mia);
  // The rejection e-mail links to the week: the timesheet says what happened and where to submit again.
  await visit(page, `/time/week?start=${t.from}`, 'time-week-returned');
  const banner = page.getByRole('status').filter({ hasText: 'Returned for correction by Max' });
  await expect(banner).toContainText('Monday is the workshop: book it on Design.');
  await expect(banner.getByRole('link', { name: 'Approvals' })).toHaveAttribute('href', `/approvals?date=${t.from}`);
  await checkPage(page, 'time-week-returned');
  await visit(page, `/time/day?date=${t.from}`, 'time-day-returned');
  await expect(page.getByRole('status').filter({ hasText: 'Returned for correction by Max' })).toBeVisible();

  // Submitted again, the banner goes.
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: t.from, to: t.to }, t.mia.id));
  await visit(page, `/time/week?start=${t.from}`, 'time-week-resubmitted');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Returned for correction')).toHaveCount(0);
  await expectClean(page);
});
